/**
 * The contract every mutator implements: a small pure unit that looks at one workload and returns
 * the fields it wants set, what it found, and a plan that it alone knows how to explain (after
 * kustomize's api/filters: one filter, one folder). The registry (./registry.ts) is the only list.
 */
import type { Config, Spec } from '../config/schema.ts';
import type { Constraint } from '../compat/constraint.ts';
import type { TimingInputs } from '../timing/model.ts';
import type { SettingsSlice } from '../config/kit/slice.ts';
import type { FieldPath } from '../core/fieldPath.ts';
import type { KubeObject, ResourceRef } from '../core/kubeObject.ts';
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
  /**
   * The mutator that takes these pods whole (its `claims`), if one does, switched on or off:
   * app-graceful, which fills in for every serving pod, leaves them to it.
   */
  readonly claimedBy?: Claim;
}

/** A mutator's claim on a workload's pods, as the other mutators see it. */
export interface Claim {
  readonly id: string;
  /**
   * How long the claimed pod's server keeps serving, when the claiming mutator is on and leaves
   * the pod's mesh sidecar to app-graceful (its `servingSpan`): computed when first asked.
   */
  readonly servingSpan?: () => ServingSpan | undefined;
}

/**
 * How long a pod's own server keeps serving after termination starts, as the timing model's
 * inputs: W is how long it accepts new connections, R what it still needs after that. A mutator
 * that takes a proxy's pod whole but leaves its mesh sidecar to app-graceful says it
 * (traefik-drain: Traefik keeps accepting on SIGTERM for its requestAcceptGraceTimeout), and
 * app-graceful sizes the sidecar from it as for an app that accepts for W and finishes in R.
 */
export interface ServingSpan {
  /** The model's inputs, W and R as above (each with its derivation), B and the rest unchanged. */
  readonly inputs: TimingInputs;
  /** The container that serves: the pod's plan is its plan. */
  readonly container: string;
  /** Why the mesh proxy must outlive the server, for the sidecar's reason ("The mesh proxy must
   * outlive Traefik: …"). */
  readonly outlives: string;
  /** When the server stops taking new work, for the sidecar's reason. */
  readonly stopsAccepting: string;
}

