/**
 * The shutdown timeline of a Traefik pod (explain): on SIGTERM every TCP entry point keeps its
 * listener open for requestAcceptGraceTimeout, then stops accepting and gives the requests in
 * flight up to graceTimeOut before it closes what is left (`TCPEntryPoint.Shutdown`,
 * pkg/server/server_entrypoint_tcp.go@v2.11.53 and @v3.7.9); the UDP entry points are stopped after
 * the TCP ones (`Server.Stop`, pkg/server/server.go@v3.7.9); the kubelet's SIGKILL comes at G.
 * Drawn with the kit of fn/explanation/timeline.ts from the values Traefik reads; it decides no
 * duration.
 */
import type { PreStopRead, Valued } from '../../explanation/podSettings.ts';
import { drawMeshProxies } from '../../explanation/meshProxies.ts';
import type { MeshProxies, ProxyLane } from '../../explanation/meshProxies.ts';
import {
  deadline,
  deregistration,
  Drawing,
  hookStart,
  hookUnknown,
  kubeletTimes,
  nodeDropWindow,
  refusedUntilDrained,
  preStopSeconds,
  rejection,
  secondsText,
  sigtermAfter,
  start,
} from '../../explanation/timeline.ts';
import type { Timeline, Traffic } from '../../explanation/timeline.ts';
import { passesProbe } from './pingEdit.ts';

/** One TCP entry point's life-cycle values as Traefik reads them (whole seconds, rounded up). */
export interface EntryPointState {
  readonly name: string;
  readonly requestAcceptGraceTimeout: Valued<number>;
  readonly graceTimeOut: Valued<number>;
}

/** What a Traefik pod's shutdown depends on, and the mesh proxy it reaches its backends by. */
export interface TraefikState extends MeshProxies {
  readonly container: string;
  readonly grace: Valued<number>;
  readonly preStop: PreStopRead;
  /** The TCP entry points. */
  readonly entryPoints: readonly EntryPointState[];
  /** How long the longest UDP entry point takes to stop after the TCP ones are done (0: none). */
  readonly udpSeconds: number;
  /** What /ping answers from SIGTERM on (`ping.terminatingStatusCode`, 503 unless set). */
  readonly ping: Valued<number>;
  /** How long after /ping starts failing the kubelet has marked Traefik unready at the latest. */
  readonly readinessDelay: Valued<number>;
}

/** Entry points that shut down alike, drawn as one. */
interface Group {
  readonly names: string[];
  readonly accept: number;
  readonly graceTimeOut: number;
}

function groups(entryPoints: readonly EntryPointState[]): Group[] {
  const byTiming = new Map<string, Group>();
  for (const ep of entryPoints) {
    const key = `${ep.requestAcceptGraceTimeout.value}/${ep.graceTimeOut.value}`;
    const group = byTiming.get(key) ?? {
      names: [],
      accept: ep.requestAcceptGraceTimeout.value,
      graceTimeOut: ep.graceTimeOut.value,
    };
    group.names.push(ep.name);
    byTiming.set(key, group);
  }
  return [...byTiming.values()];
}

function entryPointsText(names: readonly string[]): string {
  return `${names.length === 1 ? 'entry point' : 'entry points'} ${names.join(', ')}`;
}

/** One group of entry points after SIGTERM: when it stops accepting, and when it is closed. */
interface Span {
  readonly group: Group;
  readonly stop: number;
  readonly acceptUntil: number;
  readonly closed: number;
}

/** What goes right on some entry points: they accept until the same moment and finish alike. */
interface Served {
  readonly names: string[];
  readonly newUntil: number;
  readonly lastAccepted: number;
  readonly end: number;
}

/** What every span's drawing reads. */
interface SpanContext {
  readonly drawing: Drawing;
  readonly traffic: Traffic;
  readonly name: string;
  readonly kill: number;
  readonly proxies: readonly ProxyLane[];
  /** When the first mesh proxy stops taking inbound connections (∞ without one). */
  readonly proxyAccept: number;
  /** Until when the node forwards to the terminating pod (∞ when it does not stop). */
  readonly forwarded: number;
}

