/**
 * Runs the mutators over every workload of the input, applies their changes to the documents and
 * records each one. Mutators see the workload as the previous mutators left it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Config } from '../config/schema.ts';
import { workloadSettings } from './workloadSettings.ts';
import { formatPath, getAt } from '../core/fieldPath.ts';
import type {
  Claim,
  MutatorContext,
  ObjectExplainContext,
  ObjectMutatorRun,
  ProposedEdit,
  RegisteredMutator,
  RegisteredObjectMutator,
  RegisteredWorkloadMutator,
} from '../mutators/types.ts';
import type { ExplainContext, ExplanationBody } from '../explanation/types.ts';
import { readSkip } from './workloadSettings.ts';
import { annotationsOf } from '../core/kubeObject.ts';
import type { ResourceRef } from '../core/kubeObject.ts';
import { isOfKind } from './objectKinds.ts';
import { isPolicyKind } from '../workloads/admissionPolicies.ts';
import { alongside } from './alongside.ts';
import { gatewayShape } from '../workloads/gatewayShape.ts';
import { buildInventory } from '../workloads/inventory.ts';
import type { Inventory } from '../workloads/inventory.ts';
import { podTemplatePath } from '../workloads/kinds.ts';
import type { KubeObject } from '../core/kubeObject.ts';
import { detectMesh } from '../workloads/mesh.ts';
import type { Resource } from '../workloads/resource.ts';
import { formatRef, objectRef } from '../core/kubeObject.ts';
import { lineOf, workloadShapeProblem } from '../workloads/shape.ts';
import { Workload } from '../workloads/workload.ts';
import { KubeGracefulError } from '../core/errors.ts';
import type { ChangeRecord, Finding } from '../core/records.ts';
import type { ProposedChange } from '../mutators/types.ts';
import { sharedText } from '../core/records.ts';
import { matches } from './selectors.ts';
import { readIgnore } from './ignoreAnnotation.ts';
import { AdmissionCheck } from './admissionCheck.ts';

const NO_CODES: ReadonlySet<string> = new Set();

/** What a mutator did to one workload or object, for explain. */
export type RunOutcome = WorkloadOutcome | ObjectOutcome;

/** What the mutators did to one workload, for explain: the plan, bound to its mutator's
 * explanation. */
interface WorkloadOutcome {
  readonly subject: 'workload';
  readonly workload: Workload;
  readonly mutator: string;
  /** The mutator's plan, opaque to the engine (tests compare plans). */
  readonly plan: unknown;
  readonly explain: (context: ExplainContext) => ExplanationBody;
}

/** What an object mutator did to one object (an EnvoyProxy…), for explain: before is the input
 * object, after the edited one. */
interface ObjectOutcome {
  readonly subject: 'object';
  readonly resource: Resource;
  readonly ref: ResourceRef;
  readonly mutator: string;
  readonly plan: unknown;
  readonly explain: (context: ObjectExplainContext) => ExplanationBody;
}

/**
 * What a run keeps besides the edits it makes. Without `records`, only the findings worth a
 * warning or an error are kept: a stream transform without a report prints nothing else, and a
 * dense stream's change records and info findings took twice its size (bookinfo ×400: 6.5 MB for
 * 3.2 MB of input, issue #16 peak memory).
 */
export interface Keep {
  /** Each mutator's plan, for explain: a few KB per workload. */
  readonly outcomes: boolean;
  /** Every change record and info finding. */
  readonly records: boolean;
}

/** Everything a run keeps: what explain, check, patches, reports and KRM results read. */
const KEEP_ALL: Keep = { outcomes: true, records: true };

/** The objects the mutators read about (Services, policies, …), and where each stands. */
export interface PipelineContext {
  readonly objects: readonly KubeObject[];
  /** The document each object stands in (1-based), for findings about it; 0 when unknown. */
  readonly documentOf?: (object: KubeObject) => number;
}

