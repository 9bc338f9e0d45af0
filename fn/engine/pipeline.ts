/**
 * Runs the mutators over every workload of the input, applies their changes to the documents and
 * records each one. Mutators see the workload as the previous mutators left it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Config } from '../config/schema.ts';
import { workloadSettings } from './workloadSettings.ts';
import { formatPath, getAt } from '../core/fieldPath.ts';
import type {
  ObjectExplainContext,
  RegisteredMutator,
  RegisteredObjectMutator,
  RegisteredWorkloadMutator,
} from '../mutators/types.ts';
import type { ExplainContext, ExplanationBody } from '../explanation/types.ts';
import { SKIP_ANNOTATION } from './workloadSettings.ts';
import { annotationsOf } from '../core/kubeObject.ts';
import type { ResourceRef } from '../core/kubeObject.ts';
import { isOfKind } from './objectKinds.ts';
import { gatewayShape } from '../workloads/gatewayShape.ts';
import { buildInventory } from '../workloads/inventory.ts';
import type { Inventory } from '../workloads/inventory.ts';
import { podTemplatePath } from '../workloads/kinds.ts';
import type { KubeObject } from '../core/kubeObject.ts';
import { detectMesh } from '../workloads/mesh.ts';
import type { Resource } from '../workloads/resource.ts';
import { formatRef } from '../core/kubeObject.ts';
import { lineOf, workloadShapeProblem } from '../workloads/shape.ts';
import { Workload } from '../workloads/workload.ts';
import { KubeGracefulError } from '../core/errors.ts';
import type { ChangeRecord, Finding } from '../core/records.ts';
import { sharedText } from '../core/records.ts';
import { matches } from './selectors.ts';

/** What a mutator did to one workload or object, for explain. */
export type RunOutcome = WorkloadOutcome | ObjectOutcome;

/** What the mutators did to one workload, for explain: the plan, bound to its mutator's explanation. */
interface WorkloadOutcome {
  readonly subject: 'workload';
  readonly workload: Workload;
  readonly mutator: string;
  /** The mutator's plan, opaque to the engine (tests compare plans). */
  readonly plan: unknown;
  readonly explain: (context: ExplainContext) => ExplanationBody;
}

/** What an object mutator did to one object (an EnvoyProxy…), for explain: before is the input object, after the edited one. */
interface ObjectOutcome {
  readonly subject: 'object';
  readonly resource: Resource;
  readonly ref: ResourceRef;
  readonly mutator: string;
  readonly plan: unknown;
  readonly explain: (context: ObjectExplainContext) => ExplanationBody;
}

/** Everything a run produced. */
export interface PipelineResult {
  readonly changes: ChangeRecord[];
  readonly findings: Finding[];
  readonly outcomes: RunOutcome[];
}

/** Returns the records of running `mutators` over `resources`, whose documents it edits in place. */
export function runPipeline(
  resources: readonly Resource[],
  config: Config,
  mutators: readonly RegisteredMutator[],
  keepOutcomes = true,
): PipelineResult {
  const pipeline = new Pipeline(
    resources.map((r) => r.object),
    config,
    mutators,
    keepOutcomes,
  );
  for (const resource of resources) pipeline.run(resource);
  return pipeline.result;
}

