/**
 * The shutdown timeline of one workload (issue #7): what happens from the moment a pod starts
 * terminating (t = 0: deletion, endpoints removal and preStop start together,
 * docs/background.md#kubernetes-pod-termination) until the last container is gone, and the windows
 * in which requests would fail. Pure: it is drawn from the values the platform reads
 * (./platform.ts) and the traffic inputs W and R of the timing model; it decides no duration. The
 * same function draws the manifest as written and as patched.
 *
 * For Jobs the question is another one (does the pod complete?), so their timeline starts when the
 * main program exits.
 *
 * Every event and window is drawn from a modelled fact (a setting read or written, an upstream
 * default, a load balancer recognised or given) unless it carries `unknown`: what it rests on that
 * kube-graceful does not model, and how to tell it (issue #26). The verdict is derived from that,
 * not decided by a mutator: anything unknown makes it "unknown", else failures make it ✗.
 */
import type { Unknown } from '../core/unknown.ts';
import type { NodeForwarding } from '../timing/loadBalancers.ts';
import type { PreStopRead, Valued } from './podSettings.ts';
import { KUBELET_PRESTOP_EXTENSION_SECONDS } from '../timing/platformDefaults.ts';

/** Something that happens at a point in time; `at: null` means never. */
export interface TimelineEvent {
  readonly at: number | null;
  /** Who acts: `pod`, `traffic`, `kubelet`, `load balancer`, or a container name. */
  readonly actor: string;
  readonly text: string;
  /** Set when the event rests on something not modelled: its time or what happens is not known. */
  readonly unknown?: Unknown;
}

/** What a window means for requests. */
type WindowOutcome = 'ok' | 'risk' | 'fail';

/** Stable names of the windows, for machines (`--output json`). */
type WindowKind =
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
  /** fail: the mesh proxy, or a Cloud SQL Auth Proxy the app queries through, is gone while it
   * still serves. */
  | 'proxy-gone'
  /** risk: a proxy may exit at a quiet moment while traffic or the app's queries may come. */
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
  | 'never-completes'
  /** unknown: the program's own command may end a Job's sidecar; whether it does is not known. */
  | 'self-quit';

/** A span of time, `[from, to]` in seconds (`to: null`: for ever), and what it means. */
export interface TimelineWindow {
  readonly from: number;
  readonly to: number | null;
  readonly outcome: WindowOutcome;
  readonly kind: WindowKind;
  readonly text: string;
  /** Set when the window rests on something not modelled. */
  readonly unknown?: Unknown;
}

/**
 * How the timeline ends: `unknown` when any event or window rests on something not modelled, else
 * `fail` with a failure window, `risk` with a risk, else `ok`.
 */
type VerdictOutcome = 'ok' | 'risk' | 'fail' | 'unknown';

/** How the timeline ends, in one line. */
interface Verdict {
  readonly outcome: VerdictOutcome;
  readonly failures: number;
  readonly risks: number;
  /** What is not known, each once, in the order drawn; empty unless `outcome` is `unknown`. */
  readonly unknowns: readonly Unknown[];
  readonly text: string;
}

/** The whole timeline of one state (as written, or patched) of one workload. */
export interface Timeline {
  /**
   * `deletion`: t = 0 is when the pod starts terminating; `program-exit`: when a Job's main program
   * exits.
   */
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
  /**
   * Where new connections come from, as a phrase after "arrive": "from the load balancer (AWS NLB,
   * IP targets)".
   */
  readonly sender: string;
  /**
   * When the load balancer closes established connections, when known: an AWS target group's
   * deregistration delay, or GKE's NEG removal plus connection draining (`closing`).
   */
  readonly deregistration?: {
    readonly seconds: number;
    readonly connectionTermination: boolean;
    readonly closing?: 'gke-connection-draining';
  };
  /**
   * Set when W rests on something not modelled (a load balancer not recognised, or pods that must
   * stay ready for it): every timeline with it is unknown.
   */
  readonly unknown?: Unknown;
  /**
   * Set where the mutator models the pod's readiness while it terminates, behind node targets with
   * externalTrafficPolicy Local (see NodeForwarding): its timeline draws until when the node
   * forwards, and `unknown` is not set for it.
   */
  readonly nodeForwarding?: NodeForwarding;
}