/** Everything a run produced. */
export interface PipelineResult {
  readonly changes: ChangeRecord[];
  readonly findings: Finding[];
  readonly outcomes: RunOutcome[];
  /** What the run read: `check` fails when it read nothing (issue #29 item 2). */
  readonly read: InputCount;
  /**
   * Findings an object's `kube-graceful.dev/ignore` annotation accepts: kept out of `findings`,
   * so they neither print nor fail a run, and counted by `check` (issue #29 item 4).
   */
  readonly ignored: Finding[];
}

/**
 * How much of the input was Kubernetes objects. An empty input, a failed `helm template` and a
 * `package.json` all read as zero objects, where a chart with no workloads reads as some objects
 * and zero workloads.
 */
export interface InputCount {
  /** Documents of a stream (items of a ResourceList) that hold an object with a kind. */
  documents: number;
  /** Those objects, the items of a `kind: List` each counted. */
  objects: number;
  /** The objects with a pod template, whether the settings leave them alone or not. */
  workloads: number;
}

/** Returns true when `Pipeline.run` has work for this object: a workload, or an object of an object
 * mutator's kind. */
export function isSubject(
  object: KubeObject,
  config: Config,
  mutators: readonly RegisteredMutator[],
): boolean {
  if (podTemplatePath(object.apiVersion, object.kind, config.spec.extraKinds) !== undefined)
    return true;
  return mutators.some((m) => m.subject === 'object' && m.kinds.some((k) => isOfKind(object, k)));
}

/**
 * The pipeline one resource at a time, for a reader that parses, mutates and releases each
 * workload's document in turn (issue #16: keeping every document's tree until the end made peak
 * memory about 49× the input). The context objects (Services, Namespaces…) come first, all of
 * them: a workload's changes may depend on any of them, wherever it stands in the stream.
 */
export class Pipeline {
  readonly result: PipelineResult = {
    changes: [],
    findings: [],
    outcomes: [],
    read: { documents: 0, objects: 0, workloads: 0 },
    ignored: [],
  };
  readonly #inventory: Inventory;
  readonly #contextObjects: readonly KubeObject[];
  /** The context objects of the kinds each object mutator reads, picked once per mutator. */
  readonly #read = new Map<RegisteredObjectMutator, readonly KubeObject[]>();
  readonly #workloadMutators: readonly RegisteredWorkloadMutator[];
  readonly #objectMutators: readonly RegisteredObjectMutator[];
  /** The object mutators' runs, by target (planObjects). */
  readonly #planned = new Map<Resource, readonly PlannedRun[]>();
  /** The edits planned on context objects, by the object the context pass read. */
  readonly #edits = new Map<KubeObject, PlannedEdit[]>();
  /** Admission policies in the stream that would rewrite the grace periods or hooks. */
  readonly #admission = new AdmissionCheck();

  constructor(
    context: PipelineContext,
    readonly config: Config,
    readonly mutators: readonly RegisteredMutator[],
    /**
     * What to keep: a plan is a few KB per workload (bookinfo ×400: 6 MB of plans for 3.2 MB of
     * input), and a transform without a report reads neither plans nor records.
     */
    readonly keep: Keep = KEEP_ALL,
  ) {
    const { objects: contextObjects, documentOf = () => 0 } = context;
    for (const object of contextObjects)
      if (isPolicyKind(object.kind))
        this.#admission.notePolicy(object, documentOf(object), config.spec.namespace);
    this.#inventory = buildInventory(contextObjects, config.spec.namespace);
    this.#contextObjects = contextObjects;
    this.#workloadMutators = mutators.filter((m) => m.subject === 'workload');
    this.#objectMutators = mutators.filter((m) => m.subject === 'object');
  }

