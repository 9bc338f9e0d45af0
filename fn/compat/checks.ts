/**
 * The checks of the compatibility table (./table.ts): each returns why a pod as kube-graceful
 * wrote it breaks one upstream constraint, or undefined. A check only blames what kube-graceful
 * wrote (the value differs from the input's), so a chart's own settings never fail it.
 *
 * The checks share the decisions' facts (the version gates of fn/facts/versionGates.ts, the
 * annotation names) but none of their logic: each reads from the written pod what must hold, so
 * they are an independent oracle of the mutators, and test/compat/matrix.test.ts runs both across
 * the Kubernetes, Istio and Linkerd versions.
 */
import { ISTIO, KUBERNETES, LINKERD, reached } from '../facts/versionGates.ts';
import { parseGoDurationSeconds } from '../timing/durations.ts';
import type { PodTemplate } from '../core/kubeObject.ts';
import {
  allContainers,
  annotations,
  commandText,
  containerNamed,
  envOf,
  graceSeconds,
  labels,
  proxyConfig,
  proxyConfigAnnotation,
  sleepActions,
  written,
} from './pod.ts';
import type { CheckedPod } from './pod.ts';
import { ISTIO_PROXY } from '../workloads/meshProxies.ts';

import {
  ISTIO_NATIVE_ANNOTATION as ISTIO_NATIVE,
  LINKERD_NATIVE_ANNOTATIONS as LINKERD_NATIVE,
  LINKERD_WAIT_ANNOTATION as LINKERD_WAIT,
} from '../workloads/nativeSidecars.ts';

/**
 * Returns the native-sidecar switches the pod carries (annotations "true", restartPolicy Always).
 */
function nativeSwitches(template: PodTemplate): string[] {
  const a = annotations(template);
  return [
    ...[ISTIO_NATIVE, ...LINKERD_NATIVE]
      .filter((key) => a[key] === 'true')
      .map((key) => `${key}: "true"`),
    ...(template.spec?.initContainers ?? [])
      .filter((c) => c.restartPolicy === 'Always')
      .map((c) => `initContainers ${c.name} restartPolicy: Always`),
  ];
}

export function nativeSidecarNeedsKubernetes(pod: CheckedPod): string | undefined {
  const kube = pod.spec.kubernetesVersion;
  if (reached(KUBERNETES.nativeSidecars, kube)) return undefined;
  const before = new Set(nativeSwitches(pod.before));
  const added = nativeSwitches(pod.after).filter((s) => !before.has(s));
  return added.length
    ? `wrote ${added.join(', ')} for Kubernetes ${kube} < ${KUBERNETES.nativeSidecars.since}`
    : undefined;
}

function writtenSleeps(pod: CheckedPod): Array<{ container: string; seconds: number }> {
  const before = new Set(sleepActions(pod.before).map((s) => `${s.container}=${s.seconds}`));
  return sleepActions(pod.after).filter((s) => !before.has(`${s.container}=${s.seconds}`));
}

export function sleepActionNeedsKubernetes(pod: CheckedPod): string | undefined {
  const kube = pod.spec.kubernetesVersion;
  const sleeps = writtenSleeps(pod);
  return !reached(KUBERNETES.sleepAction, kube) && sleeps.length
    ? `wrote a preStop sleep action on ${sleeps.map((s) => s.container).join(', ')} for ` +
        `Kubernetes ${kube} < ${KUBERNETES.sleepAction.since}`
    : undefined;
}

export function sleepZeroNeedsKubernetes(pod: CheckedPod): string | undefined {
  const kube = pod.spec.kubernetesVersion;
  const zero = writtenSleeps(pod).filter((s) => s.seconds === 0);
  return !reached(KUBERNETES.sleepZero, kube) && zero.length
    ? `wrote sleep.seconds: 0 on ${zero.map((s) => s.container).join(', ')} for Kubernetes ` +
        `${kube} < ${KUBERNETES.sleepZero.since}`
    : undefined;
}

