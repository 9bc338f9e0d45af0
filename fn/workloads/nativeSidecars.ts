/**
 * Native sidecars (Kubernetes sidecar containers, KEP-753) and the mesh annotations that switch a
 * pod's proxy to one, by version: the one home of these facts for the Job and app mutators and for
 * explain.
 *
 * The rule (issue #13): the Kubernetes version kube-graceful is told is the **oldest kubelet's**.
 * Render time cannot see the nodes, and kubelets may lag the API server by three minors, so a pod
 * feature is used only where that kubelet has it on by default.
 */
import { ISTIO, KUBERNETES, LINKERD, reached } from '../facts/versionGates.ts';
import type { Container, PodTemplate } from '../core/kubeObject.ts';

/** The meshes whose sidecars kube-graceful handles. */
export type MeshName = 'istio' | 'linkerd';

/** The versions a decision reads (the spec's fields of the same names). */
export interface NativeVersions {
  readonly kubernetesVersion: string;
  readonly istioVersion: string;
  readonly linkerdVersion: string;
}

/**
 * Istio's per-pod switch, read from 1.24: pkg/kube/inject/inject.go@1.24.0 reads
 * `sidecar.istio.io/nativeSidecar` "true"/"false", which takes precedence over istiod's setting
 * (inject.go@1.27.0: "The sidecar.istio.io/nativeSidecar annotation takes precedence over the
 * global feature flag"); 1.19–1.23 have only istiod's mesh-wide env ENABLE_NATIVE_SIDECARS
 * (pilot/pkg/features/pilot.go@1.19.0), which a pod cannot pin.
 */
export const ISTIO_NATIVE_ANNOTATION = 'sidecar.istio.io/nativeSidecar';

const LINKERD_NATIVE_NAME = 'proxy-enable-native-sidecar';
/**
 * The annotation under every prefix Linkerd has used: alpha (2.15–2.18), beta (2.19), GA (2.20+).
 */
export const LINKERD_NATIVE_ANNOTATIONS = [
  'config.alpha.linkerd.io/',
  'config.beta.linkerd.io/',
  'config.linkerd.io/',
].map((prefix) => prefix + LINKERD_NATIVE_NAME);
/** The wait annotation has only ever been alpha (2.7+). */
export const LINKERD_WAIT_ANNOTATION = 'config.alpha.linkerd.io/proxy-wait-before-exit-seconds';

/** Returns the native-sidecar annotation a Linkerd version reads, or undefined before 2.15. */
export function linkerdNativeAnnotation(version: string): string | undefined {
  if (reached(LINKERD.nativeDefault, version)) return `config.linkerd.io/${LINKERD_NATIVE_NAME}`;
  if (reached(LINKERD.nativeBeta, version)) return `config.beta.linkerd.io/${LINKERD_NATIVE_NAME}`;
  if (reached(LINKERD.nativeAlpha, version))
    return `config.alpha.linkerd.io/${LINKERD_NATIVE_NAME}`;
  return undefined;
}

/**
 * Returns the per-pod native-sidecar annotation the mesh reads at its version, or undefined when it
 * has none.
 */
export function nativeAnnotation(mesh: MeshName, versions: NativeVersions): string | undefined {
  if (mesh === 'istio')
    return reached(ISTIO.nativeAnnotation, versions.istioVersion)
      ? ISTIO_NATIVE_ANNOTATION
      : undefined;
  return linkerdNativeAnnotation(versions.linkerdVersion);
}

/** Returns `Istio 1.26` / `Linkerd 2.18`. */
export function meshWithVersion(mesh: MeshName, versions: NativeVersions): string {
  return mesh === 'istio' ? `Istio ${versions.istioVersion}` : `Linkerd ${versions.linkerdVersion}`;
}

/** Returns true when the oldest kubelet has native sidecars on by default. */
function kubeletHasNativeSidecars(versions: NativeVersions): boolean {
  return reached(KUBERNETES.nativeSidecars, versions.kubernetesVersion);
}

