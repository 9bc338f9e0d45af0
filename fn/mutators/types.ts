/**
 * The contract every mutator implements: a small pure unit that looks at one workload and returns
 * the fields it wants set, what it found, and a plan that it alone knows how to explain (after
 * kustomize's api/filters: one filter, one folder). The registry (./registry.ts) is the only list.
 */
import type { Config, Spec } from '../config/schema.ts';
import type { FieldPath } from '../core/fieldPath.ts';
import type { Finding } from '../core/records.ts';
import type { ExplainContext, ExplanationBody } from '../explanation/types.ts';
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

/** What a mutator returns for one workload; `plan` is what its own `explain` reads. */
export interface MutatorOutcome<Plan> {
  readonly changes: readonly ProposedChange[];
  readonly findings: readonly ProposedFinding[];
  readonly plan?: Plan;
}

/** A mutator as its folder writes it: the plan type is its own, end to end. */
export interface Mutator<Plan, Id extends string = string> {
  /** Names the mutator in records, results, config and docs (`docs/mutators/<id>.md`). */
  readonly id: Id;
  /** One line for `--help` and the report. */
  readonly description: string;
  /** Every finding code it can emit, each documented in its doc page
   * (test/mutators/registry.test.ts). */
  readonly findingCodes: readonly string[];
  /** Returns false when the settings switch this mutator off. */
  enabled(spec: Spec): boolean;
  /** Returns the changes and findings for one workload; pure: must not touch anything else. */
  mutate(workload: Workload, context: MutatorContext): MutatorOutcome<Plan>;
  /** What `explain` says about a workload this mutator planned for. */
  explain(plan: Plan, context: ExplainContext): ExplanationBody;
}

/** What the engine keeps of one mutator's work on one workload. */
interface MutatorRun {
  readonly changes: readonly ProposedChange[];
  readonly findings: readonly ProposedFinding[];
  /** The plan, opaque here: tests compare plans; only the mutator's own `explain` reads one. */
  readonly plan?: unknown;
  /** Present when the mutator made a plan: its explanation, bound to that plan. */
  readonly explain?: (context: ExplainContext) => ExplanationBody;
}

/** A registered mutator: its plan type is closed over, so the engine and `explain` need not know
 * it. */
export interface RegisteredMutator<Id extends string = string> {
  readonly id: Id;
  readonly description: string;
  readonly findingCodes: readonly string[];
  enabled(spec: Spec): boolean;
  run(workload: Workload, context: MutatorContext): MutatorRun;
}

/** Registers a mutator: binds each plan to the mutator's own `explain`, type-checked end to end. */
export function defineMutator<Plan, const Id extends string>(
  mutator: Mutator<Plan, Id>,
): RegisteredMutator<Id> {
  return {
    id: mutator.id,
    description: mutator.description,
    findingCodes: mutator.findingCodes,
    enabled: (spec) => mutator.enabled(spec),
    run(workload, context) {
      const outcome = mutator.mutate(workload, context);
      const plan = outcome.plan;
      return {
        changes: outcome.changes,
        findings: outcome.findings,
        ...(plan !== undefined
          ? {
              plan,
              explain: (explainContext: ExplainContext) => mutator.explain(plan, explainContext),
            }
          : {}),
      };
    },
  };
}

/** The outcome of a mutator that has nothing to do for this workload. */
export const NOTHING: MutatorOutcome<never> = { changes: [], findings: [] };