export function sleepWithinGrace(pod: CheckedPod): string | undefined {
  const grace = graceSeconds(pod.after);
  const over = sleepActions(pod.after).filter((s) => s.seconds > grace);
  const blame = written(pod, sleepActions) || written(pod, graceSeconds);
  return blame && over.length
    ? `preStop sleep ${over.map((s) => `${s.container}=${s.seconds}`).join(', ')} > ` +
        `terminationGracePeriodSeconds ${grace}`
    : undefined;
}

export function drainBelowParentShutdown(pod: CheckedPod): string | undefined {
  const istio = pod.spec.istioVersion;
  if (reached(ISTIO.parentShutdownIgnored, istio)) return undefined;
  const read = (t: PodTemplate) => [
    proxyConfig(t)['drainDuration'],
    proxyConfig(t)['parentShutdownDuration'],
  ];
  if (!written(pod, read)) return undefined;
  const [drain, parent] = read(pod.after);
  const drainSeconds = typeof drain === 'string' ? parseGoDurationSeconds(drain) : undefined;
  if (drainSeconds === undefined) return undefined;
  const parentSeconds = typeof parent === 'string' ? (parseGoDurationSeconds(parent) ?? 60) : 60;
  return parentSeconds <= drainSeconds
    ? `drainDuration ${String(drain)} is not below parentShutdownDuration ${parentSeconds}s on ` +
        `Istio ${istio} < ${ISTIO.parentShutdownIgnored.since}`
    : undefined;
}

export function parentShutdownOnlyBefore117(pod: CheckedPod): string | undefined {
  const istio = pod.spec.istioVersion;
  const read = (t: PodTemplate) => proxyConfig(t)['parentShutdownDuration'];
  return reached(ISTIO.parentShutdownIgnored, istio) && written(pod, read)
    ? `wrote parentShutdownDuration ${String(read(pod.after))}, ` +
        `which Istio ${istio} ≥ ${ISTIO.parentShutdownIgnored.since} ignores`
    : undefined;
}

