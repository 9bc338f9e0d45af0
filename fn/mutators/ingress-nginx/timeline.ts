/**
 * The shutdown timeline of an ingress-nginx controller pod (explain), as the controller runs it
 * (./controller.ts, read at controller-v1.15.1): `/wait-shutdown` sends SIGTERM at
 * once; /healthz fails; nginx keeps accepting for `--shutdown-grace-period`, then `nginx -s quit`
 * closes the listeners and the workers finish the requests in flight (up to
 * `worker-shutdown-timeout`); the controller exits `--post-shutdown-grace-period` after nginx.
 * Drawn with the kit of fn/explanation/timeline.ts from the values the pod runs with; it decides no
 * duration.
 */
import type { Unknown } from '../../core/unknown.ts';
import type { PreStopRead, Valued } from '../../explanation/podSettings.ts';
import {
  deadline,
  deregistration,
  Drawing,
  hookStart,
  hookUnknown,
  nodeDropWindow,
  openConnectionsServed,
  refusedUntilDrained,
  preStopSeconds,
  secondsText,
  sigtermAfter,
  start,
} from '../../explanation/timeline.ts';
import type { Timeline, Traffic } from '../../explanation/timeline.ts';
import { WORKER_SHUTDOWN_TIMEOUT_DEFAULT_SECONDS } from './controller.ts';

/** What an ingress-nginx controller pod's shutdown depends on. */
export interface IngressNginxState {
  readonly container: string;
  readonly grace: Valued<number>;
  readonly preStop: PreStopRead;
  /** True when the preStop is the chart's `/wait-shutdown` (SIGTERM at once). */
  readonly waitShutdown: boolean;
  /** P: `--shutdown-grace-period`. */
  readonly shutdownGrace: Valued<number>;
  /** `--post-shutdown-grace-period`. */
  readonly postShutdown: Valued<number>;
  /** What is not modelled about the pod's mesh sidecar, when it has one. */
  readonly meshUnknown?: Unknown;
  /**
   * How long after /healthz starts failing the kubelet still counts the controller ready at least
   * (fn/explanation/podSettings.ts readinessHoldOf); absent without a readiness probe.
   */
  readonly readinessHold?: Valued<number>;
}

/** The moments the controller's shutdown turns on. */
interface Moments {
  /** SIGTERM to the controller: at once with /wait-shutdown, after any other hook. */
  readonly sigterm: number;
  /** nginx -s quit closes the listeners (--shutdown-grace-period after SIGTERM), or SIGKILL. */
  readonly stop: number;
  /** SIGKILL at the grace deadline. */
  readonly kill: number;
}

/** Returns the timeline of one state (as written, or patched) of an ingress-nginx pod. */
export function ingressNginxTimeline(state: IngressNginxState, traffic: Traffic): Timeline {
  const drawing = new Drawing();
  const W = traffic.drainWindowSeconds;
  const G = state.grace.value;
  start(drawing, state.grace, traffic);
  // /wait-shutdown is modelled: it signals the controller at t=0 and returns when nginx is gone.
  // Any other hook delays the controller's SIGTERM by its length (unknown when not read).
  const sigterm = state.waitShutdown ? 0 : Math.min(preStopSeconds(state.preStop, W), G);
  drawSigterm(drawing, state, sigterm);
  const P = state.shutdownGrace.value;
  const at: Moments = { sigterm, stop: Math.min(sigterm + P, G), kill: G };
  drawListenersClosed(drawing, state, traffic, at);
  const forwarded = nodeForwarded(drawing, state, traffic, at);
  const { done, exit } = drawWorkers(drawing, state, traffic, at);
  deadline(drawing, at.kill, state.grace, exit >= at.kill ? state.container : undefined);
  drawing.window({
    from: 0,
    to: Math.min(at.stop, W, forwarded),
    outcome: 'ok',
    kind: 'serving',
    text:
      `new connections accepted (${state.waitShutdown ? '' : 'preStop, then '}` +
      '--shutdown-grace-period)',
  });
  openConnectionsServed(drawing, W, at.stop);
  drawing.window({
    from: at.stop,
    to: done,
    outcome: 'ok',
    kind: 'finishing',
    text: `requests in flight finish (R = ${secondsText(traffic.maxRequestSeconds)})`,
  });
  deregistration(drawing, traffic, done, exit);
  return drawing.done('deletion', 'no request fails');
}

