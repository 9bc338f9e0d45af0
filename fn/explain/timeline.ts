/**
 * The shutdown timeline of one workload (issue #7): what happens from the moment a pod starts
 * terminating (t = 0: deletion, endpoints removal and preStop start together, docs/background.md#kubernetes-pod-termination) until the
 * last container is gone, and the windows in which requests would fail. Pure: it is drawn from the
 * values the platform reads (./platform.ts) and the traffic inputs W and R of the timing model; it
 * decides no duration. The same function draws the manifest as written and as patched.
 *
 * For Jobs the question is another one (does the pod complete?), so their timeline starts when the
 * main program exits.
 */
import type { IstioDrainSettings, PreStopRead, SidecarKind, Valued } from './platform.ts';
import { KUBELET_PRESTOP_EXTENSION_SECONDS } from '../timing/platformDefaults.ts';
import type { HttpClient } from '../mutators/job/images.ts';
import type { QuitExit } from '../mutators/job/istioQuit.ts';

/** Something that happens at a point in time; `at: null` means never. */
export interface TimelineEvent {
  readonly at: number | null;
  /** Who acts: `pod`, `traffic`, `kubelet`, `load balancer`, or a container name. */
  readonly actor: string;
  readonly text: string;
}

/** What a window means for requests. */
export type WindowOutcome = 'ok' | 'risk' | 'fail';

/** Stable names of the windows, for machines (`--output json`). */
export type WindowKind =
  /** ok: new connections are accepted while traffic still arrives. */
  | 'serving'
  /** ok: requests in flight finish. */
  | 'finishing'
  /** risk: a Job's wrapper needs curl or wget, which the image is not known to have. */
  | 'needs-http-client'
  /** fail: traffic still arrives but nothing accepts it. */
  | 'refused'
  /** fail: requests still in flight are cut (proxy killed, SIGKILL). */
  | 'cut'
  /** fail: the mesh proxy is gone while the app still serves. */
  | 'proxy-gone'
  /** risk: the proxy may exit at a quiet moment while traffic may still arrive. */
  | 'early-exit'
  /** fail: the load balancer drops connections still in flight (deregistration delay too short). */
  | 'lb-cut'
  /** risk: the load balancer keeps routing established connections to a pod that is gone. */
  | 'lb-stale'
  /** fail: the API server rejects the pod (preStop sleep longer than the grace period). */
  | 'rejected'
  /** ok: the Job's pod completes. */
  | 'completes'
  /** fail: the Job's pod never completes. */
  | 'never-completes';

/** A span of time, `[from, to]` in seconds (`to: null`: for ever), and what it means. */
export interface TimelineWindow {
  readonly from: number;
  readonly to: number | null;
  readonly outcome: WindowOutcome;
  readonly kind: WindowKind;
  readonly text: string;
}

/** How the timeline ends, in one line. */
export interface Verdict {
  readonly failures: number;
  readonly risks: number;
  readonly text: string;
}

/** The whole timeline of one state (as written, or patched) of one workload. */
export interface Timeline {
  /** `deletion`: t = 0 is when the pod starts terminating; `program-exit`: when a Job's main program exits. */
  readonly origin: 'deletion' | 'program-exit';
  /** Events in time order (never last). */
  readonly events: readonly TimelineEvent[];
  /** Windows: failures and risks first, in time order, then the windows that go right. */
  readonly windows: readonly TimelineWindow[];
  readonly verdict: Verdict;
}

/** The traffic side of the model, the same for both states: W, R and who sends. */
export interface Traffic {
  /** W: new traffic may still arrive until this many seconds after termination starts. */
  readonly drainWindowSeconds: number;
  /** R: the longest request. */
  readonly maxRequestSeconds: number;
  /** Where new connections come from, as a phrase after "arrive": "from the load balancer (AWS NLB, IP targets)". */
  readonly sender: string;
  /** The load balancer's deregistration delay, when known (AWS target groups). */
  readonly deregistration?: { readonly seconds: number; readonly connectionTermination: boolean };
}