/** The exit-on-zero settings as pilot-agent gets them: istio-proxy env, or proxyMetadata. */
function exitOnZeroSettings(t: PodTemplate): Record<string, unknown> {
  const proxy = containerNamed(t, ISTIO_PROXY);
  const metadata = (proxyConfig(t)['proxyMetadata'] ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of ['EXIT_ON_ZERO_ACTIVE_CONNECTIONS', 'MINIMUM_DRAIN_DURATION']) {
    const value = envOf(proxy, name) ?? metadata[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

export function exitOnZeroNeedsIstio(pod: CheckedPod): string | undefined {
  const istio = pod.spec.istioVersion;
  return !reached(ISTIO.exitOnZero, istio) && written(pod, exitOnZeroSettings)
    ? `wrote ${Object.keys(exitOnZeroSettings(pod.after)).join(', ')} ` +
        `for Istio ${istio} < ${ISTIO.exitOnZero.since}`
    : undefined;
}

export function minimumDrainIsGoDuration(pod: CheckedPod): string | undefined {
  const value = exitOnZeroSettings(pod.after)['MINIMUM_DRAIN_DURATION'];
  if (value === undefined || !written(pod, exitOnZeroSettings)) return undefined;
  return typeof value === 'string' &&
    parseGoDurationSeconds(value) !== undefined &&
    /[a-z]/.test(value)
    ? undefined
    : `MINIMUM_DRAIN_DURATION ${JSON.stringify(value)} is not a Go duration`;
}

export function noTerminationDrainSeconds(pod: CheckedPod): string | undefined {
  const read = (t: PodTemplate) =>
    allContainers(t).some((c) =>
      c.env?.some((e) => e.name === 'TERMINATION_DRAIN_DURATION_SECONDS'),
    ) ||
    // tsc needs `as object` here (`in` on `{}` is TS2638); typescript-eslint 8.74 calls it
    // unnecessary.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    'TERMINATION_DRAIN_DURATION_SECONDS' in ((proxyConfig(t)['proxyMetadata'] ?? {}) as object);
  return written(pod, read) && read(pod.after)
    ? 'wrote TERMINATION_DRAIN_DURATION_SECONDS, ' +
        `removed in Istio ${ISTIO.terminationDrainSecondsRemoved.since}`
    : undefined;
}

/** Returns true when the template already holds the injected istio-proxy (kube-inject output). */
function injectedAtRender(t: PodTemplate): boolean {
  return (
    annotations(t)['sidecar.istio.io/status'] !== undefined &&
    containerNamed(t, ISTIO_PROXY) !== undefined
  );
}

export function proxyMetadataNeedsInjection(pod: CheckedPod): string | undefined {
  const read = (t: PodTemplate) => proxyConfigAnnotation(t)['proxyMetadata'];
  return injectedAtRender(pod.before) && written(pod, read)
    ? 'wrote proxyMetadata into proxy.istio.io/config of a pod injected at render time: ' +
        'no injector will turn it into istio-proxy env'
    : undefined;
}

export function istioNativeAnnotationNeedsIstio(pod: CheckedPod): string | undefined {
  const istio = pod.spec.istioVersion;
  const read = (t: PodTemplate) => annotations(t)[ISTIO_NATIVE];
  return !reached(ISTIO.nativeAnnotation, istio) && written(pod, read)
    ? `wrote ${ISTIO_NATIVE} for Istio ${istio} < ${ISTIO.nativeAnnotation.since}`
    : undefined;
}

export function istioAutoNativeOnlyWhereIstioWould(pod: CheckedPod): string | undefined {
  if (pod.role === 'job' || pod.spec.sidecarMode !== 'auto') return undefined;
  const { istioVersion: istio, kubernetesVersion: kube } = pod.spec;
  const native =
    written(pod, (t) => annotations(t)[ISTIO_NATIVE]) &&
    annotations(pod.after)[ISTIO_NATIVE] === 'true';
  return native && !(reached(ISTIO.nativeAuto, istio) && reached(ISTIO.nativeAutoKubelet, kube))
    ? `sidecar-mode auto pinned an Istio native sidecar on Istio ${istio} / kubelet ${kube}, ` +
        `where Istio would not choose native (${ISTIO.nativeAuto.since}+ with kubelets ≥ ` +
        `${ISTIO.nativeAutoKubelet.since})`
    : undefined;
}

export function linkerdAutoNativeOnlyWhereLinkerdWould(pod: CheckedPod): string | undefined {
  if (pod.role === 'job' || pod.spec.sidecarMode !== 'auto') return undefined;
  const { linkerdVersion: linkerd, kubernetesVersion: kube } = pod.spec;
  const native = LINKERD_NATIVE.some(
    (key) => written(pod, (t) => annotations(t)[key]) && annotations(pod.after)[key] === 'true',
  );
  return native &&
    !(reached(LINKERD.nativeDefault, linkerd) && reached(KUBERNETES.nativeSidecars, kube))
    ? `sidecar-mode auto pinned a Linkerd native sidecar on Linkerd ${linkerd} / kubelet ` +
        `${kube}, where native is not the default (${LINKERD.nativeDefault.since}+ on Kubernetes ` +
        `${KUBERNETES.nativeSidecars.since}+)`
    : undefined;
}

/** Returns true when the pod's Istio proxy is (or will be) a native sidecar. */
function istioNative(t: PodTemplate): boolean {
  return (
    annotations(t)[ISTIO_NATIVE] === 'true' ||
    (t.spec?.initContainers ?? []).some(
      (c) => c.name === ISTIO_PROXY && c.restartPolicy === 'Always',
    )
  );
}

export function noQuitOnNativeSidecar(pod: CheckedPod): string | undefined {
  const quits = /15020\/quitquitquit|15000\/quitquitquit/.test(commandText(pod.after));
  return quits && written(pod, commandText) && istioNative(pod.after)
    ? 'calls quitquitquit on a native istio-proxy, which the kubelet restarts'
    : undefined;
}

const IGNORED_NAMESPACES = new Set([
  'kube-system',
  'kube-public',
  'kube-node-lease',
  'local-path-storage',
]);

/** The Istio settings kube-graceful writes on a pod. */
function istioSettings(t: PodTemplate): unknown[] {
  const a = annotations(t);
  return [a['proxy.istio.io/config'], a[ISTIO_NATIVE], commandText(t).includes('quitquitquit')];
}

export function noIstioSettingsInIgnoredNamespaces(pod: CheckedPod): string | undefined {
  return pod.namespace && IGNORED_NAMESPACES.has(pod.namespace) && written(pod, istioSettings)
    ? `wrote Istio settings in namespace ${pod.namespace}, where Istio never injects`
    : undefined;
}

export function noLifecycleOnSidecarProxy(pod: CheckedPod): string | undefined {
  if (pod.role === 'gateway') return undefined;
  const read = (t: PodTemplate) => containerNamed(t, ISTIO_PROXY)?.lifecycle;
  return written(pod, read) ? 'changed lifecycle on istio-proxy of a sidecar pod' : undefined;
}

/** Returns true when ztunnel, not a sidecar, carries the pod's traffic
 * (cni/pkg/util/podutil.go@1.24.6). */
function ambient(pod: CheckedPod): boolean {
  const podMode = labels(pod.before)['istio.io/dataplane-mode'];
  if (podMode !== 'ambient' && pod.namespaceLabels['istio.io/dataplane-mode'] !== 'ambient')
    return false;
  if (podMode === 'none') return false;
  const inject =
    labels(pod.before)['sidecar.istio.io/inject'] ??
    annotations(pod.before)['sidecar.istio.io/inject'];
  const sidecar =
    inject === 'true' ||
    pod.namespaceLabels['istio-injection'] === 'enabled' ||
    containerNamed(pod.before, ISTIO_PROXY) !== undefined;
  return !sidecar;
}

export function noSidecarSettingsInAmbient(pod: CheckedPod): string | undefined {
  return ambient(pod) && written(pod, istioSettings)
    ? 'wrote Istio sidecar settings on an ambient pod (no istio-proxy in it)'
    : undefined;
}

export function linkerdNativeAnnotationRead(pod: CheckedPod): string | undefined {
  const linkerd = pod.spec.linkerdVersion;
  const read = reached(LINKERD.nativeDefault, linkerd)
    ? LINKERD_NATIVE
    : reached(LINKERD.nativeBeta, linkerd)
      ? LINKERD_NATIVE.slice(0, 2)
      : reached(LINKERD.nativeAlpha, linkerd)
        ? LINKERD_NATIVE.slice(0, 1)
        : [];
  const wrong = LINKERD_NATIVE.filter(
    (key) =>
      written(pod, (t) => annotations(t)[key]) &&
      annotations(pod.after)[key] !== undefined &&
      !read.includes(key),
  );
  return wrong.length
    ? `wrote ${wrong.join(', ')}, which Linkerd ${linkerd} does not read`
    : undefined;
}

export function linkerdNativeWithoutWait(pod: CheckedPod): string | undefined {
  const a = annotations(pod.after);
  const native = LINKERD_NATIVE.some((key) => a[key] === 'true');
  const read = (t: PodTemplate) => [
    annotations(t)[LINKERD_WAIT],
    ...LINKERD_NATIVE.map((key) => annotations(t)[key]),
  ];
  return native && a[LINKERD_WAIT] !== undefined && written(pod, read)
    ? `a native Linkerd sidecar with ${LINKERD_WAIT}: the injector fails`
    : undefined;
}

export function linkerdWaitBelowGrace(pod: CheckedPod): string | undefined {
  const wait = Number(annotations(pod.after)[LINKERD_WAIT]);
  const grace = graceSeconds(pod.after);
  const blame = written(pod, (t) => annotations(t)[LINKERD_WAIT]) || written(pod, graceSeconds);
  return blame && Number.isFinite(wait) && wait >= grace
    ? `${LINKERD_WAIT} ${wait} is not below terminationGracePeriodSeconds ${grace}`
    : undefined;
}

export function linkerdShutdownEnabled(pod: CheckedPod): string | undefined {
  const linkerd = pod.spec.linkerdVersion;
  const calls = commandText(pod.after).includes('4191/shutdown') && written(pod, commandText);
  return calls &&
    reached(LINKERD.adminShutdownOptIn, linkerd) &&
    annotations(pod.after)['config.linkerd.io/proxy-admin-shutdown'] !== 'enabled'
    ? `calls linkerd-proxy's /shutdown on Linkerd ${linkerd} without ` +
        `config.linkerd.io/proxy-admin-shutdown: enabled`
    : undefined;
}
