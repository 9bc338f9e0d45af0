/**
 * The mesh proxies of a pod in its shutdown timeline (explain): a classic Istio or Linkerd sidecar
 * gets SIGTERM at t = 0 with the pod and must outlive the container it proxies for
 * (docs/background.md); a native one is stopped after the other containers. Shared by the
 * timelines of the pods whose proxies kube-graceful sizes: apps (fn/mutators/app/timeline.ts) and
 * Traefik (fn/mutators/traefik/timeline.ts). Drawn from the values the platform reads; it decides
 * no duration.
 */
import type { Container, PodTemplate } from '../core/kubeObject.ts';
import type { Spec } from '../config/schema.ts';
import type { MeshMembership } from '../workloads/mesh.ts';
import { renderInjectedIstio } from '../workloads/renderInjected.ts';
import {
  istioDrainSettings,
  istioSidecarKind,
  linkerdSidecarKind,
  linkerdWaitOf,
} from './podSettings.ts';
import type { IstioDrainSettings, SidecarKind, Valued } from './podSettings.ts';
import { flag, row, seconds, text } from './rows.ts';
import { kubeletTimes, secondsText } from './timeline.ts';
import type { Drawing } from './timeline.ts';
import type { SettingRow } from './types.ts';
import type { Unknown } from '../core/unknown.ts';
import { ISTIO_PROXY, LINKERD_PROXY } from '../workloads/meshProxies.ts';

/** The mesh proxies of a pod, as the pod's template says they will run. */
export interface MeshProxies {
  readonly istio?: { readonly kind: Valued<SidecarKind>; readonly drain: IstioDrainSettings };
  readonly linkerd?: { readonly kind: Valued<SidecarKind>; readonly wait: Valued<number> };
}

/** Returns the mesh proxies the pod of `template` runs with: each mesh found, as the template
 * configures its proxy. */
export function meshProxiesOf(
  template: PodTemplate,
  mesh: MeshMembership,
  spec: Spec,
): MeshProxies {
  return {
    ...(mesh.istio
      ? {
          istio: {
            kind: istioSidecarKind(template, spec),
            drain: istioDrainSettings({ template, injected: true, ...renderedProxy(template) }),
          },
        }
      : {}),
    ...(mesh.linkerd
      ? { linkerd: { kind: linkerdSidecarKind(template, spec), wait: linkerdWaitOf(template) } }
      : {}),
  };
}

/** Names the meshes with a sidecar in the pod and why (`Istio (label …) and Linkerd (…)`); empty
 * for none. */
export function meshesText(mesh: MeshMembership): string {
  return [
    mesh.istio ? `Istio (${mesh.istio.evidence})` : '',
    mesh.linkerd ? `Linkerd (${mesh.linkerd.evidence})` : '',
  ]
    .filter(Boolean)
    .join(' and ');
}

/**
 * What is not known about a mesh sidecar beside a proxy whose own drain kube-graceful models
 * without one (ingress-nginx, Contour's Envoy, Kong): whether the sidecar keeps forwarding until
 * that proxy is done, and what would make it (an exit-on-zero minimum drain of `minDrain`).
 */
export function meshNotModelled(
  mesh: MeshMembership | undefined,
  proxy: { readonly who: string; readonly subject: string },
  minDrain: { readonly seconds: number; readonly formula: string },
): Unknown | undefined {
  if (!mesh || (!mesh.istio && !mesh.linkerd)) return undefined;
  return {
    what:
      `whether the mesh proxy (${meshesText(mesh)}) keeps forwarding until ${proxy.who} is ` +
      `done (${proxy.subject} with a mesh sidecar is not modelled)`,
    tell:
      `a mesh proxy that outlives ${proxy.who}: a native sidecar, or Istio ` +
      `EXIT_ON_ZERO_ACTIVE_CONNECTIONS with MINIMUM_DRAIN_DURATION ≥ ` +
      `${minDrain.seconds}s (${minDrain.formula}), set on the pod by hand`,
  };
}

/** The istio-proxy container of a pod injected at render time, whose env pilot-agent reads
 * (fn/workloads/renderInjected.ts). */
function renderedProxy(template: PodTemplate): { container?: Container } {
  const proxy = renderInjectedIstio(template)
    ? (template.spec?.containers ?? []).find((c) => c?.name === ISTIO_PROXY)
    : undefined;
  return proxy ? { container: proxy } : {};
}

/** What a plan sized the proxies for: the sidecar mode it chose and T, how long they must last. */
export interface ProxyPlan {
  readonly sidecar: 'native' | 'classic' | 'none';
  readonly outlivesSeconds: number;
}

/**
 * The proxies' settings rows, as written and as patched: the sidecar's kind, and a classic one's
 * drain settings. With `plan`, each row says whether the patched value meets it.
 */