/** What a gateway's shutdown depends on: the proxy is the workload itself (docs/background.md#istio). */
export interface GatewayState {
  readonly proxy: string;
  readonly grace: Valued<number>;
  readonly preStop: PreStopRead;
  readonly istio: IstioDrainSettings;
}

/** What an app's shutdown depends on: its serving containers and the mesh proxies in front of them. */
export interface AppState {
  readonly grace: Valued<number>;
  readonly containers: ReadonlyArray<{ readonly name: string; readonly preStop: PreStopRead }>;
  readonly istio?: { readonly kind: Valued<SidecarKind>; readonly drain: IstioDrainSettings };
  readonly linkerd?: { readonly kind: Valued<SidecarKind>; readonly wait: Valued<number> };
}

/** What a Job's completion depends on: its proxies and whether the main containers ask them to quit. */
export interface JobState {
  readonly proxies: ReadonlyArray<{
    readonly mesh: 'istio' | 'linkerd';
    readonly name: string;
    readonly kind: Valued<SidecarKind>;
    /** When a classic proxy is gone after the quit call (Istio: by version, fn/mutators/job/istioQuit.ts); at once when absent. */
    readonly quitExit?: QuitExit;
  }>;
  readonly containers: ReadonlyArray<{
    readonly name: string;
    readonly quitUrls: readonly string[];
    /** Whether the image has curl or wget for the wrapper's call (fn/mutators/job/images.ts); needed only when wrapped. */
    readonly httpClient?: Valued<HttpClient>;
  }>;
}

/** Collects events and windows, then sorts them and counts the verdict. */
class Drawing {
  readonly events: TimelineEvent[] = [];
  readonly windows: TimelineWindow[] = [];

  event(at: number | null, actor: string, text: string): void {
    this.events.push({ at, actor, text });
  }

  window(from: number, to: number | null, outcome: WindowOutcome, kind: WindowKind, text: string): void {
    if (to !== null && (to < from || (to === from && outcome === 'ok' && kind !== 'completes'))) return;
    this.windows.push({ from, to, outcome, kind, text });
  }

  done(origin: Timeline['origin'], okText: string): Timeline {
    const time = (t: number | null) => (t === null ? Number.POSITIVE_INFINITY : t);
    const events = this.events.map((e, i) => ({ e, i })).sort((a, b) => time(a.e.at) - time(b.e.at) || a.i - b.i).map((x) => x.e);
    const rank = { fail: 0, risk: 1, ok: 2 } as const;
    const windows = this.windows
      .map((w, i) => ({ w, i }))
      .sort((a, b) => rank[a.w.outcome] - rank[b.w.outcome] || a.w.from - b.w.from || a.i - b.i)
      .map((x) => x.w);
    const failures = windows.filter((w) => w.outcome === 'fail').length;
    const risks = windows.filter((w) => w.outcome === 'risk').length;
    const parts = [failures ? `${failures} failure window${failures === 1 ? '' : 's'}` : '', risks ? `${risks} risk${risks === 1 ? '' : 's'}` : ''].filter(Boolean);
    return { origin, events, windows, verdict: { failures, risks, text: parts.length ? parts.join(', ') : okText } };
  }
}

/** `t=10` or `t=10–180 s` style numbers. */
function s(seconds: number): string {
  return `${seconds} s`;
}

/** The kubelet's side: when SIGTERM comes and when SIGKILL, for a container whose preStop lasts `preStop` (docs/background.md#kubernetes-pod-termination). */
function kubeletTimes(preStop: number, grace: number): { sigterm: number; kill: number; hookCut: boolean } {
  const hookCut = preStop > 0 && preStop >= grace;
  return { sigterm: Math.min(preStop, grace), kill: hookCut ? grace + KUBELET_PRESTOP_EXTENSION_SECONDS : grace, hookCut };
}

/**
 * How long a hook delays SIGTERM. A hook whose length can't be read is drawn as lasting W, the
 * assumption the timing model makes for it (fn/timing/model.ts, PRESTOP_LENGTH_UNKNOWN), and
 * `unknownHook` marks the risk that it returns earlier.
 */