/**
 * Returns the traffic with the pod's readiness modelled behind node targets with
 * externalTrafficPolicy Local: the unknown that stood for it (fn/timing/loadBalancerTable.ts
 * readinessUnknown) gives way to `nodeForwarding`. Unchanged where `forwarding` is undefined.
 */
export function withNodeForwarding(
  traffic: Traffic,
  forwarding: NodeForwarding | undefined,
): Traffic {
  if (forwarding === undefined) return traffic;
  const { unknown: _readiness, ...known } = traffic;
  return { ...known, nodeForwarding: forwarding };
}

/**
 * What is not known where a pod may stop passing readiness before W, behind node targets with
 * externalTrafficPolicy Local: how long its readiness probe keeps passing once it stops (the probe
 * of an injected proxy is not in the stream).
 */
export function readinessAfterStop(who: string): Unknown {
  return {
    what:
      `how long ${who} keeps passing its readiness probe once it starts stopping, before W: ` +
      `with externalTrafficPolicy Local the node forwards the load balancer's connections to a ` +
      `terminating pod only while it does`,
    tell:
      `a preStop sleep of W on ${who} (it holds SIGTERM, and readiness with it), or IP targets ` +
      `or externalTrafficPolicy: Cluster on the Service`,
    brief: 'if the pods stay ready',
  };
}

/**
 * Draws the window in which the node drops what the load balancer still sends, if any: from
 * `from`, when `unready.who` stops being ready (`unready.why`, unless the node never forwards).
 */
export function nodeDropWindow(
  drawing: Drawing,
  traffic: Traffic,
  from: number,
  unready: { readonly who: string; readonly why: string },
): void {
  const { who, why } = unready;
  const W = traffic.drainWindowSeconds;
  if (traffic.nodeForwarding === undefined || from >= W) return;
  drawing.window({
    from,
    to: W,
    outcome: 'fail',
    kind: 'refused',
    text:
      `new connections still arrive ${traffic.sender} at the node, but ` +
      (traffic.nodeForwarding === 'never'
        ? `before Kubernetes 1.26 a node forwards nothing to a terminating pod ` +
          `(externalTrafficPolicy Local)`
        : `${who} ${why} and, with externalTrafficPolicy Local, the node forwards only to a ` +
          `ready pod`) +
      ` → connections dropped until the load balancer's health check fails`,
  });
}

/**
 * Draws the window from W to `stop`, when a proxy that kept serving stops: the load balancer sends
 * nothing new, and the connections already open are still served. Not drawn when it stops first.
 */
export function openConnectionsServed(drawing: Drawing, W: number, stop: number): void {
  if (stop <= W) return;
  drawing.window({
    from: W,
    to: stop,
    outcome: 'ok',
    kind: 'serving',
    text:
      'no new connections from the load balancer; requests on connections already open still ' +
      'served',
  });
}

/**
 * Draws the window from `stop`, when a proxy stops accepting, to W: new connections still arrive
 * and are refused, `but` saying what stopped it ("nginx closed its listeners at t=5 (…)"). Not
 * drawn when it stops at W or later.
 */
export function refusedUntilDrained(
  drawing: Drawing,
  traffic: Traffic,
  stop: number,
  but: string,
): void {
  const W = traffic.drainWindowSeconds;
  if (stop >= W) return;
  drawing.window({
    from: stop,
    to: W,
    outcome: 'fail',
    kind: 'refused',
    text: `new connections still arrive ${traffic.sender}, but ${but} → connections refused`,
  });
}

/** Collects events and windows, then sorts them and counts the verdict. */
export class Drawing {
  readonly events: TimelineEvent[] = [];
  readonly windows: TimelineWindow[] = [];

  /** Draws an event; `unknown` when it rests on something not modelled. */
  event(at: number | null, actor: string, text: string, unknown?: Unknown): void {
    this.events.push({ at, actor, text, ...(unknown ? { unknown } : {}) });
  }

  /**
   * Draws a window; `unknown` when it rests on something not modelled. A window that ends before
   * it starts, or an empty served one, is not drawn.
   */
  window({ from, to, outcome, kind, text, unknown }: TimelineWindow): void {
    if (to !== null && (to < from || (to === from && outcome === 'ok' && kind !== 'completes')))
      return;
    this.windows.push({ from, to, outcome, kind, text, ...(unknown ? { unknown } : {}) });
  }

