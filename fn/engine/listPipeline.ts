/**
 * The pipeline over a ResourceList's items, in the list's order. As the stream mode does
 * (streamPipeline.ts), the items of workload kinds the reader deferred are parsed one at a time
 * when their turn comes, run, and let go of: only their text stays, for the output (issue #34
 * item 7: a list of bookinfo in 400 namespaces peaked at 207 MiB, every item's tree alive until
 * the output was written). The other parsed items are the context every workload is planned in.
 */
import type { Config } from '../config/schema.ts';
import type { KubeObject } from '../core/kubeObject.ts';
import type { ManifestDocument } from '../document/manifest.ts';
import { itemFiles } from '../krm/results.ts';
import type { KrmFile } from '../krm/results.ts';
import type { Item, ResourceListInput } from '../krm/resourceListInput.ts';
import type { AddedItems } from '../krm/resourceList.ts';
import type { RegisteredMutator } from '../mutators/types.ts';
import type { Resource } from '../workloads/resource.ts';
import { isSubject, Pipeline } from './pipeline.ts';
import type { Keep, PipelineResult } from './pipeline.ts';
import { settleOutcomes } from './settleOutcomes.ts';

/** The run of a list: records, what to add, every parsed item (to render) and its kpt file. */
export interface ListRun {
  readonly result: PipelineResult;
  /** The objects mutators add, each after the item it goes with. */
  readonly creations: AddedItems;
  /** The items parsed, the deferred ones among them holding only their final text. */
  readonly items: readonly Item[];
  readonly files: ReadonlyMap<number, KrmFile>;
}

/**
 * Returns the run of `mutators` over the list's items; undefined when a deferred item cannot be
 * read on its own (then the caller reads the list again without deferring, as it would have been
 * read). Throws the error reading every item first meets first: a read error before any other.
 */
export function runList(
  list: ResourceListInput,
  config: Config,
  mutators: readonly RegisteredMutator[],
  keep: Keep,
): ListRun | undefined {
  const read = list.resources.map((r) => r.object);
  // Asked only of admission policies, which are few: no index of every item.
  const documentOf = (o: KubeObject) => list.resources[read.indexOf(o)]?.doc.place.document ?? 0;
  const pipeline = new Pipeline({ objects: read, documentOf }, config, mutators, keep);
  const isRun = (o: KubeObject) => isSubject(o, config, mutators);
  const edited = pipeline.planObjects(list.resources.filter((_, i) => isRun(read[i]!)));
  // An object that is no workload, none a mutator changes and has no edit planned has nothing to
  // run: Pipeline.run would return at once.
  const needsRun = (o: KubeObject) => isRun(o) || edited.has(o);
  const files = itemFiles(list.resources, read);
  const creations: Array<AddedItems[number]> = [];
  const items: Item[] = [];
  const runItem = (item: Item, resources: readonly Resource[], readAs: readonly KubeObject[]) => {
    // A ResourceList's parsed items, one object each (the items of kinds no mutator reads are not
    // parsed, so not counted: the CLI counts a list's items from its text).
    const counted = readAs.filter((o) => typeof o.kind === 'string' && o.kind !== '').length;
    pipeline.result.read.documents += counted;
    pipeline.result.read.objects += counted;
    items.push(item);
    if (!readAs.some(needsRun)) return;
    for (const [i, resource] of resources.entries()) {
      const objects = pipeline.run(resource, readAs[i]);
      if (objects.length > 0) creations.push({ after: resource.doc, objects });
    }
  };
  const byDocument = resourcesByDocument(list.resources, read);
  // The items with nothing to run (Services, Namespaces…) have given their objects: their trees go
  // before the workloads are read.
  for (const item of list.items) {
    const own = byDocument.get(item.doc);
    if (!own?.read.some(needsRun)) item.doc.release();
  }
  const deferred = list.deferred ?? [];
  let next = 0;
  const runDeferredUpTo = (index: number): boolean => {
    for (; next < deferred.length && deferred[next]!.index < index; next++) {
      const opened = deferred[next]!.open();
      if (!opened) return false;
      const objects = opened.resources.map((r) => r.object);
      itemFiles(opened.resources, objects, files);
      const firstOutcome = pipeline.result.outcomes.length;
      runItem(opened.item, opened.resources, objects);
      settleOutcomes(pipeline.result.outcomes, firstOutcome, opened.item.doc);
      opened.item.doc.release();
    }
    return true;
  };
  try {
    for (const item of list.items) {
      if (!runDeferredUpTo(item.doc.place.document - 1)) return undefined;
      const own = byDocument.get(item.doc);
      runItem(item, own?.resources ?? [], own?.read ?? []);
    }
    if (!runDeferredUpTo(Infinity)) return undefined;
  } catch (error) {
    // Reading every item first would have met an error reading a later workload item before
    // running any: that one is reported (an item the reader cannot read alone, undefined: the
    // caller reads the list again to say where).
    for (; next < deferred.length; next++) {
      const opened = deferred[next]!.open();
      if (!opened) return undefined;
      opened.item.doc.release();
    }
    throw error;
  }
  pipeline.finish();
  return { result: pipeline.result, creations, items, files };
}

/** The resources of each parsed item's document, with the objects read from them, in order. */
function resourcesByDocument(
  resources: readonly Resource[],
  read: readonly KubeObject[],
): Map<ManifestDocument, { resources: Resource[]; read: KubeObject[] }> {
  const byDocument = new Map<ManifestDocument, { resources: Resource[]; read: KubeObject[] }>();
  for (const [i, resource] of resources.entries()) {
    let own = byDocument.get(resource.doc);
    if (!own) byDocument.set(resource.doc, (own = { resources: [], read: [] }));
    own.resources.push(resource);
    own.read.push(read[i]!);
  }
  return byDocument;
}
