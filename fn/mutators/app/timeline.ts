/**
 * The shutdown timeline of an app and the mesh proxies in front of it (explain, issue #7). Drawn
 * with the kit of fn/explanation/timeline.ts from the values the platform reads; it decides no
 * duration.
 */
import type {
  IstioDrainSettings,
  PreStopRead,
  SidecarKind,
  Valued,
} from '../../explanation/podSettings.ts';
import {
  deadline,
  deregistration,
  Drawing,
  hookStart,
  kubeletTimes,
  preStopSeconds,
  rejection,
  secondsText,
  start,
  unknownHook,
} from '../../explanation/timeline.ts';
import type { Timeline, Traffic } from '../../explanation/timeline.ts';
import { ISTIO_PROXY, LINKERD_PROXY } from '../../workloads/meshProxies.ts';

/** What an app's shutdown depends on: its serving containers and the mesh proxies in front of
 * them. */
export interface AppState {
  readonly grace: Valued<number>;
  readonly containers: ReadonlyArray<{ readonly name: string; readonly preStop: PreStopRead }>;
  readonly istio?: { readonly kind: Valued<SidecarKind>; readonly drain: IstioDrainSettings };
  readonly linkerd?: { readonly kind: Valued<SidecarKind>; readonly wait: Valued<number> };
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

  const apps = state.containers.map((c) => ({
    ...c,
    P: preStopSeconds(c.preStop, W),
    ...kubeletTimes(preStopSeconds(c.preStop, W), G),
  }));
  for (const app of apps) {
    rejection(drawing, app.name, app.preStop, state.grace);
    if (app.preStop.seconds !== 0)
      drawing.event(0, app.name, hookStart(app.preStop, W, 'keeps serving'));
    unknownHook(drawing, app.name, app.preStop, W, traffic.sender);
    const when = app.hookCut
      ? ' (preStop cut at the grace deadline)'
      : app.preStop.seconds === 0
        ? ' (no preStop)'
        : ' after preStop';
    drawing.event(
      app.sigterm,
      app.name,
      `SIGTERM${when}: stops accepting, finishes requests in flight`,
    );
  }
  /** An app container's work when inbound connections stop reaching it at `acceptCap`. */
  const work = (app: (typeof apps)[number], acceptCap: number) => {
    const acceptUntil = Math.min(app.sigterm, acceptCap);
    const lastAccepted = Math.min(acceptUntil, W);
    const workDone = lastAccepted + R;
    return {
      acceptUntil,
      lastAccepted,
      workDone,
      end: Math.min(Math.max(app.sigterm, workDone), app.kill),
    };
  };
  const appsEnd = (acceptCap: number) => Math.max(0, ...apps.map((a) => work(a, acceptCap).end));

