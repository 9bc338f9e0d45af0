/**
 * Native sidecar or command wrapper: which one a Job's pod gets, from the configured versions
 * (fn/workloads/nativeSidecars.ts). Pure: versions and annotations in, a decision and its
 * explanation out.
 */
import { sourceOf } from '../../config/schema.ts';
import type { Config } from '../../config/schema.ts';
import {
  kubeletBlocker,
  nativeAnnotation,
  nativeBlockers as meshNativeBlockers,
} from '../../workloads/nativeSidecars.ts';

export type Mesh = 'istio' | 'linkerd';
type JobMode = 'native' | 'wrap';

/** The configured version of a mesh and where that setting came from. */
function meshVersion(config: Config, mesh: Mesh): { version: string; source: string } {
  return mesh === 'istio'
    ? { version: config.spec.istioVersion, source: sourceOf(config, 'istioVersion') }
    : { version: config.spec.linkerdVersion, source: sourceOf(config, 'linkerdVersion') };
}

/** Returns `Istio 1.26 (default)`-style text for messages. */
export function describeVersion(config: Config, mesh: Mesh | 'kubernetes'): string {
  if (mesh === 'kubernetes')
    return `Kubernetes ${config.spec.kubernetesVersion} (${sourceOf(config, 'kubernetesVersion')})`;
  const { version, source } = meshVersion(config, mesh);
  return `${mesh === 'istio' ? 'Istio' : 'Linkerd'} ${version} (${source})`;
}

/**
 * Returns the pod annotation that switches the mesh's proxy to a native sidecar at the configured
 * version, or undefined when it has none.
 */
export function nativeSidecarAnnotation(config: Config, mesh: Mesh): string | undefined {
  return nativeAnnotation(mesh, config.spec);
}

/**
 * Returns what keeps the pod from native sidecars at the configured versions (empty: nothing),
 * naming where each version came from.
 */
export function nativeBlockers(config: Config, meshes: readonly Mesh[]): string[] {
  const label = (what: Mesh | 'kubernetes') => describeVersion(config, what);
  // Sidecars the chart declares need only the kubelet (fn/mutators/job/declared.ts).
  const kubelet = kubeletBlocker(config.spec, label);
  const blockers = meshes.flatMap((mesh) => meshNativeBlockers(mesh, config.spec, label));
  return [...new Set([...(kubelet ? [kubelet] : []), ...blockers])];
}

/** The mode for one pod and why, in words for the report. */
export interface ModeDecision {
  readonly mode: JobMode;
  readonly why: string;
  /** The pod template already pins native on: nothing to check against the configured versions. */
  readonly pinnedByPod?: boolean;
}

/**
 * Decides native or wrap for one pod. `job.mode` native/wrap is taken as given (the caller checks
 * that native is possible); auto picks native wherever the versions allow it at all (the oldest
 * kubelet ≥ 1.29 and a mesh that reads the per-pod annotation), even where the mesh still rates
 * the feature experimental: a native sidecar is a definite fix for a Job that definitely hangs
 * otherwise, and the fix Istio's maintainers recommend ("solve this problem entirely",
 * istio/istio#36640); the caller reports the maturity as an info finding. A pod template that
 * already pins the native annotation is followed ("false" → wrap, "true" → native), and
 * `sidecarMode: classic` (classic sidecars everywhere) makes auto wrap.
 */
export function decideMode(
  config: Config,
  meshes: readonly Mesh[],
  podAnnotations: Readonly<Record<string, string>>,
): ModeDecision {
  const configured = config.spec.job.mode;
  const modeSource = sourceOf(config, 'job.mode');
  if (configured === 'native' || configured === 'wrap')
    return { mode: configured, why: `job.mode: ${configured} (${modeSource})` };
  // The chart's own pin is the user's choice: auto follows it rather than overriding it.
  const keys = meshes.map((mesh) => nativeSidecarAnnotation(config, mesh));
  const pinnedOff = keys.find((key) => key !== undefined && podAnnotations[key] === 'false');
  if (pinnedOff)
    return { mode: 'wrap', why: `job.mode: auto, and the pod template pins ${pinnedOff}: "false"` };
  if (keys.length > 0 && keys.every((key) => key !== undefined && podAnnotations[key] === 'true')) {
    return {
      mode: 'native',
      why: `job.mode: auto, and the pod template pins ${keys.join(', ')}: "true"`,
      pinnedByPod: true,
    };
  }
  if (config.spec.sidecarMode === 'classic') {
    return {
      mode: 'wrap',
      why:
        `job.mode: auto, and sidecarMode: ` +
        `classic (${sourceOf(config, 'sidecarMode')}) asks for classic sidecars`,
    };
  }
  const blockers = nativeBlockers(config, meshes);
  if (blockers.length > 0)
    return {
      mode: 'wrap',
      why: `job.mode: auto, and native sidecars are not available: ${blockers.join('; ')}`,
    };
  const versions = [
    describeVersion(config, 'kubernetes'),
    ...meshes.map((mesh) => describeVersion(config, mesh)),
  ].join(', ');
  return {
    mode: 'native',
    why:
      `job.mode: auto, and ${versions} allow${meshes.length ? '' : 's'} native sidecars ` +
      `(the oldest kubelet has them on by default` +
      `${meshes.length ? '; the mesh reads the per-pod annotation' : ''})`,
  };
}
