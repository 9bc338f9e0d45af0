/**
 * Native or classic sidecar for one pod: the pod's own annotation wins, then `sidecarMode`
 * (auto: native where the target versions support it). Native is the fix mesh maintainers
 * recommend (istio/istio#36640: native sidecars "solve this problem entirely"); classic works
 * everywhere, so it is the fallback whenever native cannot be relied on (DOMAIN.md intro:
 * prefer the conservative choice).
 */
import { atLeast } from '../../config/versions.ts';
import type { Spec } from '../../config/schema.ts';
import { NATIVE_SIDECARS_SINCE_KUBERNETES as NATIVE_SIDECARS_SINCE } from '../../workloads/nativeSidecars.ts';
import type { ProposedChange, ProposedFinding } from '../types.ts';

export type SidecarMode = 'native' | 'classic';

/** What one mesh's sidecar handling set and found for one pod. */
export interface SidecarOutcome {
  readonly mode: SidecarMode;
  readonly changes: ProposedChange[];
  readonly findings: ProposedFinding[];
  /** True when the proxy's life is bounded by S + R, which must then stay below G (the plan's check). */
  readonly usesSidecarWait: boolean;
}


/** What a mesh needs for native mode, checked against the target versions. */
export interface NativeSupport {
  readonly mesh: 'Istio' | 'Linkerd';
  /** The mesh version that first reads the per-pod native annotation. */
  readonly meshSince: string;
  readonly meshVersion: string;
}

/** The mode chosen for a pod, in words why, and findings when a request could not be met. */
export interface ModeChoice {
  readonly mode: SidecarMode;
  readonly why: string;
  readonly findings: ProposedFinding[];
}

/** Returns the sidecar mode for one mesh of one pod. `pod` is the pod's own native annotation, if set. */
export function chooseSidecarMode(spec: Spec, support: NativeSupport, pod?: { readonly native: boolean; readonly evidence: string }): ModeChoice {
  const kube = spec.kubernetesVersion;
  const missing = [
    ...(atLeast(kube, NATIVE_SIDECARS_SINCE) ? [] : [`Kubernetes ${kube} < ${NATIVE_SIDECARS_SINCE} (native sidecars on by default from ${NATIVE_SIDECARS_SINCE}, KEP-753)`]),
    ...(atLeast(support.meshVersion, support.meshSince) ? [] : [`${support.mesh} ${support.meshVersion} < ${support.meshSince} (no per-pod native annotation before ${support.meshSince})`]),
  ];
  const versions = `Kubernetes ${kube} ≥ ${NATIVE_SIDECARS_SINCE}, ${support.mesh} ${support.meshVersion} ≥ ${support.meshSince}`;
  const unsupported = (asked: string): ModeChoice => ({
    mode: 'classic',
    why: `${asked}, but ${missing.join(' and ')}: classic`,
    findings: [{ severity: 'warning', code: 'NATIVE_SIDECAR_UNSUPPORTED', message: `${asked} asks for a native ${support.mesh} sidecar, but ${missing.join(' and ')}; classic sidecar settings were used instead.` }],
  });
  if (pod && !pod.native) return { mode: 'classic', why: `${pod.evidence} (the pod's own choice)`, findings: [] };
  if (pod?.native) return missing.length ? unsupported(pod.evidence) : { mode: 'native', why: `${pod.evidence} (the pod's own choice)`, findings: [] };
  if (spec.sidecarMode === 'classic') return { mode: 'classic', why: 'sidecarMode classic', findings: [] };
  if (spec.sidecarMode === 'native') return missing.length ? unsupported('sidecarMode native') : { mode: 'native', why: `sidecarMode native (${versions})`, findings: [] };
  return missing.length ? { mode: 'classic', why: `sidecarMode auto: ${missing.join(' and ')}`, findings: [] } : { mode: 'native', why: `sidecarMode auto: ${versions}`, findings: [] };
}