function preStopSeconds(read: PreStopRead, W: number): number {
  return read.seconds === 'unknown' ? W : read.seconds;
}

function unknownHook(drawing: Drawing, container: string, read: PreStopRead, W: number, sender: string): void {
  if (read.seconds !== 'unknown' || W === 0) return;
  drawing.window(0, W, 'risk', 'refused', `${container}'s preStop, of unknown length, is drawn as lasting W = ${s(W)}, as the timing model assumes; if it returns sooner, new connections that still arrive ${sender} are refused`);
}

function hookStart(read: PreStopRead, W: number, keeps: string): string {
  return read.seconds === 'unknown' ? `preStop ${read.text} starts; drawn as lasting W = ${s(W)}; ${keeps}` : `preStop ${read.text} starts; ${keeps}`;
}

/** The API server rejects a preStop `sleep` longer than the grace period (docs/background.md#kubernetes-pod-termination). */
function rejection(drawing: Drawing, container: string, preStop: PreStopRead, grace: Valued<number>): void {
  if (preStop.handler === 'sleep' && typeof preStop.seconds === 'number' && preStop.seconds > grace.value) {
    drawing.window(0, null, 'fail', 'rejected', `the API server rejects the pod: container ${container}'s preStop sleep (${s(preStop.seconds)}) is longer than terminationGracePeriodSeconds (${s(grace.value)})`);
  }
}

function start(drawing: Drawing, grace: Valued<number>, traffic: Traffic): void {
  drawing.event(0, 'pod', `deletion: endpoints removal starts, and the grace countdown (G = ${s(grace.value)}, ${grace.source})`);
  drawing.event(traffic.drainWindowSeconds, 'traffic', `no new connections arrive any more ${traffic.sender} (W = ${s(traffic.drainWindowSeconds)})`);
}

function deadline(drawing: Drawing, kill: number, grace: Valued<number>, running: string | undefined): void {
  drawing.event(kill, 'kubelet', running ? `grace deadline: SIGKILL to ${running}` : `grace deadline (${s(grace.value)}): nothing left to kill`);
}

/** The load balancer's own timer on established connections (docs/background.md#load-balancers-in-front-of-gateways), started at deregistration (≈ t = 0). */
function deregistration(drawing: Drawing, traffic: Traffic, workDone: number, podGone: number): void {
  const lb = traffic.deregistration;
  if (!lb) return;
  drawing.event(lb.seconds, 'load balancer', `deregistration delay (${s(lb.seconds)}) over: ${lb.connectionTermination ? 'closes' : 'stops tracking'} established connections`);
  if (lb.seconds < workDone) {
    drawing.window(lb.seconds, workDone, 'fail', 'lb-cut', `the load balancer drops connections still in flight at t=${lb.seconds} (deregistration delay ${s(lb.seconds)} < t=${workDone}, when the last request ends)`);
  }
  if (lb.seconds > podGone && !lb.connectionTermination) {
    drawing.window(podGone, lb.seconds, 'risk', 'lb-stale', `the load balancer keeps established connections to a pod that is gone (connection termination off)`);
  }
}

/**
 * Returns the timeline of an Istio gateway: the proxy serves until it drains or is killed
 * (docs/background.md#istio "On SIGTERM"): with exit-on-zero it waits MINIMUM_DRAIN_DURATION and exits once no
 * connection is active; without, pilot-agent kills Envoy after terminationDrainDuration; Envoy's
 * listeners close after drainDuration either way.
 */
