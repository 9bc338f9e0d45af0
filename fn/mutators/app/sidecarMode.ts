/**
 * Native or classic sidecar for one pod of a long-running app. The pod's own annotation wins, then
 * `sidecarMode`:
 * - auto: native only where the mesh itself would run native (Istio ≥ 1.27 with every kubelet
 *   ≥ 1.33, Linkerd ≥ 2.20; fn/workloads/nativeSidecars.ts), pinned so the timing does not depend
 *   on what the mesh detects at admission; classic settings everywhere else, because before that
 *   both projects rate the feature experimental or beta, and an app has a working classic setup;
 * - native: native wherever the versions allow it at all (oldest kubelet ≥ 1.29 and a mesh that
 *   reads the per-pod annotation);
 * - classic: classic.
 * A classic choice is pinned ("false") where the mesh would otherwise pick native by itself: the
 * classic drain settings do nothing in a native sidecar (pkg/envoy/agent.go@1.27.0 `terminate`:
 * after the native preStop's drain, SIGTERM exits at once).
 */
import type { Spec } from '../../config/schema.ts';
import {
  meshDefaultsToNative,
  meshWithVersion,
  nativeBlockers,
} from '../../workloads/nativeSidecars.ts';
import type { MeshName } from '../../workloads/nativeSidecars.ts';
import type { ProposedChange, ProposedFinding } from '../types.ts';

type SidecarMode = 'native' | 'classic';

/** What one mesh's sidecar handling set and found for one pod. */
export interface SidecarOutcome {
  readonly mode: SidecarMode;
  readonly changes: ProposedChange[];
  readonly findings: ProposedFinding[];
  /** True when the proxy's life is bounded by S + R, which must then stay below G (the plan's
   * check). */
  readonly usesSidecarWait: boolean;
}

/** The mode chosen for a pod, in words why, and findings when a request could not be met. */
export interface ModeChoice {
  readonly mode: SidecarMode;
  readonly why: string;
  readonly findings: ProposedFinding[];
  /** Classic chosen where the mesh would pick native by itself: the annotation must say "false". */
  readonly pinClassic: boolean;
}

/** Returns the sidecar mode for one mesh of one pod. `pod` is the pod's own native annotation, if
 * set. */
export function chooseSidecarMode(
  spec: Spec,
  mesh: MeshName,
  pod?: { readonly native: boolean; readonly evidence: string },
): ModeChoice {
  const name = mesh === 'istio' ? 'Istio' : 'Linkerd';
  const missing = nativeBlockers(mesh, spec);
  const meshNative = meshDefaultsToNative(mesh, spec);
  const versions =
    `oldest kubelet Kubernetes ${spec.kubernetesVersion}, ` + `${meshWithVersion(mesh, spec)}`;
  const classic = (why: string, findings: ProposedFinding[] = []): ModeChoice => ({
    mode: 'classic',
    why,
    findings,
    pinClassic: meshNative && pod === undefined,
  });
  const unsupported = (asked: string): ModeChoice =>
    classic(`${asked}, but ${missing.join(' and ')}: classic`, [
      {
        severity: 'warning',
        code: 'NATIVE_SIDECAR_UNSUPPORTED',
        message:
          `${asked} asks for a native ${name} sidecar, but ${missing.join(' and ')}` +
          `; classic sidecar settings were used instead.`,
      },
    ]);
  if (pod && !pod.native) return classic(`${pod.evidence} (the pod's own choice)`);
  if (pod?.native)
    return missing.length
      ? unsupported(pod.evidence)
      : {
          mode: 'native',
          why: `${pod.evidence} (the pod's own choice)`,
          findings: [],
          pinClassic: false,
        };
  if (spec.sidecarMode === 'classic') return classic('sidecarMode classic');
  if (spec.sidecarMode === 'native')
    return missing.length
      ? unsupported('sidecarMode native')
      : {
          mode: 'native',
          why: `sidecarMode native (${versions})`,
          findings: [],
          pinClassic: false,
        };
  if (meshNative && missing.length === 0)
    return {
      mode: 'native',
      why: `sidecarMode auto: ${name} itself runs native sidecars at ${versions}`,
      findings: [],
      pinClassic: false,
    };
  if (meshNative)
    return classic(
      `sidecarMode auto: ${name} would inject native sidecars by itself, ` +
        `but ${missing.join(' and ')}: classic, pinned`,
    );
  return classic(
    `sidecarMode auto: ${name} itself runs classic sidecars at ${versions} ` +
      `(${autoNativeRule(mesh)})`,
  );
}

/** In words, where the mesh picks native by itself. */
function autoNativeRule(mesh: MeshName): string {
  return mesh === 'istio'
    ? 'native from Istio 1.27 when every kubelet is ≥ 1.33'
    : 'native by default from Linkerd 2.20';
}
