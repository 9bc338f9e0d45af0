/**
 * The plan job-sidecar-quit makes for one run-to-completion pod, and that its `explain` reads
 * (./explain.ts).
 */
import type { MutatorContext } from '../types.ts';
import type { Mesh } from './mode.ts';
import type { DeclaredSidecar } from '../../workloads/declaredSidecars.ts';

/** What `explain` shows for a Job: the mode, why, and the meshes with the engine's evidence. */
export interface JobPlan {
  readonly mode: 'native' | 'wrap';
  readonly why: string;
  readonly meshes: readonly Mesh[];
  readonly mesh: MutatorContext['mesh'];
  /** The sidecars the chart declares in `containers` (fn/workloads/declaredSidecars.ts). */
  readonly sidecars: readonly DeclaredSidecar[];
  /** The pod asks the Vault Agent Injector for its agent (./vault.ts). */
  readonly vault: boolean;
  /** The pod asks the Dapr sidecar injector for daprd (./dapr.ts). */
  readonly dapr: boolean;
  /** The pod asks Consul's connect injector for consul-dataplane (./consul.ts). */
  readonly consul: boolean;
}