export function gatewayTimeline(state: GatewayState, traffic: Traffic): Timeline {
  const drawing = new Drawing();
  const W = traffic.drainWindowSeconds;
  const R = traffic.maxRequestSeconds;
  const G = state.grace.value;
  const P = preStopSeconds(state.preStop, W);
  const { sigterm, kill, hookCut } = kubeletTimes(P, G);
  const { exitOnZero, minimumDrainSeconds: M, drainDurationSeconds: D, terminationDrainSeconds: TDD } = state.istio;
  const proxy = state.proxy;
  start(drawing, state.grace, traffic);
  rejection(drawing, proxy, state.preStop, state.grace);
  if (state.preStop.seconds !== 0) drawing.event(0, proxy, hookStart(state.preStop, W, 'Envoy keeps serving'));
  unknownHook(drawing, proxy, state.preStop, W, traffic.sender);
  const listenersClose = sigterm + D.value;
  drawing.event(sigterm, proxy, `SIGTERM${hookCut ? ' (preStop cut at the grace deadline)' : state.preStop.seconds === 0 ? ' (no preStop)' : ' after preStop'}: readiness fails; pilot-agent drains the listeners (still accepting, with Connection: close)`);

  let acceptUntil: number;
  let hardStop: number;
  let gone: number;
  if (exitOnZero.value) {
    const earliest = sigterm + M.value;
    acceptUntil = Math.min(listenersClose, kill);
    const lastAccepted = Math.min(acceptUntil, W);
    gone = Math.min(kill, Math.max(earliest, lastAccepted + R));
    hardStop = kill;
    if (earliest < kill) drawing.event(earliest, proxy, `MINIMUM_DRAIN_DURATION (${s(M.value)}) over: exits at the first second with no active connection`);
    if (gone > earliest && gone < kill) drawing.event(gone, proxy, `exits: the last requests are done`);
    if (earliest < Math.min(W, acceptUntil)) {
      drawing.window(earliest, Math.min(W, acceptUntil), 'risk', 'early-exit', `${proxy} may exit at any quiet second after MINIMUM_DRAIN_DURATION (${s(M.value)}) while new connections may still arrive ${traffic.sender} → connections refused`);
    }
  } else {
    gone = Math.min(sigterm + TDD.value, kill);
    acceptUntil = Math.min(listenersClose, gone);
    hardStop = gone;
    if (gone < kill) drawing.event(gone, proxy, `terminationDrainDuration (${s(TDD.value)}) over: pilot-agent kills Envoy; the gateway is gone`);
  }
  if (listenersClose < gone) drawing.event(listenersClose, proxy, `drainDuration (${s(D.value)}) over: Envoy closes its listeners`);
  const lastAccepted = Math.min(acceptUntil, W);
  const workDone = lastAccepted + R;
  deadline(drawing, kill, state.grace, gone >= kill ? proxy : undefined);

  if (acceptUntil < W) {
    const why = acceptUntil === gone ? `the gateway is gone at t=${gone}` : `Envoy closed its listeners at t=${acceptUntil} (drainDuration ${s(D.value)})`;
    drawing.window(acceptUntil, W, 'fail', 'refused', `new connections still arrive ${traffic.sender}, but ${why} → connections refused`);
  }
  if (hardStop < workDone) {
    const why = hardStop === kill ? 'SIGKILL at the grace deadline' : `pilot-agent kills Envoy after terminationDrainDuration ${s(TDD.value)}`;
    drawing.window(hardStop, workDone, 'fail', 'cut', `requests in flight are cut at t=${hardStop} (${why}); the last one accepted at t=${lastAccepted} needs until t=${workDone} (R = ${s(R)})`);
  }
  drawing.window(0, lastAccepted, 'ok', 'serving', `new connections accepted${P > 0 ? ` (preStop until t=${sigterm}, then draining with Connection: close)` : ' (draining with Connection: close)'}`);
  if (Math.min(workDone, hardStop) > lastAccepted) drawing.window(lastAccepted, Math.min(workDone, hardStop), 'ok', 'finishing', `requests in flight finish (R = ${s(R)})`);
  deregistration(drawing, traffic, Math.min(workDone, hardStop), gone);
  return drawing.done('deletion', 'no request fails');
}

/**
 * Returns the timeline of an app: each serving container keeps serving through its preStop, stops
 * accepting on SIGTERM and finishes what is in flight (R); a classic mesh sidecar gets SIGTERM at
 * t = 0 and must outlive the app (docs/background.md); a native one is stopped after the app.
 */
