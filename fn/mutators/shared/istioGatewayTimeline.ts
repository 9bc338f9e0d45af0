/**
 * The shutdown timeline of an Istio gateway (explain, issue #7): the proxy is the workload
 * itself, and serves until it drains or is killed. Shared by gateway-drain (the gateway chart's
 * Deployment) and istio-gateway-api (the Deployment istiod generates for a Gateway). Drawn with
 * the kit of fn/explanation/timeline.ts from the values the platform reads; it decides no
 * duration.
 */
import type { IstioDrainSettings, PreStopRead, Valued } from '../../explanation/podSettings.ts';
import {
  deadline,
  deregistration,
  Drawing,
  hookStart,
  hookUnknown,
  kubeletTimes,
  nodeDropWindow,
  preStopSeconds,
  readinessAfterStop,
  rejection,
  secondsText,
  sigtermAfter,
  start,
} from '../../explanation/timeline.ts';
import type { Timeline, Traffic } from '../../explanation/timeline.ts';

/**
 * What a gateway's shutdown depends on: the proxy is the workload itself
 * (docs/background.md#istio).
 */
export interface GatewayState {
  readonly proxy: string;
  readonly grace: Valued<number>;
  readonly preStop: PreStopRead;
  readonly istio: IstioDrainSettings;
  /**
   * How long after SIGTERM the kubelet still counts the proxy ready at least, where its readiness
   * probe is known (pilot-agent fails it from SIGTERM on: see KUBE_GATEWAY_READINESS_PROBE in
   * fn/mutators/istio-gateway-api/facts.ts); unknown otherwise.
   */
  readonly readinessHold?: Valued<number>;
}

/** When the proxy stops accepting, when nothing more finishes, and when it is gone. */
interface ProxyEnd {
  readonly acceptUntil: number;
  readonly hardStop: number;
  readonly gone: number;
}

/** The kubelet's times for the proxy: SIGTERM after the preStop, SIGKILL at the deadline. */
interface Signals {
  readonly sigterm: number;
  readonly kill: number;
}

/**
 * Returns the timeline of an Istio gateway: the proxy serves until it drains or is killed
 * (docs/background.md#istio "On SIGTERM"): with exit-on-zero it waits MINIMUM_DRAIN_DURATION and
 * exits once no connection is active; without, pilot-agent kills Envoy after
 * terminationDrainDuration; Envoy's listeners close after drainDuration either way.
 */
export function gatewayTimeline(state: GatewayState, traffic: Traffic): Timeline {
  const drawing = new Drawing();
  const W = traffic.drainWindowSeconds;
  const R = traffic.maxRequestSeconds;
  const P = preStopSeconds(state.preStop, W);
  const { sigterm, kill, hookCut } = kubeletTimes(P, state.grace.value);
  const proxy = state.proxy;
  start(drawing, state.grace, traffic);
  rejection(drawing, proxy, state.preStop, state.grace);
  hookStart(drawing, proxy, state.preStop, 'Envoy keeps serving');
  drawing.event(
    sigterm,
    proxy,
    `SIGTERM${sigtermAfter(state.preStop, hookCut, sigterm)}: readiness fails; ` +
      'pilot-agent drains the listeners (still accepting, with Connection: close)',
    hookUnknown(proxy, state.preStop),
  );
  const end = drawProxyEnd(drawing, state, traffic, { sigterm, kill });
  const forwardedUntil = drawNodeForwarding(drawing, state, traffic, sigterm);
  const lastAccepted =
    traffic.nodeForwarding === 'never' ? 0 : Math.min(end.acceptUntil, W, forwardedUntil);
  const workDone = lastAccepted + R;
  deadline(drawing, kill, state.grace, end.gone >= kill ? proxy : undefined);
  drawLost(drawing, state, traffic, { sigterm, kill, end, forwardedUntil, lastAccepted });
  drawing.window({
    from: 0,
    to: lastAccepted,
    outcome: 'ok',
    kind: 'serving',
    text:
      P > 0
        ? `new connections accepted (preStop until t=${sigterm}, ` +
          'then draining with Connection: close)'
        : 'new connections accepted (draining with Connection: close)',
  });
  if (Math.min(workDone, end.hardStop) > lastAccepted)
    drawing.window({
      from: lastAccepted,
      to: Math.min(workDone, end.hardStop),
      outcome: 'ok',
      kind: 'finishing',
      text: `requests in flight finish (R = ${secondsText(R)})`,
    });
  deregistration(drawing, traffic, Math.min(workDone, end.hardStop), end.gone);
  return drawing.done('deletion', 'no request fails');
}

/**
 * How the proxy ends: with exit-on-zero at the first quiet second after MINIMUM_DRAIN_DURATION
 * (a risk while connections may still arrive), else killed by pilot-agent after
 * terminationDrainDuration; its listeners close after drainDuration either way.
 */