/** A field a mutator wants set (path from the object's root) and why. */
export interface ProposedChange {
  readonly path: FieldPath;
  /** The value to set; `undefined` removes the field or list item (fn/core/fieldPath.ts setAt). */
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

/**
 * What a mutator declares about itself, whatever its subject: the registry reads these, and the
 * config, the docs and the compatibility table are derived from them (docs/ARCHITECTURE.md, "A
 * mutator").
 */
interface Declaration<Id extends string> {
  /** Names the mutator in records, results, config and docs (`docs/mutators/<id>.md`). */
  readonly id: Id;
  /**
   * Its settings slice (`settings/slice.ts` in its folder): fn/config composes the registered
   * mutators' slices into the spec and the flat keys (fn/config/slices.ts).
   */
  readonly settings: SettingsSlice;
  /** One line for `--help` and the report. */
  readonly description: string;
  /** Every finding code it can emit, each documented in its doc page
   * (test/mutators/registry.test.ts). */
  readonly findingCodes: readonly string[];
  /**
   * The upstream constraints only this mutator relies on (`compatibility.ts` in its folder), with
   * their checks: the compatibility table is the shared rows of fn/compat/table.ts and these
   * (fn/mutators/compatibility.ts).
   */
  readonly compatibility?: readonly Constraint[];
  /** Returns false when the settings switch this mutator off. */
  enabled(spec: Spec): boolean;
}

/** A mutator as its folder writes it: the plan type is its own, end to end. */
export interface Mutator<Plan, Id extends string = string> extends Declaration<Id> {
  /**
   * Returns true for the pods this mutator takes whole (a proxy whose own preStop is how it
   * drains): app-graceful then leaves them alone (`MutatorContext.claimedBy`), also when this
   * mutator is switched off, so a new proxy's mutator needs no line in app-graceful.
   */
  claims?(workload: Workload): boolean;
  /**
   * For a pod it claims whose mesh sidecar app-graceful still plans: how long its server serves
   * (`ServingSpan`), or undefined to leave the sidecar alone too.
   */
  servingSpan?(workload: Workload, context: MutatorContext): ServingSpan | undefined;
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

/** A Kubernetes kind by API group (`''` for the core group) and name. */
export interface GroupKind {
  readonly group: string;
  readonly kind: string;
  /**
   * Text an object of this kind must contain to be the mutator's, when the kind is a common one
   * (Envoy Gateway's config is one ConfigMap among many): the pre-scan parses a document of this
   * kind for this entry only when its text has it.
   */
  readonly mentions?: string;
}

/**
 * A field an object mutator sets on another object of the stream: one of `context.objects`, e.g.
 * the ConfigMap a Gateway's `spec.infrastructure.parametersRef` names, wherever it stands in the
 * stream. The engine finds its document by the object's identity.
 */
export interface ProposedEdit extends ProposedChange {
  readonly target: KubeObject;
}

/** An object an object mutator adds to the stream, right after its target's document, and why. */
interface ProposedObject {
  readonly object: KubeObject;
  readonly reason: string;
}

/** What an object mutator returns: besides its target's own fields, edits and new objects. */
export interface ObjectMutatorOutcome<Plan> extends MutatorOutcome<Plan> {
  readonly edits?: readonly ProposedEdit[];
  readonly creates?: readonly ProposedObject[];
}

/** What an object mutator knows besides its target object. */
export interface ObjectMutatorContext {
  /** The run's settings (an object is no workload: no per-workload annotations apply). */
  readonly spec: Spec;
  readonly config: Config;
  /** The stream's objects of the kinds the mutator `reads`, wherever they stand in the stream. */
  readonly objects: readonly KubeObject[];
  /** The target's apiVersion, kind, name and namespace, for messages. */
  readonly ref: ResourceRef;
}

/** What an object mutator's explanation reads besides its plan: the object as written and as
 * patched. */
export interface ObjectExplainContext {
  readonly before: KubeObject;
  readonly after: KubeObject;
  readonly spec: Spec;
}

/**
 * A mutator whose target is an object of its own kinds, not a pod template: e.g. Envoy Gateway's
 * `EnvoyProxy`, from which the proxy Deployment is generated in the cluster (issue #19 item 2).
 */
export interface ObjectMutator<Plan, Id extends string = string> extends Declaration<Id> {
  /** The kinds it changes: the engine calls `mutate` on each object of these kinds. */
  readonly kinds: readonly GroupKind[];
  /** The kinds it reads from elsewhere in the stream: kept as context objects
   * (`context.objects`). */
  readonly reads: readonly GroupKind[];
  /**
   * Returns the changes (paths from the object's root) and findings for one object, and any edits
   * of the objects it reads or objects to add; pure.
   */
  mutate(object: KubeObject, context: ObjectMutatorContext): ObjectMutatorOutcome<Plan>;
  explain(plan: Plan, context: ObjectExplainContext): ExplanationBody;
}

/** What the engine keeps of an object mutator's work on one object. */
export interface ObjectMutatorRun extends Omit<MutatorRun, 'explain'> {
  readonly edits?: readonly ProposedEdit[];
  readonly creates?: readonly ProposedObject[];
  readonly explain?: (context: ObjectExplainContext) => ExplanationBody;
}

/** A registered workload mutator: its plan type is closed over, so the engine and `explain` need
 * not know it. */
export interface RegisteredWorkloadMutator<Id extends string = string> extends Declaration<Id> {
  readonly subject: 'workload';
  claims?(workload: Workload): boolean;
  servingSpan?(workload: Workload, context: MutatorContext): ServingSpan | undefined;
  run(workload: Workload, context: MutatorContext): MutatorRun;
}

/** A registered object mutator: the kinds it changes and reads, and its run with the plan closed
 * over. */
export interface RegisteredObjectMutator<Id extends string = string> extends Declaration<Id> {
  readonly subject: 'object';
  readonly kinds: readonly GroupKind[];
  readonly reads: readonly GroupKind[];
  run(object: KubeObject, context: ObjectMutatorContext): ObjectMutatorRun;
}

/** A registered mutator of either subject. */
export type RegisteredMutator<Id extends string = string> =
  RegisteredWorkloadMutator<Id> | RegisteredObjectMutator<Id>;

/** Registers a mutator: binds each plan to the mutator's own `explain`, type-checked end to end. */
export function defineMutator<Plan, const Id extends string>(
  mutator: Mutator<Plan, Id>,
): RegisteredWorkloadMutator<Id> {
  return {
    subject: 'workload',
    ...declarationOf(mutator),
    ...(mutator.claims ? { claims: (workload: Workload) => mutator.claims!(workload) } : {}),
    ...(mutator.servingSpan
      ? {
          servingSpan: (workload: Workload, context: MutatorContext) =>
            mutator.servingSpan!(workload, context),
        }
      : {}),
    run: (workload, context) =>
      withExplanation<Plan, ExplainContext, MutatorOutcome<Plan>>(
        mutator.mutate(workload, context),
        (plan, at) => mutator.explain(plan, at),
      ),
  };
}

/** Registers an object mutator, as defineMutator does a workload mutator. */
export function defineObjectMutator<Plan, const Id extends string>(
  mutator: ObjectMutator<Plan, Id>,
): RegisteredObjectMutator<Id> {
  return {
    subject: 'object',
    ...declarationOf(mutator),
    kinds: mutator.kinds,
    reads: mutator.reads,
    run: (object, context) =>
      withExplanation<Plan, ObjectExplainContext, ObjectMutatorOutcome<Plan>>(
        mutator.mutate(object, context),
        (plan, at) => mutator.explain(plan, at),
      ),
  };
}

/** The declaration a registered mutator keeps of its folder's mutator. */
function declarationOf<Id extends string>(mutator: Declaration<Id>): Declaration<Id> {
  return {
    id: mutator.id,
    settings: mutator.settings,
    description: mutator.description,
    findingCodes: mutator.findingCodes,
    ...(mutator.compatibility ? { compatibility: mutator.compatibility } : {}),
    enabled: (spec) => mutator.enabled(spec),
  };
}

/** The outcome of a mutator that has nothing to do for this workload. */
export const NOTHING: MutatorOutcome<never> = { changes: [], findings: [] };

/** An outcome as the engine keeps it: the plan, and the mutator's explanation bound to it. */
function withExplanation<Plan, Context, Outcome extends MutatorOutcome<Plan>>(
  outcome: Outcome,
  explain: (plan: Plan, context: Context) => ExplanationBody,
): Omit<Outcome, 'plan'> & {
  readonly plan?: Plan;
  readonly explain?: (context: Context) => ExplanationBody;
} {
  const { plan } = outcome;
  return plan !== undefined
    ? { ...outcome, plan, explain: (context: Context) => explain(plan, context) }
    : outcome;
}
