/**
 * The shutdown timeline of Contour's Envoy pod (explain), as Contour runs it
 * (./shutdownManager.ts, read at v1.33.6): Envoy's preStop waits on the shutdown-manager's
 * /shutdown; the shutdown-manager's preStop waits --drain-delay, fails Envoy's health checks,
 * waits --check-delay, then polls every --check-interval and writes the ready file once the open
 * connections are ≤ --min-open-connections; Envoy then gets SIGTERM and exits. Drawn with the kit
 * of fn/explanation/timeline.ts from the values the pod runs with; it decides no duration.
 */
import type { Unknown } from '../../core/unknown.ts';
import type { Valued } from '../../explanation/podSettings.ts';
import {
  deadline,
  deregistration,
  Drawing,
  nodeDropWindow,
  openConnectionsServed,
  refusedUntilDrained,
  secondsText,
  start,
} from '../../explanation/timeline.ts';
import type { Timeline, Traffic } from '../../explanation/timeline.ts';

/** What a Contour Envoy pod's shutdown depends on. */
export interface ContourState {
  readonly envoy: string;
  readonly shutdownManager: string;
  readonly grace: Valued<number>;
  readonly drainDelay: Valued<number>;
  readonly checkDelay: Valued<number>;
  readonly checkInterval: Valued<number>;
  readonly minOpen: Valued<number>;
  /**
   * How long after /healthcheck/fail the kubelet has marked Envoy unready at the latest: its
   * readiness probe's periodSeconds × failureThreshold.
   */
  readonly readinessDelay: Valued<number>;
  /** What is not modelled about the pod's mesh sidecar, when it has one. */
  readonly meshUnknown?: Unknown;
}

/** When Envoy may exit: the first poll after both delays, or SIGKILL at the grace deadline. */
interface Stop {
  readonly stop: number;
  readonly byDeadline: boolean;
}

/**
 * Returns the timeline of one state (as written, or patched) of a Contour Envoy pod. Behind node
 * targets with externalTrafficPolicy Local (`traffic.nodeForwarding`), the node forwards to the
 * terminating pod only while it passes readiness, which /healthcheck/fail ends
 * (./decide.ts coveringDelays).
 */
export function contourTimeline(state: ContourState, traffic: Traffic): Timeline {
  const drawing = new Drawing();
  const W = traffic.drainWindowSeconds;
  const R = traffic.maxRequestSeconds;
  const G = state.grace.value;
  const D = state.drainDelay.value;
  const C = state.checkDelay.value;
  start(drawing, state.grace, traffic);
  drawHooks(drawing, state);
  // The earliest the ready file may be written: the first poll, when no connection is open then.
  const at: Stop = { stop: Math.min(D + C, G), byDeadline: D + C >= G };
  drawing.event(
    at.stop,
    state.envoy,
    at.byDeadline
      ? 'SIGTERM (preStop cut at the grace deadline): Envoy exits, closing its listeners'
      : `SIGTERM at the earliest: the first poll ` +
          `(every ${secondsText(state.checkInterval.value)}, ` +
          `${state.checkInterval.source}) that finds ≤ ${state.minOpen.value} connections open ` +
          `writes the ready file; Envoy exits, closing its listeners`,
  );
  const forwarded = drawNewConnectionsLost(drawing, state, traffic, at);
  const done = drawRequestsCut(drawing, state, traffic, at);
  deadline(drawing, G, state.grace, done > G ? state.envoy : undefined);
  const { stop, byDeadline } = at;
  drawing.window({
    from: 0,
    to: Math.min(forwarded, W),
    outcome: 'ok',
    kind: 'serving',
    text:
      traffic.nodeForwarding === 'while-ready'
        ? 'Envoy stays ready and accepts new connections (its health checks fail only after ' +
          '--drain-delay; its preStop holds SIGTERM until the ready file)'
        : `Envoy accepts new connections (its preStop holds SIGTERM until the ready file)`,
  });
  openConnectionsServed(drawing, W, stop);
  if (!byDeadline && state.minOpen.value === 0)
    drawing.window({
      from: stop,
      to: Math.min(stop + R, G),
      outcome: 'ok',
      kind: 'finishing',
      text:
        `requests in flight finish: the ready file waits until no connection is open ` +
        `(R = ${secondsText(R)}, then the next poll)`,
    });
  deregistration(drawing, traffic, Math.min(stop + R, G), Math.min(done, G));
  return drawing.done('deletion', 'no request fails');
}