/** Returns the timeline of one state (as written, or patched) of a Traefik pod. */
export function traefikTimeline(state: TraefikState, traffic: Traffic): Timeline {
  const drawing = new Drawing();
  const W = traffic.drainWindowSeconds;
  const R = traffic.maxRequestSeconds;
  const P = preStopSeconds(state.preStop, W);
  const { sigterm, kill, hookCut } = kubeletTimes(P, state.grace.value);
  const name = state.container;
  start(drawing, state.grace, traffic);
  rejection(drawing, name, state.preStop, state.grace);
  hookStart(drawing, name, state.preStop, 'Traefik keeps accepting');
  drawing.event(
    sigterm,
    name,
    `SIGTERM${sigtermAfter(state.preStop, hookCut, sigterm)}: /ping answers ` +
      `${state.ping.value} (${state.ping.source}); each entry point keeps accepting for its ` +
      `requestAcceptGraceTimeout`,
    hookUnknown(name, state.preStop),
  );

  // Each group of entry points: when it stops accepting, and when Traefik is done with it.
  const spans: Span[] = groups(state.entryPoints).map((group) => {
    const stop = sigterm + group.accept;
    return {
      group,
      stop,
      acceptUntil: Math.min(stop, kill),
      closed: Math.min(stop + group.graceTimeOut, kill),
    };
  });
  // Traefik waits for the last request, up to graceTimeOut; with none left it closes at once. New
  // connections come from the load balancer until W at most; but until the entry point stops, it
  // keeps serving the connections already open (`TCPEntryPoint.Shutdown` only sleeps through
  // requestAcceptGraceTimeout, then shuts its servers down: pkg/server/server_entrypoint_tcp.go
  // @v3.7.9, @v2.11.53), and the load balancer keeps forwarding them while it drains the target.
  // So a request may arrive until the entry point stops, and needs R from then: the same span
  // LB_DEREGISTRATION_TOO_SHORT checks (./timing.ts).
  const done = Math.max(sigterm, ...spans.map((s) => Math.min(s.closed, s.acceptUntil + R)));
  const gone = Math.min(done + state.udpSeconds, kill);
  // The mesh proxy (app-graceful's): its inbound listener is the way in for new connections, and
  // every request Traefik forwards to a backend goes out through it.
  const proxies = drawMeshProxies(drawing, state, {
    grace: state.grace.value,
    drainWindow: W,
    sender: traffic.sender,
    servedEnd: () => gone,
    stopsAccepting: Math.max(sigterm, ...spans.map((s) => s.acceptUntil)),
  });
  const proxyAccept = Math.min(Number.POSITIVE_INFINITY, ...proxies.map((p) => p.acceptUntil));
  const forwarded = nodeForwarded(drawing, state, traffic, {
    sigterm,
    kill,
    accepting: spans.map((s) => Math.min(s.acceptUntil, proxyAccept, W)),
  });
  const context: SpanContext = { drawing, traffic, name, kill, proxies, proxyAccept, forwarded };
  // What goes right, per span: entry points that accept until the same moment and finish alike
  // share one.
  const served = new Map<string, Served>();
  for (const span of spans) {
    const result = drawSpan(context, span);
    const key = `${result.newUntil}/${result.lastAccepted}/${result.end}`;
    const shared = served.get(key) ?? { ...result, names: [] };
    shared.names.push(...span.group.names);
    served.set(key, shared);
  }
  const finished = Math.max(0, ...[...served.values()].map((s) => s.end));
  if (state.udpSeconds > 0 && done < kill)
    drawing.event(
      done,
      name,
      `TCP entry points done: the UDP entry points stop (up to ${secondsText(state.udpSeconds)})`,
    );
  if (gone < kill) drawing.event(gone, name, 'exits: every entry point is done');
  deadline(drawing, kill, state.grace, gone >= kill ? name : undefined);
  drawServed(drawing, [...served.values()], { R, P, sigterm });
  deregistration(drawing, traffic, finished, Math.max(gone, ...proxies.map((p) => p.gone)));
  return drawing.done('deletion', 'no request fails');
}

/**
 * Until when the node forwards to Traefik, drawing the drop window where that ends before an
 * entry point stops accepting. Behind node targets with externalTrafficPolicy Local
 * (traffic.nodeForwarding, set where the readiness probe is /ping): the node forwards until
 * Traefik is unready, at the latest the probe's period × threshold after /ping starts failing at
 * SIGTERM; a code from 200 to 399 keeps it ready (./pingEdit.ts).
 */
function nodeForwarded(
  drawing: Drawing,
  state: TraefikState,
  traffic: Traffic,
  at: { readonly sigterm: number; readonly kill: number; readonly accepting: readonly number[] },
): number {
  const pingFails = !passesProbe(state.ping.value);
  const unready = Math.min(at.sigterm + state.readinessDelay.value, at.kill);
  const forwarded =
    traffic.nodeForwarding === 'never'
      ? 0
      : traffic.nodeForwarding === 'while-ready' && pingFails
        ? unready
        : Number.POSITIVE_INFINITY;
  if (at.accepting.some((until) => forwarded < until))
    nodeDropWindow(drawing, traffic, forwarded, {
      who: 'Traefik',
      why:
        `is unready by t=${unready} (/ping answers ${state.ping.value} from SIGTERM, then its ` +
        `readiness probe, ${state.readinessDelay.source})`,
    });
  return forwarded;
}