/** The controller's SIGTERM: at once by /wait-shutdown, or after another hook. */
function drawSigterm(drawing: Drawing, state: IngressNginxState, sigterm: number): void {
  const name = state.container;
  const P = state.shutdownGrace.value;
  if (state.waitShutdown)
    drawing.event(
      0,
      name,
      `preStop /wait-shutdown: SIGTERM to the controller at once (cmd/waitshutdown); /healthz ` +
        `fails; nginx keeps accepting for --shutdown-grace-period (${secondsText(P)}, ` +
        `${state.shutdownGrace.source})`,
    );
  else {
    hookStart(drawing, name, state.preStop, 'nginx keeps accepting');
    drawing.event(
      sigterm,
      name,
      `SIGTERM${sigtermAfter(state.preStop, false, sigterm)}: /healthz fails; nginx keeps ` +
        `accepting for --shutdown-grace-period (${secondsText(P)}, ${state.shutdownGrace.source})`,
      hookUnknown(name, state.preStop),
    );
  }
  if (state.meshUnknown)
    drawing.event(
      0,
      'mesh proxy',
      'starts its own shutdown (not modelled with the controller)',
      state.meshUnknown,
    );
}

/** nginx -s quit closes the listeners: connections that still arrive are refused. */
function drawListenersClosed(
  drawing: Drawing,
  state: IngressNginxState,
  traffic: Traffic,
  { sigterm, stop, kill }: Moments,
): void {
  const P = state.shutdownGrace.value;
  if (sigterm + P < kill)
    drawing.event(
      stop,
      state.container,
      `--shutdown-grace-period over: nginx -s quit closes the listeners; workers finish the ` +
        `requests in flight (worker-shutdown-timeout ` +
        `${secondsText(WORKER_SHUTDOWN_TIMEOUT_DEFAULT_SECONDS)}, ` +
        `the controller's default)`,
    );
  const closedBy =
    sigterm + P < kill
      ? `--shutdown-grace-period ${secondsText(P)}`
      : 'SIGKILL at the grace deadline';
  refusedUntilDrained(
    drawing,
    traffic,
    stop,
    `nginx closed its listeners at t=${stop} (${closedBy})`,
  );
}

/**
 * Until when the node forwards to the controller, drawing the drop window where that ends first.
 * Behind node targets with Local the node forwards only while the controller is ready, and
 * /healthz fails from SIGTERM on (internal/ingress/controller/nginx.go@controller-v1.15.1 Stop
 * sets isShuttingDown, which checker.go's Check fails on; the same since controller-v1.0.0).
 */
function nodeForwarded(
  drawing: Drawing,
  state: IngressNginxState,
  traffic: Traffic,
  { sigterm, stop }: Moments,
): number {
  const forwarded =
    traffic.nodeForwarding === 'never'
      ? 0
      : traffic.nodeForwarding === 'while-ready' && state.readinessHold
        ? sigterm + state.readinessHold.value
        : Infinity;
  if (forwarded < Math.min(stop, traffic.drainWindowSeconds))
    nodeDropWindow(drawing, traffic, forwarded, {
      who: state.container,
      why:
        `is unready by t=${forwarded} at the earliest ` +
        `(/healthz fails from SIGTERM, t=${sigterm}; ${state.readinessHold?.source ?? ''})`,
    });
  return forwarded;
}

/**
 * The workers finish the requests in flight (or are cut at worker-shutdown-timeout or SIGKILL),
 * then the controller waits --post-shutdown-grace-period: when nginx is done, and when it exits.
 */
function drawWorkers(
  drawing: Drawing,
  state: IngressNginxState,
  traffic: Traffic,
  { stop, kill }: Moments,
): { done: number; exit: number } {
  const R = traffic.maxRequestSeconds;
  const name = state.container;
  const needed = stop + R;
  const closed = Math.min(stop + WORKER_SHUTDOWN_TIMEOUT_DEFAULT_SECONDS, kill);
  const cutBy = closed === kill ? 'SIGKILL at the grace deadline' : 'worker-shutdown-timeout over';
  if (closed < needed)
    drawing.window({
      from: closed,
      to: needed,
      outcome: 'fail',
      kind: 'cut',
      text:
        `requests in flight are cut at t=${closed} (${cutBy}); ` +
        `the last one accepted at t=${stop} needs until t=${needed} (R = ${secondsText(R)})`,
    });
  const done = Math.min(needed, closed);
  const exit = done + state.postShutdown.value;
  if (done < kill)
    drawing.event(
      done,
      name,
      'nginx has exited: the controller waits --post-shutdown-grace-period',
    );
  if (exit < kill)
    drawing.event(
      exit,
      name,
      `exits (--post-shutdown-grace-period ${secondsText(state.postShutdown.value)}, ` +
        `${state.postShutdown.source})`,
    );
  return { done, exit };
}