export function meshProxyRows(
  before: MeshProxies,
  after: MeshProxies,
  plan?: ProxyPlan,
): SettingRow[] {
  const rows: SettingRow[] = [];
  const mode =
    plan && plan.sidecar !== 'none'
      ? ({ symbol: 'mode', value: plan.sidecar, relation: '=' } as const)
      : undefined;
  const outlives = plan
    ? ({ symbol: 'T', value: plan.outlivesSeconds, relation: '≥' } as const)
    : undefined;
  if (before.istio && after.istio) {
    rows.push(row('istio-proxy sidecar', text(before.istio.kind), text(after.istio.kind), mode));
    if (after.istio.kind.value === 'classic') {
      // Either way the classic proxy's wait is T = S + R (fn/mutators/app/istioClassicDrain.ts).
      const exitOnZero = after.istio.drain.exitOnZero.value === true;
      const [was, now] = [before.istio.drain, after.istio.drain];
      rows.push(
        row('EXIT_ON_ZERO_ACTIVE_CONNECTIONS', flag(was.exitOnZero), flag(now.exitOnZero)),
        row(
          'MINIMUM_DRAIN_DURATION',
          seconds(was.minimumDrainSeconds),
          seconds(now.minimumDrainSeconds),
          exitOnZero ? outlives : undefined,
        ),
        row(
          'terminationDrainDuration',
          seconds(was.terminationDrainSeconds),
          seconds(now.terminationDrainSeconds),
          exitOnZero ? undefined : outlives,
        ),
        row('drainDuration', seconds(was.drainDurationSeconds), seconds(now.drainDurationSeconds)),
      );
    }
  }
  if (before.linkerd && after.linkerd) {
    rows.push(
      row('linkerd-proxy sidecar', text(before.linkerd.kind), text(after.linkerd.kind), mode),
    );
    if (after.linkerd.kind.value === 'classic')
      rows.push(
        row(
          'proxy-wait-before-exit-seconds',
          seconds(before.linkerd.wait),
          seconds(after.linkerd.wait),
          outlives,
        ),
      );
  }
  return rows;
}

/**
 * One proxy's lane: until when it takes inbound connections, when it is gone, and whether that
 * end is certain (a timer) or follows the containers it serves (exit-on-zero, native).
 */
export interface ProxyLane {
  readonly name: string;
  readonly acceptUntil: number;
  readonly gone: number;
  readonly timer: boolean;
  /** Why it stopped taking inbound connections, for a window's text. */
  readonly why: string;
}

/** What the proxies' lanes depend on in the pod they serve. */
export interface ServedPod {
  /** G: the grace period. */
  readonly grace: number;
  /** W: new connections may arrive until then. */
  readonly drainWindow: number;
  /** Where new connections come from, as a phrase after "arrive". */
  readonly sender: string;
  /** When the served containers are done, if inbound connections stop reaching them at `cap`. */
  readonly servedEnd: (cap: number) => number;
  /** When the served containers stop accepting by themselves. */
  readonly stopsAccepting: number;
}

/** Draws each proxy's events (and an exit-on-zero proxy's early-exit risk); returns their lanes. */
export function drawMeshProxies(
  drawing: Drawing,
  mesh: MeshProxies,
  served: ServedPod,
): ProxyLane[] {
  return [
    ...(mesh.istio ? [drawIstioProxy(drawing, mesh.istio, served)] : []),
    ...(mesh.linkerd ? [drawLinkerdProxy(drawing, mesh.linkerd, served)] : []),
  ];
}

type IstioProxy = NonNullable<MeshProxies['istio']>;
type LinkerdProxy = NonNullable<MeshProxies['linkerd']>;

/** istio-proxy's lane: native, classic with exit-on-zero, or classic on a timer. */
function drawIstioProxy(drawing: Drawing, istio: IstioProxy, served: ServedPod): ProxyLane {
  const D = istio.drain.drainDurationSeconds;
  const close = D.value;
  const proxy =
    istio.kind.value === 'native'
      ? drawNativeIstio(drawing, served)
      : istio.drain.exitOnZero.value
        ? drawExitOnZeroIstio(drawing, istio, served)
        : drawTimerIstio(drawing, istio, served);
  if (istio.kind.value !== 'native' && close < proxy.gone)
    drawing.event(
      close,
      ISTIO_PROXY,
      `drainDuration (${secondsText(D.value)}) over: Envoy closes its inbound listeners`,
    );
  return proxy;
}

/** Why a classic istio-proxy stops taking inbound connections when drainDuration ends. */
function listenersClosed(istio: IstioProxy): string {
  const D = istio.drain.drainDurationSeconds;
  return (
    `istio-proxy closed its inbound listeners at t=${D.value} ` +
    `(drainDuration ${secondsText(D.value)})`
  );
}

/** A classic istio-proxy's SIGTERM at t = 0: it has no preStop. */
function classicSigterm(drawing: Drawing): void {
  drawing.event(
    0,
    ISTIO_PROXY,
    'SIGTERM (classic sidecar, no preStop): readiness fails; pilot-agent ' +
      'drains the inbound listeners (still accepting, with Connection: close)',
  );
}

