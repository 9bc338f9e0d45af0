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
  const G = state.grace.value;
  const P = preStopSeconds(state.preStop, W);
  const { sigterm, kill, hookCut } = kubeletTimes(P, G);
  const {
    exitOnZero,
    minimumDrainSeconds: M,
    drainDurationSeconds: D,
    terminationDrainSeconds: TDD,
  } = state.istio;
  const proxy = state.proxy;
  start(drawing, state.grace, traffic);
  rejection(drawing, proxy, state.preStop, state.grace);
  hookStart(drawing, proxy, state.preStop, 'Envoy keeps serving');
  const listenersClose = sigterm + D.value;
  drawing.event(
    sigterm,
    proxy,
    `SIGTERM${sigtermAfter(state.preStop, hookCut, sigterm)}: readiness fails; ` +
      'pilot-agent drains the listeners (still accepting, with Connection: close)',
    hookUnknown(proxy, state.preStop),
  );

  let acceptUntil: number;
  let hardStop: number;
  let gone: number;
  if (exitOnZero.value) {
    const earliest = sigterm + M.value;
    acceptUntil = Math.min(listenersClose, kill);
    const lastAccepted = Math.min(acceptUntil, W);
    gone = Math.min(kill, Math.max(earliest, lastAccepted + R));
    hardStop = kill;
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
      drawing.window(
        earliest,
        Math.min(W, acceptUntil),
        'risk',
        'early-exit',
        `${proxy} may exit at any quiet second after MINIMUM_DRAIN_DURATION ` +
          `(${secondsText(M.value)}) while new connections may still arrive ${traffic.sender} ` +
          `→ connections refused`,
      );
    }
  } else {
    gone = Math.min(sigterm + TDD.value, kill);
    acceptUntil = Math.min(listenersClose, gone);
    hardStop = gone;
    if (gone < kill)
      drawing.event(
        gone,
        proxy,
        `terminationDrainDuration (${secondsText(TDD.value)}) over: pilot-agent kills Envoy; ` +
          `the gateway is gone`,
      );
  }
  if (listenersClose < gone)
    drawing.event(
      listenersClose,
      proxy,
      `drainDuration (${secondsText(D.value)}) over: Envoy closes its listeners`,
    );
  // Behind node targets with externalTrafficPolicy Local (traffic.nodeForwarding): a preStop sleep
  // holds SIGTERM, and with it readiness; after SIGTERM readiness fails, and the kubelet still
  // counts the proxy ready for the probe's hold where the probe is known, not modelled elsewhere.
  const nodeNever = traffic.nodeForwarding === 'never';
  const hold = state.readinessHold;
  const forwardedUntil =
    traffic.nodeForwarding === 'while-ready' && hold ? sigterm + hold.value : Infinity;
  if (traffic.nodeForwarding === 'while-ready' && sigterm < W)
    drawing.event(
      sigterm,
      'node',
      `forwards the load balancer's connections only while ${proxy} passes readiness, which ` +
        'fails after SIGTERM (externalTrafficPolicy Local)' +
        (hold ? `: ready until t=${forwardedUntil} at least (${hold.source})` : ''),
      hold ? undefined : readinessAfterStop(proxy),
    );
  const lastAccepted = nodeNever ? 0 : Math.min(acceptUntil, W, forwardedUntil);
  const workDone = lastAccepted + R;
  deadline(drawing, kill, state.grace, gone >= kill ? proxy : undefined);

  if (nodeNever) nodeDropWindow(drawing, traffic, 0, proxy, '');
  else if (forwardedUntil < Math.min(acceptUntil, W))
    nodeDropWindow(
      drawing,
      traffic,
      forwardedUntil,
      proxy,
      `is unready by t=${forwardedUntil} at the earliest (readiness fails at SIGTERM, ` +
        `t=${sigterm}, and the kubelet notices after ${hold?.source ?? ''})`,
    );
  else if (acceptUntil < W) {
    const why =
      acceptUntil === gone
        ? `the gateway is gone at t=${gone}`
        : `Envoy closed its listeners at t=${acceptUntil} (drainDuration ${secondsText(D.value)})`;
    drawing.window(
      acceptUntil,
      W,
      'fail',
      'refused',
      `new connections still arrive ${traffic.sender}, but ${why} → connections refused`,
    );
  }
  if (hardStop < workDone) {
    const why =
      hardStop === kill
        ? 'SIGKILL at the grace deadline'
        : `pilot-agent kills Envoy after terminationDrainDuration ${secondsText(TDD.value)}`;
    drawing.window(
      hardStop,
      workDone,
      'fail',
      'cut',
      `requests in flight are cut at t=${hardStop} (${why}); ` +
        `the last one accepted at t=${lastAccepted} needs until t=${workDone} (R = ` +
        `${secondsText(R)})`,
    );
  }
  drawing.window(
    0,
    lastAccepted,
    'ok',
    'serving',
    P > 0
      ? `new connections accepted (preStop until t=${sigterm}, ` +
          'then draining with Connection: close)'
      : 'new connections accepted (draining with Connection: close)',
  );
  if (Math.min(workDone, hardStop) > lastAccepted)
    drawing.window(
      lastAccepted,
      Math.min(workDone, hardStop),
      'ok',
      'finishing',
      `requests in flight finish (R = ${secondsText(R)})`,
    );
  deregistration(drawing, traffic, Math.min(workDone, hardStop), gone);
  return drawing.done('deletion', 'no request fails');
}
