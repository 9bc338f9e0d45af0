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
  const I = state.checkInterval.value;
  const M = state.minOpen.value;
  const { envoy, shutdownManager: manager } = state;
  start(drawing, state.grace, traffic);
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
  if (D < G)
    drawing.event(
      D,
      manager,
      `POST /healthcheck/fail: Envoy fails its health checks and closes each connection after ` +
        `its current request; its listeners keep accepting. Then --check-delay ` +
        `(${secondsText(C)}, ${state.checkDelay.source})`,
    );
  if (state.meshUnknown)
    drawing.event(
      0,
      'mesh proxy',
      "starts its own shutdown (not modelled with Contour's Envoy)",
      state.meshUnknown,
    );
  // The earliest the ready file may be written: the first poll, when no connection is open then.
  const stop = Math.min(D + C, G);
  const byDeadline = D + C >= G;
  drawing.event(
    stop,
    envoy,
    byDeadline
      ? 'SIGTERM (preStop cut at the grace deadline): Envoy exits, closing its listeners'
      : `SIGTERM at the earliest: the first poll (every ${secondsText(I)}, ` +
          `${state.checkInterval.source}) that finds ≤ ${M} connections open writes the ready ` +
          `file; Envoy exits, closing its listeners`,
  );
  // Until when the load balancer's connections reach Envoy: its exit, or, where the node forwards
  // only to a ready pod, the moment the kubelet has marked it unready at the latest (its probe
  // fails from /healthcheck/fail on), or not at all before Kubernetes 1.26.
  const unready = Math.min(D + state.readinessDelay.value, G);
  const forwarded =
    traffic.nodeForwarding === 'never'
      ? 0
      : traffic.nodeForwarding === 'while-ready'
        ? Math.min(unready, stop)
        : stop;
  if (forwarded < Math.min(stop, W))
    nodeDropWindow(
      drawing,
      traffic,
      forwarded,
      'Envoy',
      `is unready by t=${unready} (/healthcheck/fail after --drain-delay ${secondsText(D)}, ` +
        `then its readiness probe, ${state.readinessDelay.source})`,
    );
  else if (stop < W)
    drawing.window(
      stop,
      W,
      'fail',
      'refused',
      `new connections still arrive ${traffic.sender}, but Envoy may exit from t=${stop} (` +
        (byDeadline
          ? 'the grace deadline'
          : `drain-delay + check-delay = ${secondsText(D + C)}, then the first poll that ` +
            'finds no connection open') +
        ') → connections refused',
    );
  // With M = 0 the ready file waits for every connection: their requests finish, then one poll.
  const done = stop + R + I;
  if (!byDeadline && M > 0)
    drawing.window(
      stop,
      stop + R,
      'fail',
      'cut',
      `Envoy may get SIGTERM with up to ${M} connections still open ` +
        `(--min-open-connections ${M}, ${state.minOpen.source}): the requests on them are cut`,
    );
  if (done > G)
    drawing.window(
      G,
      stop + R,
      'fail',
      'cut',
      `the grace deadline (t=${G}) ends Envoy's wait: SIGTERM cuts the requests still in ` +
        `flight; the last one accepted at t=${stop} needs until t=${stop + R} ` +
        `(R = ${secondsText(R)})`,
    );
  deadline(drawing, G, state.grace, done > G ? envoy : undefined);
  drawing.window(
    0,
    Math.min(forwarded, W),
    'ok',
    'serving',
    traffic.nodeForwarding === 'while-ready'
      ? 'Envoy stays ready and accepts new connections (its health checks fail only after ' +
          '--drain-delay; its preStop holds SIGTERM until the ready file)'
      : `Envoy accepts new connections (its preStop holds SIGTERM until the ready file)`,
  );
  if (stop > W)
    drawing.window(
      W,
      stop,
      'ok',
      'serving',
      'no new connections from the load balancer; requests on connections already open still ' +
        'served',
    );
  if (!byDeadline && M === 0)
    drawing.window(
      stop,
      Math.min(stop + R, G),
      'ok',
      'finishing',
      `requests in flight finish: the ready file waits until no connection is open ` +
        `(R = ${secondsText(R)}, then the next poll)`,
    );
  deregistration(drawing, traffic, Math.min(stop + R, G), Math.min(done, G));
  return drawing.done('deletion', 'no request fails');
}