  done(origin: Timeline['origin'], okText: string): Timeline {
    const time = (t: number | null) => t ?? Number.POSITIVE_INFINITY;
    const events = this.events
      .map((e, i) => ({ e, i }))
      .sort((a, b) => time(a.e.at) - time(b.e.at) || a.i - b.i)
      .map((x) => x.e);
    const rank = { fail: 0, risk: 1, ok: 2 } as const;
    const windows = this.windows
      .map((w, i) => ({ w, i }))
      .sort((a, b) => rank[a.w.outcome] - rank[b.w.outcome] || a.w.from - b.w.from || a.i - b.i)
      .map((x) => x.w);
    return { origin, events, windows, verdict: verdictOf(events, windows, okText) };
  }
}

/**
 * The verdict of a drawn timeline: derived from its events and windows alone, so no mutator can
 * claim ✓ for a timeline that rests on something it does not model.
 */
function verdictOf(
  events: readonly TimelineEvent[],
  windows: readonly TimelineWindow[],
  okText: string,
): Verdict {
  const failures = windows.filter((w) => w.outcome === 'fail').length;
  const risks = windows.filter((w) => w.outcome === 'risk').length;
  const counted = [
    failures ? `${failures} failure window${failures === 1 ? '' : 's'}` : '',
    risks ? `${risks} risk${risks === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const unknowns: Unknown[] = [];
  for (const u of [...events, ...windows].flatMap((x) => (x.unknown ? [x.unknown] : [])))
    if (!unknowns.some((k) => k.what === u.what && k.tell === u.tell)) unknowns.push(u);
  if (unknowns.length > 0)
    return {
      outcome: 'unknown',
      failures,
      risks,
      unknowns,
      text:
        unknowns.map((u) => `unknown: ${u.what}; tell kube-graceful with ${u.tell}`).join('; ') +
        (counted ? ` (as drawn: ${counted})` : ''),
    };
  return {
    outcome: failures ? 'fail' : risks ? 'risk' : 'ok',
    failures,
    risks,
    unknowns,
    text: counted || okText,
  };
}

/** `t=10` or `t=10–180 s` style numbers. */
export function secondsText(seconds: number): string {
  return `${seconds} s`;
}

/**
 * The kubelet's side: when SIGTERM comes and when SIGKILL, for a container whose preStop lasts
 * `preStop` (docs/background.md#kubernetes-pod-termination).
 */
export function kubeletTimes(
  preStop: number,
  grace: number,
): { sigterm: number; kill: number; hookCut: boolean } {
  const hookCut = preStop > 0 && preStop >= grace;
  return {
    sigterm: Math.min(preStop, grace),
    kill: hookCut ? grace + KUBELET_PRESTOP_EXTENSION_SECONDS : grace,
    hookCut,
  };
}

/**
 * How long a hook delays SIGTERM, for drawing. A hook whose length can't be read is placed at W,
 * the length the timing model plans with for it (fn/timing/model.ts, PRESTOP_LENGTH_UNKNOWN); every
 * event that rests on that carries `hookUnknown`, so the verdict says it is not known.
 */
export function preStopSeconds(read: PreStopRead, W: number): number {
  return read.seconds === 'unknown' ? W : read.seconds;
}

/**
 * Returns what is not known about a container's preStop hook, or undefined when its length is read
 * (a sleep action or `exec sleep N`, fn/workloads/preStop.ts). What such a hook does is not
 * modelled (ingress-nginx's `/wait-shutdown` stops the controller at once,
 * docs/background.md), not even whether the container keeps serving meanwhile.
 */
export function hookUnknown(container: string, read: PreStopRead): Unknown | undefined {
  if (read.seconds !== 'unknown') return undefined;
  return {
    what:
      `what ${container}'s preStop hook (${read.text}) does and how long it delays SIGTERM ` +
      `(not modelled)`,
    tell:
      `a preStop it reads in place of this one (a sleep action or exec sleep N of the hook's ` +
      `real length), where the container does not need the hook to stop; or remove the hook ` +
      `and kube-graceful writes one`,
  };
}

/** Draws the start of a container's preStop; `keeps` says what it does meanwhile, when known. */
export function hookStart(
  drawing: Drawing,
  container: string,
  read: PreStopRead,
  keeps: string,
): void {
  if (read.seconds === 0) return;
  const unknown = hookUnknown(container, read);
  drawing.event(
    0,
    container,
    unknown
      ? `preStop ${read.text} starts: what it does, and whether ${container} keeps serving ` +
          `meanwhile, is not modelled`
      : `preStop ${read.text} starts; ${keeps}`,
    unknown,
  );
}

