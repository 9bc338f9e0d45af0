/**
 * The stream mode one workload document at a time (issue #16, peak memory): a document's yaml tree
 * is about 20× the text it was parsed from, and keeping every one until the output was written
 * made a run's peak memory about 49× the input (bookinfo in 400 namespaces).
 *
 * Two passes over the pre-scanned stream (stream.ts planStream):
 *  1. the context: every document to parse whose kind is not a workload's nor one an object
 *     mutator changes (Services, Namespaces, PDBs, Ingresses, BackendConfigs, the kinds object
 *     mutators read such as GatewayClass and Gateway, `kind: List`, documents the pre-scan cannot
 *     name, and everything with --all-documents) is parsed, and only its objects' plain data is
 *     kept for the inventory and the object mutators. A document that turns out to hold a
 *     workload or an object mutator's target (a List, a JSON document) is kept whole for pass 2.
 *  2. the workloads and object mutators' targets (an EnvoyProxy…), in stream order: each document
 *     is parsed, mutated and rendered, and only its output and its records are kept.
 * The output is only built here; nothing is written before the whole run succeeded.
 *
 * Errors come in document order, as they did when every document was parsed first: a document
 * pass 1 could not read is reported when pass 2 reaches it, so a broken workload before it is
 * reported first (its parse error, its shape error, or an edit refused on it), and the inventory of
 * a run that is going to fail holds the context documents before the unreadable one only.
 */
import type { Config } from '../config/schema.ts';
import type { ManifestDocument } from '../document/manifest.ts';
import type { RegisteredMutator } from '../mutators/types.ts';
import { isWorkloadKind } from '../workloads/kinds.ts';
import { isPolicyKind } from '../workloads/admissionPolicies.ts';
import type { KubeObject } from '../core/kubeObject.ts';
import type { Resource } from '../workloads/resource.ts';
import { planStream, resourcesOf } from '../stream/stream.ts';
import type { StreamPlan } from '../stream/stream.ts';
import type { ByteStream, ReadOptions } from '../stream/stream.ts';
import type { Segment } from '../stream/split.ts';
import { isSubject, Pipeline } from './pipeline.ts';
import type { InputCount, Keep, PipelineResult } from './pipeline.ts';
import { settleOutcomes } from './settleOutcomes.ts';
import { objectKindsOf } from './objectKinds.ts';
import { newDocumentText } from '../document/newDocument.ts';
import { appendAll } from '../core/appendAll.ts';

/** The run's records and its output: the byte-order mark, then one part per segment in order. */
export interface StreamRun {
  readonly result: PipelineResult;
  readonly bom: string;
  readonly parts: ReadonlyArray<string | Uint8Array>;
}

/** Pass 1's answer for one segment. */
type Context =
  | { readonly kind: 'passed' }
  | { readonly kind: 'read'; readonly objects: readonly KubeObject[] }
  | {
      readonly kind: 'kept';
      readonly doc: ManifestDocument;
      readonly resources: readonly Resource[];
      readonly objects: readonly KubeObject[];
    }
  | { readonly kind: 'failed'; readonly error: unknown };

/** Pass 1 left the segment alone (one object for every such segment: a dense stream has many). */
const PASSED: Context = { kind: 'passed' };

/** A document pass 2 is done with: nothing of it is kept. */
const LET_GO: Context = { kind: 'read', objects: [] };

/** Returns the run of `mutators` over the stream `input`, read one workload document at a time. */
export function runStream(
  input: string | ByteStream,
  config: Config,
  mutators: readonly RegisteredMutator[],
  options: Pick<ReadOptions, 'parseAll'> & { readonly keep?: Keep },
): StreamRun {
  const plan = planStream(input, {
    extraKinds: config.spec.extraKinds,
    objectKinds: objectKindsOf(mutators),
    parseAll: options.parseAll,
  });
  const { segments } = plan;

  const { contextObjects, policyDocuments, context } = readContext(plan, config, mutators);

  // Pass 2: every segment in order; workload documents parsed, mutated, rendered and let go.
  const pipeline = new Pipeline(
    { objects: contextObjects, documentOf: (o) => policyDocuments.get(o) ?? 0 },
    config,
    mutators,
    options.keep,
  );
  const edited = pipeline.planObjects(
    context.flatMap((read) => (read.kind === 'kept' ? read.resources : [])),
  );
  const parts: Array<string | Uint8Array> = [];
  // Segments that pass through one after the other go out as one part (one view of the input).
  let passing: Segment | undefined;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const read = context[i]!;
    if (read.kind === 'failed') throw read.error;
    if (
      !plan.parsed[i] ||
      (read.kind === 'read' && !read.objects.some((object) => edited.has(object)))
    ) {
      // Not parsed: the pre-scan named its kind, or it has none (comments only: no kind).
      countRead(pipeline.result.read, read.kind === 'read' ? read.objects : plan.kinds[i]);
      passing ??= segment;
      continue;
    }
    if (passing) parts.push(plan.passThrough(passing, segments[i - 1]));
    passing = undefined;
    const doc = read.kind === 'kept' ? read.doc : plan.document(segment);
    const resources = read.kind === 'kept' ? read.resources : resourcesOf(doc);
    countRead(
      pipeline.result.read,
      resources.map((r) => r.object),
    );
    const firstOutcome = pipeline.result.outcomes.length;
    const created: KubeObject[] = [];
    for (const [j, resource] of resources.entries()) {
      const readAs = read.kind === 'passed' ? resource.object : read.objects[j];
      appendAll(created, pipeline.run(resource, readAs));
    }
    parts.push(plan.rendered(segment, doc));
    for (const object of created) parts.push(createdDocument(object, parts.at(-1)!));
    settleOutcomes(pipeline.result.outcomes, firstOutcome, doc);
    context[i] = LET_GO; // a kept document is let go as well
  }
  if (passing) parts.push(plan.passThrough(passing, segments.at(-1)));
  pipeline.finish();
  return { result: pipeline.result, bom: plan.bom, parts };
}