  // The mesh proxies: until when each takes inbound connections, when it is gone, and whether that
  // end is certain (a timer) or follows the app (exit-on-zero, native).
  interface Proxy {
    readonly name: string;
    readonly acceptUntil: number;
    readonly gone: number;
    readonly timer: boolean;
    readonly why: string;
  }
  const proxies: Proxy[] = [];
  if (state.istio) {
    const {
      exitOnZero,
      minimumDrainSeconds: M,
      drainDurationSeconds: D,
      terminationDrainSeconds: TDD,
    } = state.istio.drain;
    const close = D.value;
    const closed =
      `istio-proxy closed its inbound listeners at t=${close} ` +
      `(drainDuration ${secondsText(D.value)})`;
    let proxy: Proxy;
    if (state.istio.kind.value === 'native') {
      // Istio's native preStop drains with skip_exit: Envoy never closes the listeners, and on
      // SIGTERM the agent exits at once (pkg/envoy/agent.go@1.24.0 DrainNow, terminate), so no
      // drain setting bounds the accepting: only the app's own exit does.
      drawing.event(
        0,
        ISTIO_PROXY,
        "native sidecar: Istio's own preStop drains the inbound listeners with " +
          'skip_exit (still accepting, with Connection: close; Envoy never ' +
          'closes them)',
      );
      const gone = appsEnd(Number.POSITIVE_INFINITY);
      drawing.event(
        gone,
        ISTIO_PROXY,
        'SIGTERM once every app container has exited (native sidecar); exits ' +
          'at once, already drained',
      );
      proxy = {
        name: ISTIO_PROXY,
        acceptUntil: gone,
        gone,
        timer: false,
        why: `istio-proxy stopped at t=${gone}`,
      };
    } else if (exitOnZero.value) {
      drawing.event(
        0,
        ISTIO_PROXY,
        'SIGTERM (classic sidecar, no preStop): readiness fails; pilot-agent ' +
          'drains the inbound listeners (still accepting, with Connection: close)',
      );
      const earliest = Math.min(M.value, G);
      const gone = Math.min(G, Math.max(earliest, appsEnd(close)));
      drawing.event(
        earliest,
        ISTIO_PROXY,
        `MINIMUM_DRAIN_DURATION (${secondsText(M.value)}) over: exits at the ` +
          `first second with no active connection`,
      );
      if (gone > earliest)
        drawing.event(gone, ISTIO_PROXY, 'exits: the app has no connection left');
      const exposed = Math.min(W, close, Math.max(...apps.map((a) => a.sigterm)));
      if (earliest < exposed) {
        drawing.window(
          earliest,
          exposed,
          'risk',
          'early-exit',
          `istio-proxy may exit at any quiet second after MINIMUM_DRAIN_DURATION ` +
            `(${secondsText(M.value)}) while new connections may still arrive ${traffic.sender}` +
            ` → connections refused`,
        );
      }
      proxy = {
        name: ISTIO_PROXY,
        acceptUntil: Math.min(close, G),
        gone,
        timer: false,
        why: closed,
      };
    } else {
      drawing.event(
        0,
        ISTIO_PROXY,
        'SIGTERM (classic sidecar, no preStop): readiness fails; pilot-agent ' +
          'drains the inbound listeners (still accepting, with Connection: close)',
      );
      const gone = Math.min(TDD.value, G);
      drawing.event(
        gone,
        ISTIO_PROXY,
        `terminationDrainDuration (${secondsText(TDD.value)}) over: ` +
          `pilot-agent kills Envoy; istio-proxy is gone`,
      );
      proxy = {
        name: ISTIO_PROXY,
        acceptUntil: Math.min(close, gone),
        gone,
        timer: true,
        why:
          close < gone
            ? closed
            : `istio-proxy is gone at t=${gone} ` +
              `(terminationDrainDuration ${secondsText(TDD.value)})`,
      };
    }
    if (state.istio.kind.value !== 'native' && close < proxy.gone)
      drawing.event(
        close,
        ISTIO_PROXY,
        `drainDuration (${secondsText(D.value)}) over: Envoy closes its inbound listeners`,
      );
    proxies.push(proxy);
  }
  if (state.linkerd) {
    if (state.linkerd.kind.value === 'native') {
      const gone = appsEnd(Number.POSITIVE_INFINITY);
      drawing.event(
        gone,
        LINKERD_PROXY,
        'SIGTERM once every app container has exited (native sidecar); exits',
      );
      proxies.push({
        name: LINKERD_PROXY,
        acceptUntil: gone,
        gone,
        timer: false,
        why: `linkerd-proxy stopped at t=${gone}`,
      });
    } else {
      const wait = state.linkerd.wait.value;
      const { sigterm } = kubeletTimes(wait, G);
      if (wait > 0)
        drawing.event(
          0,
          LINKERD_PROXY,
          `preStop sleep ${secondsText(wait)} (proxy-wait-before-exit-seconds) ` +
            `starts; keeps proxying`,
        );
      drawing.event(
        sigterm,
        LINKERD_PROXY,
        `SIGTERM${wait > 0 ? ' after its preStop' : ' (classic sidecar, no wait)'}` +
          `: linkerd-proxy shuts down`,
      );
      proxies.push({
        name: LINKERD_PROXY,
        acceptUntil: sigterm,
        gone: sigterm,
        timer: true,
        why: `linkerd-proxy shut down at t=${sigterm}`,
      });
    }
  }

  const proxyAccept = Math.min(Number.POSITIVE_INFINITY, ...proxies.map((p) => p.acceptUntil));
  const running: string[] = [];
  for (const app of apps) {
    const { acceptUntil, lastAccepted, workDone } = work(app, proxyAccept);
    if (workDone > app.kill) running.push(app.name);
    if (acceptUntil < W) {
      const limiting =
        acceptUntil < app.sigterm ? proxies.find((p) => p.acceptUntil === acceptUntil) : undefined;
      const why = limiting
        ? limiting.why
        : `${app.name} got SIGTERM at t=${app.sigterm}` +
          `${app.preStop.seconds === 0 ? ' (no preStop)' : ''} and stopped accepting`;
      drawing.window(
        acceptUntil,
        W,
        'fail',
        'refused',
        `new connections for ${app.name} still arrive ${traffic.sender}, but ${why}` +
          ` → connections refused`,
      );
    }
    if (app.kill < workDone) {
      drawing.window(
        app.kill,
        workDone,
        'fail',
        'cut',
        `SIGKILL at the grace deadline cuts ${app.name}'s requests in flight; ` +
          `the last one accepted at t=${lastAccepted} needs until t=${workDone} ` +
          `(R = ${secondsText(R)})`,
      );
    }
    const servedUntil = Math.min(workDone, app.kill);
    for (const proxy of proxies.filter((p) => p.timer && p.gone < servedUntil)) {
      drawing.window(
        proxy.gone,
        servedUntil,
        'fail',
        'proxy-gone',
        `${proxy.name} is gone at t=${proxy.gone} while ${app.name} still ` +
          `serves until t=${servedUntil} → requests in flight lose their ` +
          `connection and the app's outbound calls fail`,
      );
    }
    drawing.window(
      0,
      lastAccepted,
      'ok',
      'serving',
      `${app.name} accepts new connections${app.P > 0 ? ` (preStop until t=${app.sigterm})` : ''}`,
    );
    if (servedUntil > lastAccepted)
      drawing.window(
        lastAccepted,
        servedUntil,
        'ok',
        'finishing',
        `${app.name} finishes requests in flight (R = ${secondsText(R)})`,
      );
  }
  const kill = Math.max(G, ...apps.map((a) => a.kill));
  deadline(drawing, kill, state.grace, running.length ? running.join(', ') : undefined);
  const workEnd = Math.max(0, ...apps.map((a) => Math.min(work(a, proxyAccept).workDone, a.kill)));
  deregistration(
    drawing,
    traffic,
    workEnd,
    Math.max(appsEnd(proxyAccept), ...proxies.map((p) => p.gone)),
  );
  return drawing.done('deletion', 'no request fails');
}
