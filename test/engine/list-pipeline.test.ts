/**
 * Issue #34 item 7: a ResourceList's workload items are parsed when the run reaches them and let
 * go of after (fn/engine/listPipeline.ts), as a stream's documents are. Nothing else may change:
 * on real charts as kpt packages, the records and the list written are those of reading every
 * item first; an input with several problems reports the one reading every item first reports.
 */
import test from 'ava';
import { parseAllDocuments, stringify } from 'yaml';
import { loadConfig } from '../../fn/config/load.ts';
import { runList } from '../../fn/engine/listPipeline.ts';
import type { ListRun } from '../../fn/engine/listPipeline.ts';
import { Pipeline } from '../../fn/engine/pipeline.ts';
import type { KubeObject } from '../../fn/core/kubeObject.ts';
import { objectKindsOf } from '../../fn/engine/objectKinds.ts';
import { transform } from '../../fn/engine/transform.ts';
import { readResourceList, renderResourceList } from '../../fn/krm/resourceList.ts';
import type { ResourceListInput } from '../../fn/krm/resourceList.ts';
import { itemFiles, krmResults } from '../../fn/krm/results.ts';
import { MUTATORS } from '../../fn/mutators/registry.ts';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../helpers/fixtures.ts';

/** A chart's objects as `kpt fn source` gives them: one item each, with its file and index. */
function asPackage(chart: string): string {
  const text = readFileSync(fixturePath(chart), 'utf8');
  // YAML 1.1 both ways, as Kubernetes reads manifests (`no` stays a string).
  const items = parseAllDocuments(text, { version: '1.1' })
    .map((doc) => doc.toJS() as Record<string, unknown> | null)
    .filter((object): object is Record<string, unknown> => object !== null)
    .map((object, i) => {
      const metadata = (object['metadata'] ?? {}) as Record<string, unknown>;
      const annotations = (metadata['annotations'] ?? {}) as Record<string, string>;
      return {
        ...object,
        metadata: {
          ...metadata,
          annotations: {
            ...annotations,
            'config.kubernetes.io/path': `chart/${i % 4}.yaml`,
            'config.kubernetes.io/index': String(i),
          },
        },
      };
    });
  return stringify(
    { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items },
    { version: '1.1' },
  );
}

const config = loadConfig(undefined, { 'kube-version': '1.31' });
const readOptions = { objectKinds: objectKindsOf(MUTATORS), extraKinds: () => [] };
const KEEP = { outcomes: true, records: true };

/**
 * The run as it was before items were deferred and let go of: every item read first, every
 * resource run in order.
 */
function everyItemRun(list: ResourceListInput): ListRun {
  const read = list.resources.map((r) => r.object);
  const documentOf = (o: KubeObject) => list.resources[read.indexOf(o)]?.doc.place.document ?? 0;
  const pipeline = new Pipeline({ objects: read, documentOf }, config, MUTATORS, KEEP);
  const objects = read.filter((o) => typeof o.kind === 'string' && o.kind !== '').length;
  pipeline.result.read.documents = pipeline.result.read.objects = objects;
  pipeline.planObjects(list.resources);
  const creations = list.resources.flatMap((resource, i) => {
    const created = pipeline.run(resource, read[i]);
    return created.length > 0 ? [{ after: resource.doc, objects: created }] : [];
  });
  pipeline.finish();
  return {
    result: pipeline.result,
    creations,
    items: list.items,
    files: itemFiles(list.resources),
  };
}

/** The run's records and the list it writes. */
function ranAndWritten(list: ResourceListInput, run: (list: ResourceListInput) => ListRun) {
  const ran = run(list);
  const results = krmResults(ran.result.changes, ran.result.findings, ran.files);
  return {
    changes: ran.result.changes,
    findings: ran.result.findings,
    read: ran.result.read,
    outcomes: ran.result.outcomes.length,
    written: renderResourceList({ ...list, items: ran.items }, results, ran.creations),
  };
}