/** Returns true when `Pipeline.run` has work for this object: a workload, or an object of an object mutator's kind. */
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
  readonly result: PipelineResult = { changes: [], findings: [], outcomes: [] };
  readonly #inventory: Inventory;
  readonly #contextObjects: readonly KubeObject[];
  readonly #workloadMutators: readonly RegisteredWorkloadMutator[];
  readonly #objectMutators: readonly RegisteredObjectMutator[];

  constructor(
    contextObjects: readonly KubeObject[],
    readonly config: Config,
    readonly mutators: readonly RegisteredMutator[],
    /**
     * Whether to keep what each mutator planned, for explain. A plan is a few KB per workload
     * (bookinfo ×400: 6 MB of plans for 3.2 MB of input), and a transform never reads them.
     */
    readonly keepOutcomes = true,
  ) {
    this.#inventory = buildInventory(contextObjects, config.spec.namespace);
    this.#contextObjects = contextObjects;
    this.#workloadMutators = mutators.filter((m) => m.subject === 'workload');
    this.#objectMutators = mutators.filter((m) => m.subject === 'object');
  }

  /**
   * Runs the mutators over `resource` when it is a workload (or an object of an object mutator's
   * kind), editing its document; records what they did.
   */
  run(resource: Resource): void {
    const objectMutators = this.#objectMutators.filter((m) =>
      m.kinds.some((k) => isOfKind(resource.object, k)),
    );
    if (objectMutators.length > 0) {
      this.#runObject(resource, objectMutators);
      return;
    }
    const { config, result } = this;
    const mutators = this.#workloadMutators;
    const inventory = this.#inventory;
    const defaultNamespace = config.spec.namespace;
    const object = resource.object;
    const templatePath = podTemplatePath(object.apiVersion, object.kind, config.spec.extraKinds);
    if (!templatePath) return;
    const workload = new Workload(resource, templatePath, resource.ref(defaultNamespace));
    const place = { resource: workload.ref, document: resource.doc.place.document };
    const { spec } = config;
    if (spec.exclude.some((s) => matches(s, workload))) return;
    const explicitlyIncluded = spec.include.some((s) => matches(s, workload));
    if (spec.include.length > 0 && !explicitlyIncluded) return;
    const settings = workloadSettings(config, workload);
    result.findings.push(
      ...settings.findings.map((f) => ({ ...f, ...place, mutator: 'engine' as const })),
    );
    if (settings.skip) return;
    // Mutators rely on the types of kubeObject.ts; a field of another type is refused, not crashed on.
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
        'The API server would reject this workload as well; fix the template that renders it (or exclude the workload, or annotate it kube-graceful.dev/skip: "true").',
      );
    }
    for (const mutator of mutators) {
      if (!mutator.enabled(settings.config.spec)) continue;
      const context = {
        spec: settings.config.spec,
        config: settings.config,
        inventory,
        mesh: detectMesh(workload, inventory, settings.config.spec),
        gateway: gatewayShape(workload.template),
        explicitlyIncluded,
      };
      const outcome = mutator.run(workload, context);
      result.findings.push(
        ...outcome.findings.map((f) => ({ ...f, ...place, mutator: mutator.id })),
      );
      if (this.keepOutcomes && outcome.explain)
        result.outcomes.push({
          subject: 'workload',
          workload,
          mutator: mutator.id,
          plan: outcome.plan,
          explain: outcome.explain,
        });
      for (const change of outcome.changes) {
        const before = getAt(workload.object, change.path);
        if (isDeepStrictEqual(before, change.value)) continue;
        resource.doc.set([...resource.base, ...change.path], change.value);
        result.changes.push({
          mutator: mutator.id,
          ...place,
          path: change.path,
          before,
          after: change.value,
          reason: sharedText(change.reason),
        });
      }
    }
  }

  /**
   * Runs object mutators over one object of their kinds: no pod template, no per-workload
   * annotations; the include/exclude selectors and the skip annotation apply as to a workload.
   */
  #runObject(resource: Resource, mutators: readonly RegisteredObjectMutator[]): void {
    const { config, result } = this;
    const ref = resource.ref(config.spec.namespace);
    const subject = { ref, object: resource.object };
    const place = { resource: ref, document: resource.doc.place.document };
    if (config.spec.exclude.some((s) => matches(s, subject))) return;
    if (config.spec.include.length > 0 && !config.spec.include.some((s) => matches(s, subject)))
      return;
    if (String(annotationsOf(resource.object.metadata)[SKIP_ANNOTATION]) === 'true') return;
    for (const mutator of mutators) {
      if (!mutator.enabled(config.spec)) continue;
      const objects = this.#contextObjects.filter((o) => mutator.reads.some((k) => isOfKind(o, k)));
      const object = resource.object;
      const outcome = mutator.run(object, { spec: config.spec, config, objects, ref });
      result.findings.push(
        ...outcome.findings.map((f) => ({ ...f, ...place, mutator: mutator.id })),
      );
      if (this.keepOutcomes && outcome.explain)
        result.outcomes.push({
          subject: 'object',
          resource,
          ref,
          mutator: mutator.id,
          plan: outcome.plan,
          explain: outcome.explain,
        });
      for (const change of outcome.changes) {
        const before = getAt(object, change.path);
        if (isDeepStrictEqual(before, change.value)) continue;
        resource.doc.set([...resource.base, ...change.path], change.value);
        result.changes.push({
          mutator: mutator.id,
          ...place,
          path: change.path,
          before,
          after: change.value,
          reason: sharedText(change.reason),
        });
      }
    }
  }
}
