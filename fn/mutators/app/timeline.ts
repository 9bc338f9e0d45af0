/**
 * The shutdown timeline of an app and the mesh proxies in front of it (explain, issue #7). Drawn
 * with the kit of fn/explanation/timeline.ts from the values the platform reads; it decides no
 * duration.
 */
import type { PreStopRead, Valued } from '../../explanation/podSettings.ts';
import { drawCloudSqlProxies } from '../../explanation/cloudSqlProxies.ts';
import type { CloudSqlProxyState } from '../../explanation/cloudSqlProxies.ts';
import { drawMeshProxies } from '../../explanation/meshProxies.ts';
import type { MeshProxies, ProxyLane } from '../../explanation/meshProxies.ts';
import {
  deadline,
  deregistration,
  Drawing,
  hookStart,
  hookUnknown,
  kubeletTimes,
  preStopSeconds,
  rejection,
  secondsText,
  sigtermAfter,
  start,
} from '../../explanation/timeline.ts';
import type { Timeline, Traffic } from '../../explanation/timeline.ts';

/** What an app's shutdown depends on: its serving containers, the mesh proxies in front of
 * them and the Cloud SQL Auth Proxies they query through. */
export interface AppState extends MeshProxies {
  readonly grace: Valued<number>;
  readonly containers: ReadonlyArray<{ readonly name: string; readonly preStop: PreStopRead }>;
  readonly cloudSqlProxies?: readonly CloudSqlProxyState[];
}

/** A serving container with its preStop length P and the kubelet's SIGTERM and SIGKILL. */
interface AppLane {
  readonly name: string;
  readonly preStop: PreStopRead;
  readonly P: number;
  readonly sigterm: number;
  readonly kill: number;
  readonly hookCut: boolean;
}

/** An app container's work when inbound connections stop reaching it at `acceptCap`. */
function work(app: AppLane, acceptCap: number, traffic: Traffic) {
  const acceptUntil = Math.min(app.sigterm, acceptCap);
  const lastAccepted = Math.min(acceptUntil, traffic.drainWindowSeconds);
  const workDone = lastAccepted + traffic.maxRequestSeconds;
  return {
    acceptUntil,
    lastAccepted,
    workDone,
    end: Math.min(Math.max(app.sigterm, workDone), app.kill),
  };
}

/**
 * Returns the timeline of an app: each serving container keeps serving through its preStop, stops
 * accepting on SIGTERM and finishes what is in flight (R); a classic mesh sidecar gets SIGTERM at
 * t = 0 and must outlive the app (docs/background.md); a native one is stopped after the app.
 */
export function appTimeline(state: AppState, traffic: Traffic): Timeline {
  const drawing = new Drawing();
  const W = traffic.drainWindowSeconds;
  const G = state.grace.value;
  start(drawing, state.grace, traffic);

  const apps: AppLane[] = state.containers.map((c) => ({
    ...c,
    P: preStopSeconds(c.preStop, W),
    ...kubeletTimes(preStopSeconds(c.preStop, W), G),
  }));
  for (const app of apps) {
    rejection(drawing, app.name, app.preStop, state.grace);
    hookStart(drawing, app.name, app.preStop, 'keeps serving');
    drawing.event(
      app.sigterm,
      app.name,
      `SIGTERM${sigtermAfter(app.preStop, app.hookCut, app.sigterm)}: stops accepting, ` +
        `finishes requests in flight`,
      hookUnknown(app.name, app.preStop),
    );
  }
  const appsEnd = (acceptCap: number) =>
    Math.max(0, ...apps.map((a) => work(a, acceptCap, traffic).end));

  const proxies = drawMeshProxies(drawing, state, {
    grace: G,
    drainWindow: W,
    sender: traffic.sender,
    servedEnd: appsEnd,
    stopsAccepting: Math.max(...apps.map((a) => a.sigterm)),
  });
  const proxyAccept = Math.min(Number.POSITIVE_INFINITY, ...proxies.map((p) => p.acceptUntil));
  const running: string[] = [];
  for (const app of apps)
    if (drawApp(drawing, traffic, app, { proxies, proxyAccept })) running.push(app.name);
  const kill = Math.max(G, ...apps.map((a) => a.kill));
  deadline(drawing, kill, state.grace, running.length ? running.join(', ') : undefined);
  const workEnd = Math.max(
    0,
    ...apps.map((a) => Math.min(work(a, proxyAccept, traffic).workDone, a.kill)),
  );
  drawCloudSqlProxies(drawing, state.cloudSqlProxies ?? [], {
    apps: apps.map((a) => a.name).join(', '),
    servedUntil: workEnd,
    appsExited: appsEnd(proxyAccept),
  });
  deregistration(
    drawing,
    traffic,
    workEnd,
    Math.max(appsEnd(proxyAccept), ...proxies.map((p) => p.gone)),
  );
  return drawing.done('deletion', 'no request fails');
}