  /**
   * Runs the object mutators over their targets among `resources`, ahead of the stream order: an
   * edit of another object (the ConfigMap a Gateway names) must be known when the stream reaches
   * that object, which may stand before the target. The records, findings and outcomes are still
   * made in stream order, by `run`. `resources` are the ones `run` is then given (planned runs are
   * found by the Resource); returns the context objects that will be edited.
   */
  planObjects(resources: readonly Resource[]): ReadonlySet<KubeObject> {
    for (const resource of resources) {
      const mutators = this.#objectMutators.filter((m) =>
        m.kinds.some((k) => isOfKind(resource.object, k)),
      );
      if (mutators.length > 0) this.#planObject(resource, mutators);
    }
    return new Set(this.#edits.keys());
  }

  /**
   * Runs the mutators over `resource` when it is a workload (or an object of an object mutator's
   * kind), editing its document, and makes the edits planned for it by other objects' mutators;
   * records what they did. `readAs` is the object the context pass read for this resource (its
   * identity is how planned edits name it). Returns the objects to add to the input after it.
   */
  run(resource: Resource, readAs: KubeObject = resource.object): readonly KubeObject[] {
    const edits = this.#edits.get(readAs);
    if (edits) this.#applyEdits(resource, edits);
    const planned = this.#planned.get(resource);
    if (planned) return this.#applyObject(resource, planned);
    if (this.#objectMutators.some((m) => m.kinds.some((k) => isOfKind(resource.object, k))))
      throw new Error(`internal: ${formatRef(resource.ref())} reached before planObjects`);
    this.#runWorkload(resource);
    return [];
  }

  #runWorkload(resource: Resource): void {
    const { config, result } = this;
    const mutators = this.#workloadMutators;
    const inventory = this.#inventory;
    const defaultNamespace = config.spec.namespace;
    const object = resource.object;
    const templatePath = podTemplatePath(object.apiVersion, object.kind, config.spec.extraKinds);
    if (!templatePath) return;
    result.read.workloads += 1;
    const workload = new Workload(resource, templatePath, resource.ref(defaultNamespace));
    const place = { resource: workload.ref, document: resource.doc.place.document };
    const { spec } = config;
    if (spec.exclude.some((s) => matches(s, workload))) return;
    const explicitlyIncluded = spec.include.some((s) => matches(s, workload));
    if (spec.include.length > 0 && !explicitlyIncluded) return;
    const settings = workloadSettings(config, workload);
    const found = (findings: readonly Finding[]) => this.#found(findings, settings.ignore);
    found(settings.findings.map((f) => ({ ...f, ...place, mutator: 'engine' as const })));
    if (settings.skip) return;
    // Mutators rely on the types of kubeObject.ts; a field of another type is refused, not crashed
    // on.
    const problem = workloadShapeProblem(object, templatePath);
    if (problem) {
      const field = formatPath(problem.path);
      throw new KubeGracefulError(
        'E_INPUT',
        `${field} is ${problem.found}, not ${problem.expected}`,
        {
          document: resource.doc.place.document,
          line: lineOf(resource.doc, [...resource.base, ...problem.path]),
          resource: formatRef(workload.ref),
          field,
        },
        'The API server would reject this workload as well; ' +
          'fix the template that renders it ' +
          '(or exclude the workload, or annotate it kube-graceful.dev/skip: "true").',
      );
    }
    const enabled = mutators.filter((mutator) => mutator.enabled(settings.config.spec));
    // A claim holds whether or not its mutator is on: a proxy's pods are never planned as an
    // app's, whose preStop sleep would stand in front of the proxy's own drain.
    const claimer = mutators.find((mutator) => mutator.claims?.(workload));
    for (const mutator of enabled) {
      const base: MutatorContext = {
        spec: settings.config.spec,
        config: settings.config,
        inventory,
        mesh: detectMesh(workload, inventory, settings.config.spec),
        gateway: gatewayShape(workload.template),
        explicitlyIncluded,
      };
      const context = claimer
        ? { ...base, claimedBy: claimOf(claimer, enabled.includes(claimer), workload, base) }
        : base;
      const outcome = mutator.run(workload, context);
      found(outcome.findings.map((f) => ({ ...f, ...place, mutator: mutator.id })));
      if (this.keep.outcomes && outcome.explain)
        result.outcomes.push({
          subject: 'workload',
          workload,
          mutator: mutator.id,
          plan: outcome.plan,
          explain: outcome.explain,
        });
      this.#apply(resource, place, mutator.id, outcome.changes);
    }
    if (this.#admission.active)
      this.#admission.notePod(workload.ref, resource.object, templatePath);
  }

  /** Adds the findings that need the whole run: admission policies that would undo it. */
  finish(): void {
    for (const { finding, ignore } of this.#admission.findings()) this.#found([finding], ignore);
  }

  /**
   * Runs object mutators over one object of their kinds: no pod template, no per-workload
   * annotations; the include/exclude selectors and the skip annotation apply as to a workload, and
   * to every object the mutator would edit besides it.
   */
  #planObject(resource: Resource, mutators: readonly RegisteredObjectMutator[]): void {
    const { config } = this;
    const ref = resource.ref(config.spec.namespace);
    const runs: PlannedRun[] = [];
    this.#planned.set(resource, runs);
    if (!this.#selected(resource.object, ref)) return;
    for (const mutator of mutators) {
      if (!mutator.enabled(config.spec)) continue;
      const objects = this.#readBy(mutator);
      const run = mutator.run(resource.object, { spec: config.spec, config, objects, ref });
      const refused = (run.edits ?? []).find(
        (e) => !this.#selected(e.target, objectRef(e.target, config.spec.namespace)),
      );
      if (refused) {
        const findings = [...run.findings, skippedTarget(refused.target)];
        runs.push({ mutator, run: { findings, changes: [] } });
        continue;
      }
      runs.push({ mutator, run });
      const madeFor = { resource: ref, document: resource.doc.place.document };
      for (const edit of run.edits ?? []) {
        if (!objects.includes(edit.target))
          throw new Error(`internal: ${mutator.id} edits an object it was not given to read`);
        const edits = this.#edits.get(edit.target) ?? [];
        edits.push({ mutator: mutator.id, edit, madeFor });
        this.#edits.set(edit.target, edits);
      }
    }
  }

  /**
   * Returns the context objects of the kinds `mutator` reads. Picked once per mutator, not once
   * per target: a stream of 8,000 ConfigMaps, each one a target Envoy Gateway's mutator looks at,
   * made that filter quadratic (issue #34 item 2: 20 s).
   */
  #readBy(mutator: RegisteredObjectMutator): readonly KubeObject[] {
    let objects = this.#read.get(mutator);
    if (objects === undefined) {
      objects = this.#contextObjects.filter((o) => mutator.reads.some((k) => isOfKind(o, k)));
      this.#read.set(mutator, objects);
    }
    return objects;
  }

  /** Returns true unless the selectors leave the object out or it is annotated skip. */
  #selected(object: KubeObject, ref: ResourceRef): boolean {
    const { spec } = this.config;
    const subject = { ref, object };
    if (spec.exclude.some((s) => matches(s, subject))) return false;
    if (spec.include.length > 0 && !spec.include.some((s) => matches(s, subject))) return false;
    return !readSkip(annotationsOf(object.metadata)).skip;
  }