export function appTimeline(state: AppState, traffic: Traffic): Timeline {
  const drawing = new Drawing();
  const W = traffic.drainWindowSeconds;
  const R = traffic.maxRequestSeconds;
  const G = state.grace.value;
  start(drawing, state.grace, traffic);

  const apps = state.containers.map((c) => ({ ...c, P: preStopSeconds(c.preStop, W), ...kubeletTimes(preStopSeconds(c.preStop, W), G) }));
  for (const app of apps) {
    rejection(drawing, app.name, app.preStop, state.grace);
    if (app.preStop.seconds !== 0) drawing.event(0, app.name, hookStart(app.preStop, W, 'keeps serving'));
    unknownHook(drawing, app.name, app.preStop, W, traffic.sender);
    drawing.event(app.sigterm, app.name, `SIGTERM${app.hookCut ? ' (preStop cut at the grace deadline)' : app.preStop.seconds === 0 ? ' (no preStop)' : ' after preStop'}: stops accepting, finishes requests in flight`);
  }
  /** An app container's work when inbound connections stop reaching it at `acceptCap`. */
  const work = (app: (typeof apps)[number], acceptCap: number) => {
    const acceptUntil = Math.min(app.sigterm, acceptCap);
    const lastAccepted = Math.min(acceptUntil, W);
    const workDone = lastAccepted + R;
    return { acceptUntil, lastAccepted, workDone, end: Math.min(Math.max(app.sigterm, workDone), app.kill) };
  };
  const appsEnd = (acceptCap: number) => Math.max(0, ...apps.map((a) => work(a, acceptCap).end));

  // The mesh proxies: until when each takes inbound connections, when it is gone, and whether that
  // end is certain (a timer) or follows the app (exit-on-zero, native).
  interface Proxy { readonly name: string; readonly acceptUntil: number; readonly gone: number; readonly timer: boolean; readonly why: string }
  const proxies: Proxy[] = [];
  if (state.istio) {
    const { exitOnZero, minimumDrainSeconds: M, drainDurationSeconds: D, terminationDrainSeconds: TDD } = state.istio.drain;
    const close = D.value;
    const closed = `istio-proxy closed its inbound listeners at t=${close} (drainDuration ${s(D.value)})`;
    let proxy: Proxy;
    if (state.istio.kind.value === 'native') {
      // Istio's native preStop drains with skip_exit: Envoy never closes the listeners, and on
      // SIGTERM the agent exits at once (pkg/envoy/agent.go@1.24.0 DrainNow, terminate), so no
      // drain setting bounds the accepting: only the app's own exit does.
      drawing.event(0, 'istio-proxy', "native sidecar: Istio's own preStop drains the inbound listeners with skip_exit (still accepting, with Connection: close; Envoy never closes them)");
      const gone = appsEnd(Number.POSITIVE_INFINITY);
      drawing.event(gone, 'istio-proxy', 'SIGTERM once every app container has exited (native sidecar); exits at once, already drained');
      proxy = { name: 'istio-proxy', acceptUntil: gone, gone, timer: false, why: `istio-proxy stopped at t=${gone}` };
    } else if (exitOnZero.value) {
      drawing.event(0, 'istio-proxy', 'SIGTERM (classic sidecar, no preStop): readiness fails; pilot-agent drains the inbound listeners (still accepting, with Connection: close)');
      const earliest = Math.min(M.value, G);
      const gone = Math.min(G, Math.max(earliest, appsEnd(close)));
      drawing.event(earliest, 'istio-proxy', `MINIMUM_DRAIN_DURATION (${s(M.value)}) over: exits at the first second with no active connection`);
      if (gone > earliest) drawing.event(gone, 'istio-proxy', 'exits: the app has no connection left');
      const exposed = Math.min(W, close, Math.max(...apps.map((a) => a.sigterm)));
      if (earliest < exposed) {
        drawing.window(earliest, exposed, 'risk', 'early-exit', `istio-proxy may exit at any quiet second after MINIMUM_DRAIN_DURATION (${s(M.value)}) while new connections may still arrive ${traffic.sender} → connections refused`);
      }
      proxy = { name: 'istio-proxy', acceptUntil: Math.min(close, G), gone, timer: false, why: closed };
    } else {
      drawing.event(0, 'istio-proxy', 'SIGTERM (classic sidecar, no preStop): readiness fails; pilot-agent drains the inbound listeners (still accepting, with Connection: close)');
      const gone = Math.min(TDD.value, G);
      drawing.event(gone, 'istio-proxy', `terminationDrainDuration (${s(TDD.value)}) over: pilot-agent kills Envoy; istio-proxy is gone`);
      proxy = { name: 'istio-proxy', acceptUntil: Math.min(close, gone), gone, timer: true, why: close < gone ? closed : `istio-proxy is gone at t=${gone} (terminationDrainDuration ${s(TDD.value)})` };
    }
    if (state.istio.kind.value !== 'native' && close < proxy.gone) drawing.event(close, 'istio-proxy', `drainDuration (${s(D.value)}) over: Envoy closes its inbound listeners`);
    proxies.push(proxy);
  }
  if (state.linkerd) {
    if (state.linkerd.kind.value === 'native') {
      const gone = appsEnd(Number.POSITIVE_INFINITY);
      drawing.event(gone, 'linkerd-proxy', 'SIGTERM once every app container has exited (native sidecar); exits');
      proxies.push({ name: 'linkerd-proxy', acceptUntil: gone, gone, timer: false, why: `linkerd-proxy stopped at t=${gone}` });
    } else {
      const wait = state.linkerd.wait.value;
      const { sigterm } = kubeletTimes(wait, G);
      if (wait > 0) drawing.event(0, 'linkerd-proxy', `preStop sleep ${s(wait)} (proxy-wait-before-exit-seconds) starts; keeps proxying`);
      drawing.event(sigterm, 'linkerd-proxy', `SIGTERM${wait > 0 ? ' after its preStop' : ' (classic sidecar, no wait)'}: linkerd-proxy shuts down`);
      proxies.push({ name: 'linkerd-proxy', acceptUntil: sigterm, gone: sigterm, timer: true, why: `linkerd-proxy shut down at t=${sigterm}` });
    }
  }

  const proxyAccept = Math.min(Number.POSITIVE_INFINITY, ...proxies.map((p) => p.acceptUntil));
  const running: string[] = [];
  for (const app of apps) {
    const { acceptUntil, lastAccepted, workDone } = work(app, proxyAccept);
    if (workDone > app.kill) running.push(app.name);
    if (acceptUntil < W) {
      const limiting = acceptUntil < app.sigterm ? proxies.find((p) => p.acceptUntil === acceptUntil) : undefined;
      const why = limiting ? limiting.why : `${app.name} got SIGTERM at t=${app.sigterm}${app.preStop.seconds === 0 ? ' (no preStop)' : ''} and stopped accepting`;
      drawing.window(acceptUntil, W, 'fail', 'refused', `new connections for ${app.name} still arrive ${traffic.sender}, but ${why} → connections refused`);
    }
    if (app.kill < workDone) {
      drawing.window(app.kill, workDone, 'fail', 'cut', `SIGKILL at the grace deadline cuts ${app.name}'s requests in flight; the last one accepted at t=${lastAccepted} needs until t=${workDone} (R = ${s(R)})`);
    }
    const servedUntil = Math.min(workDone, app.kill);
    for (const proxy of proxies.filter((p) => p.timer && p.gone < servedUntil)) {
      drawing.window(proxy.gone, servedUntil, 'fail', 'proxy-gone', `${proxy.name} is gone at t=${proxy.gone} while ${app.name} still serves until t=${servedUntil} → requests in flight lose their connection and the app's outbound calls fail`);
    }
    drawing.window(0, lastAccepted, 'ok', 'serving', `${app.name} accepts new connections${app.P > 0 ? ` (preStop until t=${app.sigterm})` : ''}`);
    if (servedUntil > lastAccepted) drawing.window(lastAccepted, servedUntil, 'ok', 'finishing', `${app.name} finishes requests in flight (R = ${s(R)})`);
  }
  const kill = Math.max(G, ...apps.map((a) => a.kill));
  deadline(drawing, kill, state.grace, running.length ? running.join(', ') : undefined);
  const workEnd = Math.max(0, ...apps.map((a) => Math.min(work(a, proxyAccept).workDone, a.kill)));
  deregistration(drawing, traffic, workEnd, Math.max(appsEnd(proxyAccept), ...proxies.map((p) => p.gone)));
  return drawing.done('deletion', 'no request fails');
}