/**
 * Words for when a container gets SIGTERM: " after preStop", " (no preStop)", " (preStop cut at the
 * grace deadline)", or, for a hook of unknown length, when it returns, placed where the plan
 * assumed.
 */
export function sigtermAfter(read: PreStopRead, hookCut: boolean, at: number): string {
  if (hookCut) return ' (preStop cut at the grace deadline)';
  if (read.seconds === 0) return ' (no preStop)';
  if (read.seconds === 'unknown')
    return (
      ` when the preStop returns (not known when; placed at t=${at}, ` +
      `the length the plan assumed)`
    );
  return ' after preStop';
}

/**
 * The API server rejects a preStop `sleep` longer than the grace period
 * (docs/background.md#kubernetes-pod-termination).
 */
export function rejection(
  drawing: Drawing,
  container: string,
  preStop: PreStopRead,
  grace: Valued<number>,
): void {
  if (
    preStop.handler === 'sleep' &&
    typeof preStop.seconds === 'number' &&
    preStop.seconds > grace.value
  ) {
    drawing.window({
      from: 0,
      to: null,
      outcome: 'fail',
      kind: 'rejected',
      text:
        `the API server rejects the pod: ` +
        `container ${container}'s preStop sleep (${secondsText(preStop.seconds)}) is longer ` +
        `than terminationGracePeriodSeconds (${secondsText(grace.value)})`,
    });
  }
}

/** The few words an unknown W is drawn with: `, a guess`; nothing for a known one. */
function briefOf(unknown: Unknown | undefined): string {
  return unknown ? `, ${unknown.brief ?? 'not modelled'}` : '';
}

export function start(drawing: Drawing, grace: Valued<number>, traffic: Traffic): void {
  drawing.event(
    0,
    'pod',
    `deletion: endpoints removal starts, ` +
      `and the grace countdown (G = ${secondsText(grace.value)}, ${grace.source})`,
  );
  drawing.event(
    traffic.drainWindowSeconds,
    'traffic',
    `no new connections arrive any more ${traffic.sender} (W = ` +
      `${secondsText(traffic.drainWindowSeconds)}${briefOf(traffic.unknown)})`,
    traffic.unknown,
  );
}

export function deadline(
  drawing: Drawing,
  kill: number,
  grace: Valued<number>,
  running: string | undefined,
): void {
  drawing.event(
    kill,
    'kubelet',
    running
      ? `grace deadline: SIGKILL to ${running}`
      : `grace deadline (${secondsText(grace.value)}): nothing left to kill`,
  );
}

/**
 * The load balancer's own timer on established connections
 * (docs/background.md#load-balancers-in-front-of-gateways), started at deregistration (≈ t = 0).
 */
export function deregistration(
  drawing: Drawing,
  traffic: Traffic,
  workDone: number,
  podGone: number,
): void {
  const lb = traffic.deregistration;
  if (!lb) return;
  const gke = lb.closing === 'gke-connection-draining';
  drawing.event(
    lb.seconds,
    'load balancer',
    gke
      ? 'connection draining over (the NEG endpoint removed, then drainingTimeoutSec): closes ' +
          'the connections still open'
      : `deregistration delay (${secondsText(lb.seconds)}) over: ` +
          `${lb.connectionTermination ? 'closes' : 'stops tracking'} established connections`,
  );
  if (lb.seconds < workDone) {
    drawing.window({
      from: lb.seconds,
      to: workDone,
      outcome: 'fail',
      kind: 'lb-cut',
      text:
        `the load balancer drops connections still in flight at t=${lb.seconds} ` +
        `(${gke ? 'connection draining ends at' : 'deregistration delay'} ` +
        `${secondsText(lb.seconds)} < t=${workDone}, when the last request ends)`,
    });
  }
  if (lb.seconds > podGone && !lb.connectionTermination) {
    drawing.window({
      from: podGone,
      to: lb.seconds,
      outcome: 'risk',
      kind: 'lb-stale',
      text:
        'the load balancer keeps established connections to a pod that is gone (connection ' +
        'termination off)',
    });
  }
}