const listRun = (list: ResourceListInput) => runList(list, config, MUTATORS, KEEP)!;

for (const [chart, workloads] of [
  ['corpus/istio-sample-kube-bookinfo.yaml', true],
  ['corpus/istio-gateway-1.30.3-nlb.yaml', true],
  ['corpus/argo-cd.yaml', true],
  ['corpus/kube-prometheus-stack.yaml', true],
  // An EnvoyProxy merged over its GatewayClass's: object mutators read the items they change.
  ['gateways/envoy-gateway/derived-v1.9.0-gateway-merge.yaml', false],
] as const) {
  test(`${chart} as a kpt package: the records and list of running every item read first`, (t) => {
    const text = asPackage(chart);
    const eager = readResourceList(text, readOptions);
    const deferring = readResourceList(text, { ...readOptions, deferWorkloads: true });
    t.is((deferring.deferred?.length ?? 0) > 0, workloads, 'workload items are deferred');
    t.is(deferring.items.length + deferring.deferred!.length, eager.items.length);
    const before = ranAndWritten(eager, everyItemRun);
    t.true(before.changes.length > 0);
    t.deepEqual(ranAndWritten(deferring, listRun), before);
    t.deepEqual(ranAndWritten(readResourceList(text, readOptions), listRun), before);
  });
}

/** The package `text` with the `nth` item of `kind` (0-based) changed by `change`. */
function broken(text: string, kind: string, nth: number, change: (item: string) => string): string {
  const starts = [...text.matchAll(/^ {2}- apiVersion: .*\n {4}kind: (\w+)$/gm)].filter(
    (m) => m[1] === kind,
  );
  const start = starts[nth]!.index;
  const end = text.indexOf('\n  - ', start + 1) + 1;
  const item = text.slice(start, end);
  const changed = change(item);
  if (changed === item) throw new Error(`the ${kind} change did not apply`);
  return text.slice(0, start) + changed + text.slice(end);
}

const bookinfo = asPackage('corpus/istio-sample-kube-bookinfo.yaml');

/** The error message of reading every item first and running them. */
function eagerError(text: string): string {
  try {
    ranAndWritten(readResourceList(text, readOptions), everyItemRun);
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
}

const unclosedQuote = (item: string) => item.replace(/^( {6}name: )(.*)$/m, '$1"$2');
const commandString = (item: string) =>
  item.replace(/^( {14})imagePullPolicy: IfNotPresent$/m, '$1command: run');

const notAMapping = () => '  - just a string\n';
const unparsable = (item: string) => item.replace(/^( {4}kind: Service\n)/m, '$1    extra: [x\n');

// The Deployment (a deferred item) stands before the second Service (read first): the error
// reported is the Deployment's, as when every item is read in order.
test('a deferred Deployment that does not parse, then a Service that is not a mapping', (t) => {
  const text = broken(broken(bookinfo, 'Deployment', 0, unclosedQuote), 'Service', 1, notAMapping);
  const error = t.throws(() => transform(text));
  t.is(error.message, eagerError(text));
  t.regex(error.message, /closing "quote/, "the Deployment's error, not the Service's");
});

test('a Deployment whose command is a string, then a Service that does not parse', (t) => {
  const text = broken(broken(bookinfo, 'Deployment', 0, commandString), 'Service', 1, unparsable);
  const error = t.throws(() => transform(text));
  t.is(error.message, eagerError(text));
});

// The first Deployment is refused as it runs; the third, read only later, does not parse: reading
// every item first meets the parse error first, and so does the run that defers them.
test('a Deployment whose command is a string, then a Deployment that does not parse', (t) => {
  const text = broken(
    broken(bookinfo, 'Deployment', 0, commandString),
    'Deployment',
    2,
    unclosedQuote,
  );
  const error = t.throws(() => transform(text));
  t.is(error.message, eagerError(text));
  t.regex(error.message, /closing "quote/, "the parse error, not the first Deployment's");
});