  /** Records the planned runs on their target, in stream order, and returns the objects to add. */
  #applyObject(resource: Resource, runs: readonly PlannedRun[]): KubeObject[] {
    const { config, result } = this;
    const ref = resource.ref(config.spec.namespace);
    const place = { resource: ref, document: resource.doc.place.document };
    const created: KubeObject[] = [];
    const annotations = annotationsOf(resource.object.metadata);
    const ignore = readIgnore(annotations);
    const { finding } = readSkip(annotations);
    for (const bad of [finding, ignore.finding])
      if (bad) this.#found([{ ...bad, ...place, mutator: 'engine' }]);
    for (const { mutator, run } of runs) {
      this.#found(
        run.findings.map((f) => ({ ...f, ...place, mutator: mutator.id })),
        ignore.codes,
      );
      if (this.keep.outcomes && run.explain)
        result.outcomes.push({
          subject: 'object',
          resource,
          ref,
          mutator: mutator.id,
          plan: run.plan,
          explain: run.explain,
        });
      this.#apply(resource, place, mutator.id, run.changes);
      for (const creation of run.creates ?? []) {
        const object = alongside(creation.object, resource.object);
        const { reason } = creation;
        created.push(object);
        if (this.keep.records)
          this.result.changes.push({
            mutator: mutator.id,
            resource: objectRef(object, config.spec.namespace),
            document: place.document,
            path: [],
            before: undefined,
            after: object,
            reason,
            madeFor: place,
          });
      }
    }
    return created;
  }

  /** Makes the edits other objects' mutators planned for this resource. */
  #applyEdits(resource: Resource, edits: readonly PlannedEdit[]): void {
    const ref = resource.ref(this.config.spec.namespace);
    const place = { resource: ref, document: resource.doc.place.document };
    for (const { mutator, edit, madeFor } of edits)
      this.#apply(resource, { ...place, madeFor }, mutator, [edit]);
  }

  /** Sets each change's field that differs, on the resource's document, and records it. */
  #apply(
    resource: Resource,
    place: Pick<ChangeRecord, 'resource' | 'document' | 'madeFor'>,
    mutator: string,
    changes: readonly ProposedChange[],
  ): void {
    for (const change of changes) {
      const before = getAt(resource.object, change.path);
      if (isDeepStrictEqual(before, change.value)) continue;
      resource.doc.set([...resource.base, ...change.path], change.value);
      if (this.keep.records)
        this.result.changes.push({
          mutator,
          ...place,
          path: change.path,
          before,
          after: change.value,
          reason: sharedText(change.reason),
        });
    }
  }

  /** Keeps findings: all of them, or the warnings and errors when the run keeps no records. */
  /** Keeps findings (info ones only with records); those of a code in `ignore` apart. */
  #found(findings: readonly Finding[], ignore: ReadonlySet<string> = NO_CODES): void {
    for (const finding of findings) {
      if (!this.keep.records && finding.severity === 'info') continue;
      (ignore.has(finding.code) ? this.result.ignored : this.result.findings).push(finding);
    }
  }
}

