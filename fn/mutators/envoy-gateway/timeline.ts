/**
 * The shutdown timeline of an Envoy Gateway proxy in one state (as written, as patched), drawn
 * with the kit of fn/explanation/timeline.ts. What happens
 * (internal/cmd/envoy/shutdown_manager.go@v1.9.0; the same loop since v1.0.0): the
 * shutdown-manager's preStop fails Envoy's health checks (after healthCheckFailureDelay H,
 * v1.9.0+) and drains the listeners with skip_exit, so Envoy keeps accepting; every second it
 * counts the open connections and ends the drain once minDrainDuration M has passed and none is
 * open, or at drainTimeout D; then Envoy exits. The kubelet kills the pod at its grace period G
 * (Envoy Gateway writes D + 300: resource_provider.go@v1.9.0).
 */
import { Drawing, nodeDropWindow } from '../../explanation/timeline.ts';
import type { Timeline, Traffic } from '../../explanation/timeline.ts';
import { ENVOY_READINESS_PERIOD_SECONDS } from './readiness.ts';

/** One state of the proxy's shutdown settings, in seconds. */
export interface ProxyState {
  readonly healthCheckFailureDelay: number;
  readonly minDrainDuration: number;
  readonly drainTimeout: number;
  readonly grace: number;
}

/**
 * Returns the timeline of one state. W is the traffic's before H widens it; with
 * `traffic.nodeForwarding` the load balancer reaches the proxy through its node with
 * externalTrafficPolicy Local (./readiness.ts).
 */
export function envoyProxyTimeline(state: ProxyState, traffic: Traffic): Timeline {
  const { healthCheckFailureDelay: H, minDrainDuration: M, drainTimeout: D, grace: G } = state;
  const R = traffic.maxRequestSeconds;
  const W = traffic.drainWindowSeconds;
  // A load balancer that follows the endpoints stops at W; one that health-checks the proxy at
  // H + W: the later one. Behind the node with Local, the node's own health check fails as the pod
  // terminates: W.
  const sendsUntil = traffic.nodeForwarding ? W : H + W;
  const latestExit = Math.min(D, G);
  const earliestExit = Math.min(M, latestExit);
  const drawing = new Drawing();
  drawEvents(drawing, state, traffic, { sendsUntil, latestExit });

  const lastAccepted = Math.min(sendsUntil, latestExit);
  // Behind the node with Local, only while the node still forwards to it.
  const forwarded = traffic.nodeForwarding === 'never' ? 0 : traffic.nodeForwarding ? H : Infinity;
  drawing.window({
    from: 0,
    to: Math.min(sendsUntil, earliestExit, forwarded),
    outcome: 'ok',
    kind: 'serving',
    text: `new connections ${traffic.sender} are accepted`,
  });
  if (earliestExit < lastAccepted) {
    drawing.window({
      from: earliestExit,
      to: lastAccepted,
      outcome: 'risk',
      kind: 'early-exit',
      text:
        `Envoy may exit at a moment with no connection open ` +
        `while new connections still arrive ${traffic.sender}: they are refused`,
    });
  }
  if (latestExit < sendsUntil) {
    drawing.window({
      from: latestExit,
      to: sendsUntil,
      outcome: 'fail',
      kind: 'refused',
      text:
        `Envoy is gone (${G < D ? 'grace period' : 'drainTimeout'} ${latestExit} s) ` +
        `while new connections still arrive ${traffic.sender}: refused`,
    });
  }
  const finished = lastAccepted + R;
  if (latestExit < finished) {
    drawing.window({
      from: latestExit,
      to: finished,
      outcome: 'fail',
      kind: 'cut',
      text:
        `a request accepted at ${lastAccepted} s needs R = ${R} s; ` +
        `Envoy exits at ${latestExit} s and cuts it`,
    });
  }
  drawing.window({
    from: lastAccepted,
    to: Math.min(finished, latestExit),
    outcome: 'ok',
    kind: 'finishing',
    text: 'requests in flight finish before Envoy exits',
  });
  return drawing.done(
    'deletion',
    'Envoy accepts until the load balancer stops sending, and finishes what it accepted',
  );
}

/** The pod's events: the drain's start, the health checks, the load balancer, Envoy's exit. */
function drawEvents(
  drawing: Drawing,
  state: ProxyState,
  traffic: Traffic,
  { sendsUntil, latestExit }: { readonly sendsUntil: number; readonly latestExit: number },
): void {
  const { healthCheckFailureDelay: H, minDrainDuration: M, drainTimeout: D, grace: G } = state;
  drawing.event(
    0,
    'pod',
    'terminating: the shutdown-manager preStop starts the drain ' +
      '(drain_listeners?graceful&skip_exit); Envoy keeps accepting',
  );
  drawing.event(
    H,
    'shutdown-manager',
    "Envoy's health checks fail (/healthcheck/fail): readiness fails",
  );
  drawing.event(
    sendsUntil,
    'load balancer',
    `stops sending new connections (W = ${traffic.drainWindowSeconds} s` +
      `${H && !traffic.nodeForwarding ? ` after the health checks fail at ${H} s` : ''}` +
      `${traffic.unknown ? `, ${traffic.unknown.brief ?? 'not modelled'}` : ''})`,
    traffic.unknown,
  );
  if (M < latestExit)
    drawing.event(
      M,
      'envoy',
      'minDrainDuration passed: exits at the first moment no connection is open',
    );
  drawing.event(
    latestExit,
    'envoy',
    G < D
      ? 'killed at the grace period before drainTimeout'
      : 'drainTimeout: the drain ends and Envoy exits, whatever is still open',
  );
  drawing.event(G, 'kubelet', 'SIGKILL at the grace period');
  // Where the node forwards only to a ready proxy: its probe (every 5 s) sees the failed health
  // checks from H on.
  if (traffic.nodeForwarding !== undefined)
    nodeDropWindow(drawing, traffic, traffic.nodeForwarding === 'never' ? 0 : H, {
      who: 'Envoy',
      why:
        `fails readiness from t=${H} (the shutdown manager's /healthcheck/fail` +
        `${H ? ` after healthCheckFailureDelay ${H} s` : ''}; its probe runs every ` +
        `${ENVOY_READINESS_PERIOD_SECONDS} s)`,
    });
}
