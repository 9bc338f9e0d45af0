/**
 * The contract every mutator implements: a small pure unit that looks at one workload and returns
 * the fields it wants set and what it found (STYLE.md, after kustomize's api/filters).
 */
import type { Config, Spec } from '../config/schema.ts';
import type { FieldPath } from '../document/path.ts';
import type { Finding, MutatorId } from '../engine/records.ts';
import type { GatewayShape } from '../workloads/gatewayShape.ts';
import type { Inventory } from '../workloads/inventory.ts';
import type { MeshMembership } from '../workloads/mesh.ts';
import type { Workload } from '../workloads/workload.ts';

/** What a mutator knows besides the workload itself. */
export interface MutatorContext {
  /** Settings for this workload: config, flags and its `kube-graceful.dev/` annotations merged. */
  readonly spec: Spec;
  /** The config with provenance, to name where each setting came from. */
  readonly config: Config;
  readonly inventory: Inventory;
  readonly mesh: MeshMembership;
  readonly gateway: GatewayShape | undefined;
  /** True when an `include` selector names this workload (opts control-plane pods in). */
  readonly explicitlyIncluded: boolean;
}

/** A field a mutator wants set (path from the object's root) and why. */
export interface ProposedChange {
  readonly path: FieldPath;
  readonly value: unknown;
  readonly reason: string;
}

/** A finding before the engine adds the resource, document and mutator. */
export type ProposedFinding = Omit<Finding, 'mutator' | 'resource' | 'document'>;

/** What a mutator returns for one workload. */
export interface MutatorOutcome {
  readonly changes: readonly ProposedChange[];
  readonly findings: readonly ProposedFinding[];
  /** Data for `explain` (timing inputs and plan); opaque to the engine. */
  readonly plan?: unknown;
}

export interface Mutator {
  readonly id: MutatorId;
  /** One line for `--help` and the report. */
  readonly description: string;
  /** Returns false when the settings switch this mutator off. */
  enabled(spec: Spec): boolean;
  /** Returns the changes and findings for one workload; pure: must not touch anything else. */
  mutate(workload: Workload, context: MutatorContext): MutatorOutcome;
}

/** The outcome of a mutator that has nothing to do for this workload. */
export const NOTHING: MutatorOutcome = { changes: [], findings: [] };