/**
 * Draws one app container's windows: connections refused after it stops accepting (or its mesh
 * proxy does), requests cut at SIGKILL or by a proxy gone first, and what it serves. Returns true
 * when it still works at the grace deadline.
 */
function drawApp(
  drawing: Drawing,
  traffic: Traffic,
  app: AppLane,
  mesh: { readonly proxies: readonly ProxyLane[]; readonly proxyAccept: number },
): boolean {
  const W = traffic.drainWindowSeconds;
  const R = traffic.maxRequestSeconds;
  const { proxies, proxyAccept } = mesh;
  const { acceptUntil, lastAccepted, workDone } = work(app, proxyAccept, traffic);
  if (acceptUntil < W) {
    const limiting =
      acceptUntil < app.sigterm ? proxies.find((p) => p.acceptUntil === acceptUntil) : undefined;
    const why = limiting
      ? limiting.why
      : `${app.name} got SIGTERM at t=${app.sigterm}` +
        `${app.preStop.seconds === 0 ? ' (no preStop)' : ''} and stopped accepting`;
    drawing.window({
      from: acceptUntil,
      to: W,
      outcome: 'fail',
      kind: 'refused',
      text:
        `new connections for ${app.name} still arrive ${traffic.sender}, but ${why}` +
        ` → connections refused`,
    });
  }
  if (app.kill < workDone) {
    drawing.window({
      from: app.kill,
      to: workDone,
      outcome: 'fail',
      kind: 'cut',
      text:
        `SIGKILL at the grace deadline cuts ${app.name}'s requests in flight; ` +
        `the last one accepted at t=${lastAccepted} needs until t=${workDone} ` +
        `(R = ${secondsText(R)})`,
    });
  }
  const servedUntil = Math.min(workDone, app.kill);
  for (const proxy of proxies.filter((p) => p.timer && p.gone < servedUntil)) {
    drawing.window({
      from: proxy.gone,
      to: servedUntil,
      outcome: 'fail',
      kind: 'proxy-gone',
      text:
        `${proxy.name} is gone at t=${proxy.gone} while ${app.name} still ` +
        `serves until t=${servedUntil} → requests in flight lose their ` +
        `connection and the app's outbound calls fail`,
    });
  }
  drawing.window({
    from: 0,
    to: lastAccepted,
    outcome: 'ok',
    kind: 'serving',
    text:
      `${app.name} accepts new connections` +
      (app.P > 0 ? ` (preStop until t=${app.sigterm})` : ''),
    unknown: hookUnknown(app.name, app.preStop),
  });
  if (servedUntil > lastAccepted)
    drawing.window({
      from: lastAccepted,
      to: servedUntil,
      outcome: 'ok',
      kind: 'finishing',
      text: `${app.name} finishes requests in flight (R = ${secondsText(R)})`,
    });
  return workDone > app.kill;
}