/**
 * How a message names a version: `Kubernetes 1.31`, or with where it came from (`Kubernetes 1.31
 * (default)`).
 */
export type VersionLabel = (what: 'kubernetes' | MeshName) => string;

/**
 * Returns what keeps a pod from being pinned native at all, in words (empty: it can be): an oldest
 * kubelet without the feature on by default, or a mesh version with no per-pod annotation.
 */
export function nativeBlockers(
  mesh: MeshName,
  versions: NativeVersions,
  label: VersionLabel = (what) =>
    what === 'kubernetes'
      ? `Kubernetes ${versions.kubernetesVersion}`
      : meshWithVersion(what, versions),
): string[] {
  const blockers: string[] = [];
  const kubelet = kubeletBlocker(versions, label);
  if (kubelet) blockers.push(kubelet);
  if (nativeAnnotation(mesh, versions) === undefined) {
    const since = mesh === 'istio' ? ISTIO.nativeAnnotation.since : LINKERD.nativeAlpha.since;
    blockers.push(
      `${label(mesh)} is below ${since}, the first with a per-pod native-sidecar annotation`,
    );
  }
  return blockers;
}

/**
 * Returns why the oldest kubelet cannot run native sidecars, or undefined when it can: all a
 * sidecar the chart declares itself needs (fn/mutators/job/declared.ts).
 */
export function kubeletBlocker(
  versions: NativeVersions,
  label: VersionLabel = () => `Kubernetes ${versions.kubernetesVersion}`,
): string | undefined {
  if (kubeletHasNativeSidecars(versions)) return undefined;
  return (
    `the oldest kubelet, ${label('kubernetes')}, ` +
    `is below ${KUBERNETES.nativeSidecars.since}, ` +
    `where native sidecars are on by default (KEP-753)`
  );
}

/**
 * Returns true when the mesh itself injects a native sidecar at these versions, with no annotation:
 * Istio ≥ 1.27 when every kubelet is ≥ 1.33, Linkerd ≥ 2.20 (whatever the kubelets).
 */
export function meshDefaultsToNative(mesh: MeshName, versions: NativeVersions): boolean {
  if (mesh === 'istio')
    return (
      reached(ISTIO.nativeAuto, versions.istioVersion) &&
      reached(ISTIO.nativeAutoKubelet, versions.kubernetesVersion)
    );
  return reached(LINKERD.nativeDefault, versions.linkerdVersion);
}

/**
 * Returns how the mesh's own project rates native sidecars at its version, or undefined once it
 * makes them a default.
 */
export function nativeMaturityNote(mesh: MeshName, versions: NativeVersions): string | undefined {
  if (mesh === 'istio') {
    if (reached(ISTIO.nativeAuto, versions.istioVersion)) return undefined;
    return (
      `Istio ${versions.istioVersion} lists native sidecars as experimental ` +
      `(ENABLE_NATIVE_SIDECARS in pilot/pkg/features/experimental.go@1.24.0); ` +
      `from ${ISTIO.nativeAuto.since} Istio picks them itself on kubelets ≥ ` +
      `${ISTIO.nativeAutoKubelet.since} (pkg/kube/inject/webhook.go@1.27.0)`
    );
  }
  if (reached(LINKERD.nativeDefault, versions.linkerdVersion)) return undefined;
  const level = reached(LINKERD.nativeBeta, versions.linkerdVersion)
    ? 'a beta feature'
    : 'an experimental feature';
  return (
    `Linkerd ${versions.linkerdVersion} calls native sidecars ${level} ` +
    `(charts/linkerd-control-plane/values.yaml proxy.nativeSidecar); ` +
    `they are its default from ${LINKERD.nativeDefault.since}`
  );
}

/** The pod's init containers that are native sidecars (`restartPolicy: Always`, KEP-753). */
export function nativeSidecarsOf(template: PodTemplate): Container[] {
  return (template.spec?.initContainers ?? []).filter(
    (c) => (c as { restartPolicy?: unknown }).restartPolicy === 'Always',
  );
}