/** The two preStop hooks as they start, and the shutdown-manager's health-check failure. */
function drawHooks(drawing: Drawing, state: ContourState): void {
  const { envoy, shutdownManager: manager } = state;
  const D = state.drainDelay.value;
  drawing.event(
    0,
    envoy,
    `preStop httpGet /shutdown waits for the shutdown-manager's ready file; Envoy keeps accepting`,
  );
  drawing.event(
    0,
    manager,
    `preStop contour envoy shutdown: waits --drain-delay (${secondsText(D)}, ` +
      `${state.drainDelay.source})`,
  );
  if (D < state.grace.value)
    drawing.event(
      D,
      manager,
      `POST /healthcheck/fail: Envoy fails its health checks and closes each connection after ` +
        `its current request; its listeners keep accepting. Then --check-delay ` +
        `(${secondsText(state.checkDelay.value)}, ${state.checkDelay.source})`,
    );
  if (state.meshUnknown)
    drawing.event(
      0,
      'mesh proxy',
      "starts its own shutdown (not modelled with Contour's Envoy)",
      state.meshUnknown,
    );
}

/**
 * Until when the load balancer's connections reach Envoy: its exit, or, where the node forwards
 * only to a ready pod, the moment the kubelet has marked it unready at the latest (its probe
 * fails from /healthcheck/fail on), or not at all before Kubernetes 1.26. Draws the connections
 * that arrive after that, dropped by the node or refused by an Envoy gone.
 */
function drawNewConnectionsLost(
  drawing: Drawing,
  state: ContourState,
  traffic: Traffic,
  { stop, byDeadline }: Stop,
): number {
  const W = traffic.drainWindowSeconds;
  const D = state.drainDelay.value;
  const C = state.checkDelay.value;
  const unready = Math.min(D + state.readinessDelay.value, state.grace.value);
  const forwarded =
    traffic.nodeForwarding === 'never'
      ? 0
      : traffic.nodeForwarding === 'while-ready'
        ? Math.min(unready, stop)
        : stop;
  if (forwarded < Math.min(stop, W))
    nodeDropWindow(drawing, traffic, forwarded, {
      who: 'Envoy',
      why:
        `is unready by t=${unready} (/healthcheck/fail after --drain-delay ${secondsText(D)}, ` +
        `then its readiness probe, ${state.readinessDelay.source})`,
    });
  else
    refusedUntilDrained(
      drawing,
      traffic,
      stop,
      `Envoy may exit from t=${stop} (` +
        (byDeadline
          ? 'the grace deadline'
          : `drain-delay + check-delay = ${secondsText(D + C)}, then the first poll that ` +
            'finds no connection open') +
        ')',
    );
  return forwarded;
}

/**
 * Draws the requests cut (Envoy's SIGTERM with connections still open, or the grace deadline)
 * and returns when Envoy is done: with M = 0 the ready file waits for every connection, their
 * requests finish, then one poll.
 */
function drawRequestsCut(
  drawing: Drawing,
  state: ContourState,
  traffic: Traffic,
  { stop, byDeadline }: Stop,
): number {
  const R = traffic.maxRequestSeconds;
  const G = state.grace.value;
  const M = state.minOpen.value;
  const done = stop + R + state.checkInterval.value;
  if (!byDeadline && M > 0)
    drawing.window({
      from: stop,
      to: stop + R,
      outcome: 'fail',
      kind: 'cut',
      text:
        `Envoy may get SIGTERM with up to ${M} connections still open ` +
        `(--min-open-connections ${M}, ${state.minOpen.source}): the requests on them are cut`,
    });
  if (done > G)
    drawing.window({
      from: G,
      to: stop + R,
      outcome: 'fail',
      kind: 'cut',
      text:
        `the grace deadline (t=${G}) ends Envoy's wait: SIGTERM cuts the requests still in ` +
        `flight; the last one accepted at t=${stop} needs until t=${stop + R} ` +
        `(R = ${secondsText(R)})`,
    });
  return done;
}