function drawProxyEnd(
  drawing: Drawing,
  state: GatewayState,
  traffic: Traffic,
  { sigterm, kill }: Signals,
): ProxyEnd {
  const W = traffic.drainWindowSeconds;
  const R = traffic.maxRequestSeconds;
  const proxy = state.proxy;
  const {
    exitOnZero,
    minimumDrainSeconds: M,
    drainDurationSeconds: D,
    terminationDrainSeconds: TDD,
  } = state.istio;
  const listenersClose = sigterm + D.value;
  let end: ProxyEnd;
  if (exitOnZero.value) {
    const earliest = sigterm + M.value;
    const acceptUntil = Math.min(listenersClose, kill);
    const lastAccepted = Math.min(acceptUntil, W);
    const gone = Math.min(kill, Math.max(earliest, lastAccepted + R));
    end = { acceptUntil, hardStop: kill, gone };
    if (earliest < kill)
      drawing.event(
        earliest,
        proxy,
        `MINIMUM_DRAIN_DURATION (${secondsText(M.value)}) over: ` +
          `exits at the first second with no active connection`,
      );
    if (gone > earliest && gone < kill)
      drawing.event(gone, proxy, `exits: the last requests are done`);
    if (earliest < Math.min(W, acceptUntil)) {
      drawing.window({
        from: earliest,
        to: Math.min(W, acceptUntil),
        outcome: 'risk',
        kind: 'early-exit',
        text:
          `${proxy} may exit at any quiet second after MINIMUM_DRAIN_DURATION ` +
          `(${secondsText(M.value)}) while new connections may still arrive ${traffic.sender} ` +
          `→ connections refused`,
      });
    }
  } else {
    const gone = Math.min(sigterm + TDD.value, kill);
    end = { acceptUntil: Math.min(listenersClose, gone), hardStop: gone, gone };
    if (gone < kill)
      drawing.event(
        gone,
        proxy,
        `terminationDrainDuration (${secondsText(TDD.value)}) over: pilot-agent kills Envoy; ` +
          `the gateway is gone`,
      );
  }
  if (listenersClose < end.gone)
    drawing.event(
      listenersClose,
      proxy,
      `drainDuration (${secondsText(D.value)}) over: Envoy closes its listeners`,
    );
  return end;
}

/**
 * Until when the node forwards the load balancer's connections. Behind node targets with
 * externalTrafficPolicy Local (traffic.nodeForwarding): a preStop sleep holds SIGTERM, and with
 * it readiness; after SIGTERM readiness fails, and the kubelet still counts the proxy ready for
 * the probe's hold where the probe is known, not modelled elsewhere.
 */
function drawNodeForwarding(
  drawing: Drawing,
  state: GatewayState,
  traffic: Traffic,
  sigterm: number,
): number {
  const hold = state.readinessHold;
  const forwardedUntil =
    traffic.nodeForwarding === 'while-ready' && hold ? sigterm + hold.value : Infinity;
  if (traffic.nodeForwarding === 'while-ready' && sigterm < traffic.drainWindowSeconds)
    drawing.event(
      sigterm,
      'node',
      `forwards the load balancer's connections only while ${state.proxy} passes readiness, ` +
        'which fails after SIGTERM (externalTrafficPolicy Local)' +
        (hold ? `: ready until t=${forwardedUntil} at least (${hold.source})` : ''),
      hold ? undefined : readinessAfterStop(state.proxy),
    );
  return forwardedUntil;
}

/**
 * What is lost: connections the node drops or the proxy refuses after it stops accepting, and
 * requests in flight cut at SIGKILL or when pilot-agent kills Envoy.
 */
function drawLost(
  drawing: Drawing,
  state: GatewayState,
  traffic: Traffic,
  at: Signals & {
    readonly end: ProxyEnd;
    readonly forwardedUntil: number;
    readonly lastAccepted: number;
  },
): void {
  const W = traffic.drainWindowSeconds;
  const R = traffic.maxRequestSeconds;
  const { proxy } = state;
  const { sigterm, kill, end, forwardedUntil, lastAccepted } = at;
  const { acceptUntil, hardStop, gone } = end;
  const { drainDurationSeconds: D, terminationDrainSeconds: TDD } = state.istio;
  if (traffic.nodeForwarding === 'never')
    nodeDropWindow(drawing, traffic, 0, { who: proxy, why: '' });
  else if (forwardedUntil < Math.min(acceptUntil, W))
    nodeDropWindow(drawing, traffic, forwardedUntil, {
      who: proxy,
      why:
        `is unready by t=${forwardedUntil} at the earliest (readiness fails at SIGTERM, ` +
        `t=${sigterm}, and the kubelet notices after ${state.readinessHold?.source ?? ''})`,
    });
  else if (acceptUntil < W) {
    const why =
      acceptUntil === gone
        ? `the gateway is gone at t=${gone}`
        : `Envoy closed its listeners at t=${acceptUntil} (drainDuration ${secondsText(D.value)})`;
    drawing.window({
      from: acceptUntil,
      to: W,
      outcome: 'fail',
      kind: 'refused',
      text: `new connections still arrive ${traffic.sender}, but ${why} → connections refused`,
    });
  }
  const workDone = lastAccepted + R;
  if (hardStop < workDone) {
    const why =
      hardStop === kill
        ? 'SIGKILL at the grace deadline'
        : `pilot-agent kills Envoy after terminationDrainDuration ${secondsText(TDD.value)}`;
    drawing.window({
      from: hardStop,
      to: workDone,
      outcome: 'fail',
      kind: 'cut',
      text:
        `requests in flight are cut at t=${hardStop} (${why}); ` +
        `the last one accepted at t=${lastAccepted} needs until t=${workDone} (R = ` +
        `${secondsText(R)})`,
    });
  }
}
