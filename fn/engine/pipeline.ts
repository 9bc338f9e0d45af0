/**
 * Runs the mutators over every workload of the input, applies their changes to the documents and
 * records each one. Mutators see the workload as the previous mutators left it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Config } from '../config/schema.ts';
import { workloadSettings } from '../config/workloadSettings.ts';
import { formatPath, getAt } from '../core/fieldPath.ts';
import type { RegisteredMutator } from '../mutators/types.ts';
import type { ExplainContext, ExplanationBody } from '../explanation/types.ts';
import { gatewayShape } from '../workloads/gatewayShape.ts';
import { buildInventory } from '../workloads/inventory.ts';
import { podTemplatePath } from '../workloads/kinds.ts';
import { detectMesh } from '../workloads/mesh.ts';
import type { Resource } from '../workloads/resource.ts';
import { formatRef } from '../core/kubeObject.ts';
import { lineOf, workloadShapeProblem } from '../workloads/shape.ts';
import { Workload } from '../workloads/workload.ts';
import { KubeGracefulError } from '../core/errors.ts';
import type { ChangeRecord, Finding } from '../core/records.ts';
import { matches } from './selectors.ts';

/** What the mutators did to one workload, for explain: the plan, bound to its mutator's explanation. */
export interface WorkloadOutcome {
  readonly workload: Workload;
  readonly mutator: string;
  /** The mutator's plan, opaque to the engine (tests compare plans). */
  readonly plan: unknown;
  readonly explain: (context: ExplainContext) => ExplanationBody;
}

/** Everything a run produced. */
export interface PipelineResult {
  readonly changes: ChangeRecord[];
  readonly findings: Finding[];
  readonly outcomes: WorkloadOutcome[];
}

/** Returns the records of running `mutators` over `resources`, whose documents it edits in place. */
export function runPipeline(resources: readonly Resource[], config: Config, mutators: readonly RegisteredMutator[]): PipelineResult {
  const defaultNamespace = config.spec.namespace;
  const inventory = buildInventory(resources.map((r) => r.object), defaultNamespace);
  const result: PipelineResult = { changes: [], findings: [], outcomes: [] };
  for (const resource of resources) {
    const object = resource.object;
    const templatePath = podTemplatePath(object.apiVersion, object.kind, config.spec.extraKinds);
    if (!templatePath) continue;
    const workload = new Workload(resource, templatePath, resource.ref(defaultNamespace));
    const place = { resource: workload.ref, document: resource.doc.place.document };
    const { spec } = config;
    if (spec.exclude.some((s) => matches(s, workload))) continue;
    const explicitlyIncluded = spec.include.some((s) => matches(s, workload));
    if (spec.include.length > 0 && !explicitlyIncluded) continue;
    const settings = workloadSettings(config, workload);
    result.findings.push(...settings.findings.map((f) => ({ ...f, ...place, mutator: 'engine' as const })));
    if (settings.skip) continue;
    // Mutators rely on the types of kubeObject.ts; a field of another type is refused, not crashed on.
    const problem = workloadShapeProblem(object, templatePath);
    if (problem) {
      const field = formatPath(problem.path);
      throw new KubeGracefulError(
        'E_INPUT',
        `${field} is ${problem.found}, not ${problem.expected}`,
        { document: resource.doc.place.document, line: lineOf(resource.doc, [...resource.base, ...problem.path]), resource: formatRef(workload.ref), field },
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
      result.findings.push(...outcome.findings.map((f) => ({ ...f, ...place, mutator: mutator.id })));
      if (outcome.explain) result.outcomes.push({ workload, mutator: mutator.id, plan: outcome.plan, explain: outcome.explain });
      for (const change of outcome.changes) {
        const before = getAt(workload.object, change.path);
        if (isDeepStrictEqual(before, change.value)) continue;
        resource.doc.set([...resource.base, ...change.path], change.value);
        result.changes.push({ mutator: mutator.id, ...place, path: change.path, before, after: change.value, reason: change.reason });
      }
    }
  }
  return result;
}