/**
 * Istio's native preStop drains with skip_exit: Envoy never closes the listeners, and on SIGTERM
 * the agent exits at once (pkg/envoy/agent.go@1.24.0 DrainNow, terminate), so no drain setting
 * bounds the accepting: only the app's own exit does.
 */
function drawNativeIstio(drawing: Drawing, served: ServedPod): ProxyLane {
  drawing.event(
    0,
    ISTIO_PROXY,
    "native sidecar: Istio's own preStop drains the inbound listeners with " +
      'skip_exit (still accepting, with Connection: close; Envoy never ' +
      'closes them)',
  );
  const gone = served.servedEnd(Number.POSITIVE_INFINITY);
  drawing.event(
    gone,
    ISTIO_PROXY,
    'SIGTERM once every app container has exited (native sidecar); exits ' +
      'at once, already drained',
  );
  return nativeLane(ISTIO_PROXY, gone);
}

/**
 * A native sidecar's lane: Kubernetes stops it once every app container has exited (KEP-753), so
 * it takes inbound connections until then and no timer of its own ends it first.
 */
function nativeLane(name: string, gone: number): ProxyLane {
  return { name, acceptUntil: gone, gone, timer: false, why: `${name} stopped at t=${gone}` };
}

/**
 * A classic istio-proxy with exit-on-zero: after MINIMUM_DRAIN_DURATION it exits at the first
 * second with no active connection, a risk while new connections may still arrive.
 */
function drawExitOnZeroIstio(drawing: Drawing, istio: IstioProxy, served: ServedPod): ProxyLane {
  const { grace, drainWindow, sender, servedEnd, stopsAccepting } = served;
  const M = istio.drain.minimumDrainSeconds;
  const close = istio.drain.drainDurationSeconds.value;
  classicSigterm(drawing);
  const earliest = Math.min(M.value, grace);
  const gone = Math.min(grace, Math.max(earliest, servedEnd(close)));
  drawing.event(
    earliest,
    ISTIO_PROXY,
    `MINIMUM_DRAIN_DURATION (${secondsText(M.value)}) over: exits at the ` +
      `first second with no active connection`,
  );
  if (gone > earliest) drawing.event(gone, ISTIO_PROXY, 'exits: the app has no connection left');
  const exposed = Math.min(drainWindow, close, stopsAccepting);
  if (earliest < exposed) {
    drawing.window({
      from: earliest,
      to: exposed,
      outcome: 'risk',
      kind: 'early-exit',
      text:
        `istio-proxy may exit at any quiet second after MINIMUM_DRAIN_DURATION ` +
        `(${secondsText(M.value)}) while new connections may still arrive ${sender}` +
        ` → connections refused`,
    });
  }
  return {
    name: ISTIO_PROXY,
    acceptUntil: Math.min(close, grace),
    gone,
    timer: false,
    why: listenersClosed(istio),
  };
}

/**
 * A classic istio-proxy without exit-on-zero: pilot-agent kills Envoy after
 * terminationDrainDuration.
 */
function drawTimerIstio(drawing: Drawing, istio: IstioProxy, served: ServedPod): ProxyLane {
  const TDD = istio.drain.terminationDrainSeconds;
  const close = istio.drain.drainDurationSeconds.value;
  classicSigterm(drawing);
  const gone = Math.min(TDD.value, served.grace);
  drawing.event(
    gone,
    ISTIO_PROXY,
    `terminationDrainDuration (${secondsText(TDD.value)}) over: ` +
      `pilot-agent kills Envoy; istio-proxy is gone`,
  );
  return {
    name: ISTIO_PROXY,
    acceptUntil: Math.min(close, gone),
    gone,
    timer: true,
    why:
      close < gone
        ? listenersClosed(istio)
        : `istio-proxy is gone at t=${gone} ` +
          `(terminationDrainDuration ${secondsText(TDD.value)})`,
  };
}

/** linkerd-proxy's lane: native (stopped after the app), or classic behind its preStop wait. */
function drawLinkerdProxy(drawing: Drawing, linkerd: LinkerdProxy, served: ServedPod): ProxyLane {
  if (linkerd.kind.value === 'native') {
    const gone = served.servedEnd(Number.POSITIVE_INFINITY);
    drawing.event(
      gone,
      LINKERD_PROXY,
      'SIGTERM once every app container has exited (native sidecar); exits',
    );
    return nativeLane(LINKERD_PROXY, gone);
  }
  const wait = linkerd.wait.value;
  const { sigterm } = kubeletTimes(wait, served.grace);
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
  return {
    name: LINKERD_PROXY,
    acceptUntil: sigterm,
    gone: sigterm,
    timer: true,
    why: `linkerd-proxy shut down at t=${sigterm}`,
  };
}
