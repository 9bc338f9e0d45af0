/**
 * Native sidecar or command wrapper: which one a Job's pod gets, from the configured versions
 * (DOMAIN.md §1–§3). Pure: versions and annotations in, a decision and its explanation out.
 */
import { sourceOf } from '../../config/schema.ts';
import type { Config } from '../../config/schema.ts';
import { atLeast } from '../../config/versions.ts';
import {
  ISTIO_NATIVE_ANNOTATION,
  ISTIO_NATIVE_ANNOTATION_SINCE,
  LINKERD_NATIVE_SINCE,
  linkerdNativeAnnotation,
  NATIVE_SIDECARS_SINCE_KUBERNETES,
} from '../../workloads/nativeSidecars.ts';

export type Mesh = 'istio' | 'linkerd';
export type JobMode = 'native' | 'wrap';


/** The configured version of a mesh and where that setting came from. */
function meshVersion(config: Config, mesh: Mesh): { version: string; source: string } {
  return mesh === 'istio'
    ? { version: config.spec.istioVersion, source: sourceOf(config, 'istioVersion') }
    : { version: config.spec.linkerdVersion, source: sourceOf(config, 'linkerdVersion') };
}

/** Returns `Istio 1.26 (default)`-style text for messages. */
export function describeVersion(config: Config, mesh: Mesh | 'kubernetes'): string {
  if (mesh === 'kubernetes') return `Kubernetes ${config.spec.kubernetesVersion} (${sourceOf(config, 'kubernetesVersion')})`;
  const { version, source } = meshVersion(config, mesh);
  return `${mesh === 'istio' ? 'Istio' : 'Linkerd'} ${version} (${source})`;
}

/**
 * Returns the pod annotation that switches the mesh's proxy to a native sidecar at the configured
 * version, or undefined when that version has none. Linkerd moved the annotation from the alpha
 * prefix (2.15–2.18) to beta (2.19) to GA `config.linkerd.io/` (2.20) (DOMAIN.md §3).
 */
export function nativeSidecarAnnotation(config: Config, mesh: Mesh): string | undefined {
  const { version } = meshVersion(config, mesh);
  if (mesh === 'istio') return atLeast(version, ISTIO_NATIVE_ANNOTATION_SINCE) ? ISTIO_NATIVE_ANNOTATION : undefined;
  return linkerdNativeAnnotation(version);
}

/** Returns what keeps the pod from native sidecars at the configured versions (empty: nothing). */
export function nativeBlockers(config: Config, meshes: readonly Mesh[]): string[] {
  const blockers: string[] = [];
  if (!atLeast(config.spec.kubernetesVersion, NATIVE_SIDECARS_SINCE_KUBERNETES)) {
    blockers.push(`${describeVersion(config, 'kubernetes')} is below ${NATIVE_SIDECARS_SINCE_KUBERNETES}, where native sidecars become on by default (KEP-753)`);
  }
  for (const mesh of meshes) {
    if (nativeSidecarAnnotation(config, mesh) === undefined) {
      const minimum = mesh === 'istio' ? ISTIO_NATIVE_ANNOTATION_SINCE : LINKERD_NATIVE_SINCE;
      blockers.push(`${describeVersion(config, mesh)} is below ${minimum}, the first with a per-pod native-sidecar annotation`);
    }
  }
  return blockers;
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
 * that native is possible); auto picks native where the versions allow it — the fix Istio's
 * maintainers recommend ("solve this problem entirely", istio/istio#36640). A pod template that
 * already pins the native annotation is followed ("false" → wrap, "true" → native), and
 * `sidecarMode: classic` (classic sidecars everywhere) makes auto wrap.
 */
export function decideMode(config: Config, meshes: readonly Mesh[], podAnnotations: Readonly<Record<string, string>>): ModeDecision {
  const configured = config.spec.job.mode;
  const modeSource = sourceOf(config, 'job.mode');
  if (configured === 'native' || configured === 'wrap') return { mode: configured, why: `job.mode: ${configured} (${modeSource})` };
  // The chart's own pin is the user's choice: auto follows it rather than overriding it.
  const keys = meshes.map((mesh) => nativeSidecarAnnotation(config, mesh));
  const pinnedOff = keys.find((key) => key !== undefined && podAnnotations[key] === 'false');
  if (pinnedOff) return { mode: 'wrap', why: `job.mode: auto, and the pod template pins ${pinnedOff}: "false"` };
  if (keys.every((key) => key !== undefined && podAnnotations[key] === 'true')) {
    return { mode: 'native', why: `job.mode: auto, and the pod template pins ${keys.join(', ')}: "true"`, pinnedByPod: true };
  }
  if (config.spec.sidecarMode === 'classic') {
    return { mode: 'wrap', why: `job.mode: auto, and sidecarMode: classic (${sourceOf(config, 'sidecarMode')}) asks for classic sidecars` };
  }
  const blockers = nativeBlockers(config, meshes);
  if (blockers.length > 0) return { mode: 'wrap', why: `job.mode: auto, and native sidecars are not available: ${blockers.join('; ')}` };
  const versions = [describeVersion(config, 'kubernetes'), ...meshes.map((mesh) => describeVersion(config, mesh))].join(', ');
  return { mode: 'native', why: `job.mode: auto, and ${versions} support native sidecars` };
}