/**
 * Pass 1: the context objects, up to the first document that cannot be read; the admission
 * policies' documents; and what pass 2 is to do with each segment.
 */
function readContext(
  plan: StreamPlan,
  config: Config,
  mutators: readonly RegisteredMutator[],
): {
  contextObjects: KubeObject[];
  policyDocuments: Map<KubeObject, number>;
  context: Context[];
} {
  const extraKinds = config.spec.extraKinds;
  const objectKinds = plan.objectKinds ?? { changed: new Set(), read: new Set() };
  const { segments } = plan;
  const contextObjects: KubeObject[] = [];
  /** The document of each admission policy (fn/engine/admissionCheck.ts), for its findings. */
  const policyDocuments = new Map<KubeObject, number>();
  const notePolicies = (objects: readonly KubeObject[], document: number) => {
    for (const o of objects) if (isPolicyKind(o.kind)) policyDocuments.set(o, document);
  };
  const context: Context[] = segments.map(() => PASSED);
  // Object mutators' targets are read here too and kept: they are planned before pass 2, as their
  // edits may reach documents before them (Pipeline.planObjects).
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (!plan.parsed[i] || isWorkloadKind(plan.kinds[i], extraKinds, objectKinds)) continue;
    try {
      const doc = plan.document(segment);
      const resources = resourcesOf(doc);
      if (resources.some((r) => isSubject(r.object, config, mutators))) {
        const objects = resources.map((r) => r.object);
        notePolicies(objects, doc.place.document);
        appendAll(contextObjects, objects);
        context[i] = { kind: 'kept', doc, resources, objects };
        continue;
      }
      // The plain data only, copied off the document: yaml's strings are views of the text they
      // were parsed from (a sliced string, in V8), so a Service's name kept the whole
      // document's text alive (bookinfo ×1600: 1.9 MB of Services' texts in the inventory).
      const objects = resources.map((r) => structuredClone(r.object));
      notePolicies(objects, doc.place.document);
      appendAll(contextObjects, objects);
      context[i] = { kind: 'read', objects };
    } catch (error) {
      context[i] = { kind: 'failed', error };
      break;
    }
  }
  return { contextObjects, policyDocuments, context };
}

/**
 * Counts one document: the objects read from it, or the kind the pre-scan read in it when it was
 * not parsed (one object: a `kind: List`, whose items count each, is always parsed).
 */
function countRead(count: InputCount, read: readonly KubeObject[] | string | undefined): void {
  const objects =
    typeof read === 'string'
      ? 1
      : (read ?? []).filter((o) => typeof o.kind === 'string' && o.kind !== '').length;
  if (objects === 0) return;
  count.documents += 1;
  count.objects += objects;
}

/**
 * The text of an object a mutator adds, as a document of its own after `previous` (the part of the
 * document it goes with): a marker on a line of its own, and its text in the input's form.
 */
function createdDocument(object: KubeObject, previous: string | Uint8Array): string | Uint8Array {
  const ends = typeof previous === 'string' ? previous.endsWith('\n') : previous.at(-1) === 0x0a;
  const text = `${ends ? '' : '\n'}---\n${newDocumentText(object, CREATED_COMMENT)}`;
  return typeof previous === 'string' ? text : Buffer.from(text, 'utf8');
}

/** The comment over an added document. */
const CREATED_COMMENT = 'Added by kube-graceful: `kube-graceful explain` says why.';