/**
 * Draws what goes wrong on one group of entry points (connections refused after it stops
 * accepting, requests cut at graceTimeOut or SIGKILL, a mesh proxy gone first) and returns what
 * goes right on it.
 */
function drawSpan(context: SpanContext, span: Span): Omit<Served, 'names'> {
  const { drawing, traffic, name, kill, proxies, proxyAccept, forwarded } = context;
  const { group, stop, acceptUntil, closed } = span;
  const W = traffic.drainWindowSeconds;
  const R = traffic.maxRequestSeconds;
  const who = entryPointsText(group.names);
  const newUntil = Math.min(acceptUntil, proxyAccept, W, forwarded);
  const lastAccepted = acceptUntil;
  const needed = lastAccepted + R;
  if (stop < kill) {
    drawing.event(
      stop,
      name,
      `${who}: requestAcceptGraceTimeout (${secondsText(group.accept)}) ` +
        `over: ${group.names.length === 1 ? 'stops' : 'stop'} accepting; ` +
        `requests in flight get graceTimeOut (${secondsText(group.graceTimeOut)}` +
        `)`,
    );
  }
  const refusedFrom = Math.min(acceptUntil, proxyAccept);
  // Where the node stops forwarding first, the drop window (drawn once, above) covers it.
  if (refusedFrom < W && forwarded >= refusedFrom) {
    const limiting =
      proxyAccept < acceptUntil ? proxies.find((p) => p.acceptUntil === proxyAccept) : undefined;
    const why = limiting
      ? limiting.why
      : `${who} stopped accepting at t=${acceptUntil} (` +
        (stop < kill
          ? `requestAcceptGraceTimeout ${secondsText(group.accept)}`
          : 'SIGKILL at the grace deadline') +
        `)`;
    refusedUntilDrained(drawing, traffic, refusedFrom, why);
  }
  if (closed < needed) {
    const why =
      closed === kill
        ? 'SIGKILL at the grace deadline'
        : `graceTimeOut ${secondsText(group.graceTimeOut)} over`;
    drawing.window({
      from: closed,
      to: needed,
      outcome: 'fail',
      kind: 'cut',
      text:
        `requests in flight on ${who} are cut at t=${closed} (${why}); the ` +
        `last one accepted at t=${lastAccepted} needs until t=${needed} (R = ${secondsText(R)}` +
        `)`,
    });
  }
  const end = Math.min(closed, needed);
  for (const proxy of proxies.filter((p) => p.timer && p.gone < end)) {
    drawing.window({
      from: proxy.gone,
      to: end,
      outcome: 'fail',
      kind: 'proxy-gone',
      text:
        `${proxy.name} is gone at t=${proxy.gone} while ${who} still ` +
        `${group.names.length === 1 ? 'serves' : 'serve'} until t=${end} → ` +
        `requests in flight lose their connection and Traefik's requests to its backends fail`,
    });
  }
  return { newUntil, lastAccepted, end };
}

/** Draws what goes right: each span's accepting, open-connection and finishing windows. */
function drawServed(
  drawing: Drawing,
  served: readonly Served[],
  at: { readonly R: number; readonly P: number; readonly sigterm: number },
): void {
  const { R, P, sigterm } = at;
  for (const span of served) {
    const on = served.length === 1 ? '' : ` on ${entryPointsText(span.names)}`;
    drawing.window({
      from: 0,
      to: span.newUntil,
      outcome: 'ok',
      kind: 'serving',
      text:
        `new connections accepted${on}` +
        (P > 0
          ? ` (preStop until t=${sigterm}, then requestAcceptGraceTimeout)`
          : ' (requestAcceptGraceTimeout)'),
    });
    if (span.lastAccepted > span.newUntil)
      drawing.window({
        from: span.newUntil,
        to: span.lastAccepted,
        outcome: 'ok',
        kind: 'serving',
        text:
          `no new connections from the load balancer; requests on the connections already open ` +
          `still served${on} (requestAcceptGraceTimeout)`,
      });
    if (span.end > span.lastAccepted)
      drawing.window({
        from: span.lastAccepted,
        to: span.end,
        outcome: 'ok',
        kind: 'finishing',
        text: `requests in flight${on} finish (R = ${secondsText(R)})`,
      });
  }
}