/** An object mutator's run on one target, made by planObjects. */
interface PlannedRun {
  readonly mutator: RegisteredObjectMutator;
  readonly run: ObjectMutatorRun;
}

/** An edit of an object, planned by the mutator of another. */
interface PlannedEdit {
  readonly mutator: string;
  readonly edit: ProposedEdit;
  readonly madeFor: NonNullable<ChangeRecord['madeFor']>;
}

/** The finding for a run dropped because it would edit an object the settings leave alone. */
function skippedTarget(target: KubeObject): ObjectMutatorRun['findings'][number] {
  return {
    severity: 'warning',
    code: 'EDIT_TARGET_SKIPPED',
    message:
      `nothing written: this object's settings go into ${formatRef(objectRef(target))}, ` +
      `which an exclude selector or the kube-graceful.dev/skip annotation leaves alone`,
  };
}

/**
 * The claim `claimer` has on the workload, as the other mutators see it: its id, and the span its
 * server serves for when it is on and sizes no mesh sidecar itself (app-graceful does).
 */
function claimOf(
  claimer: RegisteredWorkloadMutator,
  on: boolean,
  workload: Workload,
  context: MutatorContext,
): Claim {
  return on && claimer.servingSpan
    ? { id: claimer.id, servingSpan: () => claimer.servingSpan?.(workload, context) }
    : { id: claimer.id };
}