/**
 * Returns what happens when a Job's main program exits: a classic sidecar keeps the pod running
 * for ever unless someone asks it to quit (kubernetes/kubernetes#25908); a preStop never runs for
 * a container that exits by itself (docs/background.md#kubernetes-pod-termination); a native sidecar is stopped by Kubernetes.
 */
export function jobTimeline(state: JobState): Timeline {
  const drawing = new Drawing();
  const unsure: string[] = [];
  for (const container of state.containers) {
    const client = container.httpClient;
    const needs = client === undefined ? '' : client.value === 'unknown' ? ` (needs curl or wget: ${client.source})` : ` (with ${client.value === 'none' ? 'neither curl nor wget' : client.value}: ${client.source})`;
    drawing.event(0, container.name, container.quitUrls.length
      ? `program exits; the wrapper POSTs ${container.quitUrls.join(' and ')}${needs}, then exits with the program's exit code`
      : 'program exits; the container stops');
    if (container.quitUrls.length && client?.value === 'unknown') unsure.push(container.name);
  }
  const stuck: string[] = [];
  let completes = 0;
  for (const proxy of state.proxies) {
    const quitPath = proxy.mesh === 'istio' ? '/quitquitquit' : '/shutdown';
    const calling = state.containers.filter((c) => c.quitUrls.some((u) => u.endsWith(quitPath)));
    // A wrapper whose image has neither client prints so and asks nothing (wrapper.ts NO_CLIENT_HINT).
    const asked = state.containers.length > 0 && calling.length === state.containers.length && calling.every((c) => c.httpClient?.value !== 'none');
    if (proxy.kind.value === 'native') {
      drawing.event(0, proxy.name, `SIGTERM from Kubernetes once every main container has exited (native sidecar, ${proxy.kind.source}); exits`);
    } else if (asked) {
      const exit = proxy.quitExit;
      const at = exit?.seconds ?? 0;
      drawing.event(0, proxy.name, `quit request received (classic sidecar, ${proxy.kind.source})${exit ? `: ${exit.text}` : ': exits'}`);
      if (at > 0) drawing.event(at, proxy.name, exit?.atLeast ? 'exits at the first second with no active connection' : 'exits');
      completes = Math.max(completes, at);
    } else {
      drawing.event(null, proxy.name, `keeps running: a classic sidecar (${proxy.kind.source}) is stopped by nothing, and preStop never runs when a container exits by itself`);
      stuck.push(proxy.name);
    }
  }
  if (stuck.length) {
    drawing.event(null, 'pod', 'never completes: the Job stays active');
    drawing.window(0, null, 'fail', 'never-completes', `${stuck.join(' and ')} keep${stuck.length === 1 ? 's' : ''} the pod running after the program exits → the Job never completes (kubernetes/kubernetes#25908)`);
  } else {
    drawing.event(completes, 'pod', "completes: the Job counts the program's exit code");
    if (unsure.length) {
      drawing.window(0, null, 'risk', 'needs-http-client', `the wrapper in ${unsure.join(', ')} needs curl or wget in the image, which is not known: with neither, the proxy is never asked and the Job never completes`);
    }
    drawing.window(completes, completes, 'ok', 'completes', completes === 0 ? 'the pod completes as soon as the program exits' : `the pod completes ${completes} s after the program exits, once the proxy has drained`);
  }
  return drawing.done('program-exit', 'the Job completes');
}
