/**
 * Issue #8: properties of a run over generated manifest streams, with the REAL registered
 * mutators (fn/mutators/registry.ts) under the default config and generated flag sets:
 *
 *   (1) no document is lost, reordered or duplicated;
 *   (2) documents no change record names are byte-identical;
 *   (3) the output parses, and every changed document validates against the Kubernetes schemas;
 *   (4) idempotency: a run over the output changes nothing (no records, identical text);
 *   (5) only fields a change record names differ (parsed trees compared), and each record's
 *       `after` is what the output holds;
 *   (6) the kind pre-scan (fast path) gives the same output as `parseAll: true`;
 *   (7) values written read back with the same types under full YAML 1.1 (booleans, octal,
 *       sexagesimal, timestamps), as PyYAML and go-yaml v2 read them;
 *   (8) a ResourceList (kpt, kustomize) keeps its items: same order, unchanged ones untouched,
 *       idempotent.
 *
 * Every property draws the same cases (one seed per run, printed below), so each stream is
 * transformed once and the result shared. Sizes and seeds: test/helpers/reliability-runs.ts.
 */
import test from 'ava';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments, parseDocument } from 'yaml';
import { formatPath } from '../../fn/core/fieldPath.ts';
import { transform } from '../../fn/engine/transform.ts';
import type { TransformResult } from '../../fn/engine/transform.ts';
import type { ChangeRecord } from '../../fn/core/records.ts';
import { MUTATORS } from '../../fn/mutators/registry.ts';
import { parseOptions } from '../../fn/yaml/options.ts';
import { propertyParameters } from '../helpers/reliability-runs.ts';
import {
  identity,
  isUnder,
  leafDiffs,
  objectBase,
  readData,
  readSegments,
  resolvePath,
  shownReading,
  valueAt,
  withoutNulls,
} from '../helpers/reliability-tree.ts';
import type { ConcretePath } from '../helpers/reliability-tree.ts';
import { validateKubernetesObject } from '../helpers/schema.ts';
import {
  checkRendering,
  flagsArb,
  readDocuments,
  renderDocument,
  renderStream,
  streamArb,
} from './arbitraries.ts';
import type { Obj, StreamModel } from './arbitraries.ts';
import { seededRandom } from '../helpers/reliability-runs.ts';

/**
 * Runs per property by default: about 10 s of CPU for the file (KUBE_GRACEFUL_PROPERTY_RUNS raises
 * it).
 */
const DEFAULT_RUNS = 50;

/** One seed for every property of this run, so they all see the same cases (and share the work). */
const SEED = process.env['KUBE_GRACEFUL_PROPERTY_SEED']
  ? Number(process.env['KUBE_GRACEFUL_PROPERTY_SEED'])
  : Math.floor(Math.random() * 0x7fffffff);
const parameters = <T>(runs = DEFAULT_RUNS) => ({ ...propertyParameters<T>(runs), seed: SEED });

test.before((t) => {
  t.log(
    `property seed ${SEED} (reproduce: KUBE_GRACEFUL_PROPERTY_SEED=${SEED}); mutators: ` +
      `${MUTATORS.map((m) => m.id).join(', ') || 'none registered'}`,
  );
});

interface Case {
  readonly text: string;
  readonly flags: Record<string, string> | undefined;
}

/** A stream and the flags of its run: the default config (no flags) or a generated flag set. */
const caseArb: fc.Arbitrary<Case> = fc
  .tuple(
    streamArb({ badSettings: true }),
    fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: flagsArb }),
  )
  .map(([model, flags]) => ({ text: renderStream(model).text, flags }));

const memo = new Map<string, TransformResult>();
function run(text: string, flags: Case['flags'], parseAll = false): TransformResult {
  const key = JSON.stringify([text, flags, parseAll]);
  let result = memo.get(key);
  if (!result) {
    result = transform(text, { ...(flags ? { flags } : {}), parseAll });
    memo.set(key, result);
  }
  return result;
}

/**
 * Documents of a stream as `yaml` reads them with YAML 1.1 (independent of the engine's splitter).
 */
const documentsOf = (text: string) => readDocuments(text, parseAllDocuments, parseOptions());

/** The records of one document, the last per field (a later mutator's value is what stays). */
function lastRecords(records: readonly ChangeRecord[]): ChangeRecord[] {
  const byField = new Map<string, ChangeRecord>();
  for (const record of records)
    byField.set(
      `${record.resource.kind}/${record.resource.name} ${formatPath(record.path)}`,
      record,
    );
  return [...byField.values()];
}

/** `N ms CPU` since `started`: what the property cost, for sizing the defaults. */
const cpuSince = (started: NodeJS.CpuUsage) =>
  `${Math.round(process.cpuUsage(started).user / 1000)} ms CPU`;

const changedDocuments = (result: TransformResult) =>
  new Set(result.changes.map((c) => c.document));

test('the generator renders exactly the data it generated, and that data is valid Kubernetes', (t) => {
  const started = process.cpuUsage();
  fc.assert(
    fc.property(streamArb({ badSettings: true }), (model: StreamModel) => {
      const rendered = renderStream(model);
      const problem = checkRendering(model, rendered, documentsOf);
      assert.equal(problem, undefined, problem);
      for (const doc of model.docs) {
        if (!('object' in doc)) continue;
        const objects =
          doc.object['kind'] === 'List' ? (doc.object['items'] as Obj[]) : [doc.object];
        for (const object of objects) {
          if (object['apiVersion'] === 'example.com/v1') continue;
          assert.ok(
            validateKubernetesObject(withoutNulls(object) as Obj),
            `no schema for ${identity(object)}`,
          );
        }
      }
    }),
    parameters(25),
  );
  t.log(cpuSince(started));
  t.pass();
});

test('(1) no document is lost, reordered or duplicated', (t) => {
  const started = process.cpuUsage();
  fc.assert(
    fc.property(caseArb, ({ text, flags }) => {
      const result = run(text, flags);
      const before = documentsOf(text);
      const after = documentsOf(result.output);
      const ids = (docs: unknown[]) =>
        docs.map((d) =>
          [
            identity(d),
            ...(((d as Obj)['kind'] === 'List' ? (d as Obj)['items'] : []) as unknown[]).map(
              identity,
            ),
          ].join(' + '),
        );
      assert.deepEqual(ids(after), ids(before));
      assert.equal(
        readSegments(result.output).segments.length,
        readSegments(text).segments.length,
        'same number of segments',
      );
    }),
    parameters(),
  );
  t.log(cpuSince(started));
  t.pass();
});

test('(2) documents not changed are byte-identical', (t) => {
  const started = process.cpuUsage();
  fc.assert(
    fc.property(caseArb, ({ text, flags }) => {
      const result = run(text, flags);
      if (result.changes.length === 0) {
        assert.ok(result.output === text, 'no change record: the output is the input');
        return;
      }
      const changed = changedDocuments(result);
      const before = readSegments(text);
      const after = readSegments(result.output);
      assert.equal(after.bom, before.bom, 'byte-order mark kept');
      before.segments.forEach((segment, i) => {
        if (!changed.has(i + 1))
          assert.ok(
            after.segments[i]?.text === segment.text,
            `document ${i + 1} has no change record but its bytes changed`,
          );
      });
    }),
    parameters(),
  );
  t.log(cpuSince(started));
  t.pass();
});

test('(3) the output parses and every changed document validates against the Kubernetes schemas', (t) => {
  const started = process.cpuUsage();
  fc.assert(
    fc.property(caseArb, ({ text, flags }) => {
      const result = run(text, flags);
      for (const doc of parseAllDocuments(result.output.replace(/^\uFEFF/, ''), {
        version: '1.1',
        uniqueKeys: true,
      })) {
        assert.deepEqual(
          doc.errors.map((e) => e.message),
          [],
          'the output is YAML',
        );
      }
      const segments = readSegments(result.output).segments;
      for (const document of changedDocuments(result)) {
        const data = segments[document - 1]?.data as Obj;
        const objects = data['kind'] === 'List' ? (data['items'] as Obj[]) : [data];
        for (const object of objects) {
          try {
            validateKubernetesObject(withoutNulls(object) as Obj);
          } catch (error) {
            throw new Error(
              `document ${document} (${identity(object)}) no longer validates: ` +
                (error as Error).message,
            );
          }
        }
      }
    }),
    parameters(),
  );
  t.log(cpuSince(started));
  t.pass();
});

test('(4) idempotency: a second run over the output changes nothing', (t) => {
  const started = process.cpuUsage();
  fc.assert(
    fc.property(caseArb, ({ text, flags }) => {
      const first = run(text, flags);
      const second = run(first.output, flags);
      assert.deepEqual(
        second.changes.map(
          (c) =>
            `${c.mutator} document ${c.document} ${c.resource.kind}/${c.resource.name} ` +
            `${formatPath(c.path)}: ${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)}`,
        ),
        [],
        'no change records on the second run',
      );
      assert.ok(second.output === first.output, 'identical text on the second run');
    }),
    parameters(),
  );
  t.log(cpuSince(started));
  t.pass();
});

test('(5) only fields named by change records differ, and each record holds in the output', (t) => {
  const started = process.cpuUsage();
  fc.assert(
    fc.property(caseArb, ({ text, flags }) => {
      const result = run(text, flags);
      const before = readSegments(text).segments;
      const after = readSegments(result.output).segments;
      for (const document of changedDocuments(result)) {
        const old = before[document - 1]?.data;
        const now = after[document - 1]?.data;
        const records = result.changes.filter((c) => c.document === document);
        const allowed: ConcretePath[] = [];
        const keyFields: ConcretePath[] = [];
        for (const record of records) {
          const { kind, name } = record.resource;
          const where = `document ${document} ${kind}/${name} ${formatPath(record.path)}`;
          const base = objectBase(now, record);
          assert.ok(base, `${where}: the record's object is not in the output`);
          const resolved = resolvePath(valueAt(now, base), record.path);
          assert.ok(resolved, `${where}: the record's field is not in the output`);
          allowed.push([...base, ...resolved.path]);
          keyFields.push(...resolved.keyFields.map((k) => [...base, ...k]));
        }
        for (const path of leafDiffs(old, now)) {
          const covered =
            allowed.some((prefix) => isUnder(path, prefix)) ||
            keyFields.some((k) => isDeepStrictEqual(k, path));
          assert.ok(
            covered,
            `document ${document}: ${JSON.stringify(path)} changed ` +
              `(${JSON.stringify(valueAt(old, path))} -> ` +
              `${JSON.stringify(valueAt(now, path))}) but no change record names it`,
          );
        }
        for (const record of lastRecords(records)) {
          const base = objectBase(now, record)!;
          const resolved = resolvePath(valueAt(now, base), record.path)!;
          assert.deepEqual(
            valueAt(now, [...base, ...resolved.path]),
            record.after,
            `document ${document} ${formatPath(record.path)}: the output holds the record's after`,
          );
        }
        const first = new Map<string, ChangeRecord>();
        for (const record of records)
          first.set(
            `${record.resource.name} ${formatPath(record.path)}`,
            first.get(`${record.resource.name} ${formatPath(record.path)}`) ?? record,
          );
        for (const record of first.values()) {
          const base = objectBase(old, record);
          const resolved = base && resolvePath(valueAt(old, base), record.path);
          const was = base && resolved ? valueAt(old, [...base, ...resolved.path]) : undefined;
          assert.deepEqual(
            record.before,
            was,
            `document ${document} ${formatPath(record.path)}: ` +
              `the record's before is what the input held`,
          );
        }
      }
    }),
    parameters(),
  );
  t.log(cpuSince(started));
  t.pass();
});

test('(6) the kind pre-scan gives the same output as parsing every document', (t) => {
  const started = process.cpuUsage();
  fc.assert(
    fc.property(caseArb, ({ text, flags }) => {
      const fast = run(text, flags);
      const full = run(text, flags, true);
      assert.ok(fast.output === full.output, 'same output text');
      assert.deepEqual(fast.changes, full.changes, 'same change records');
    }),
    parameters(),
  );
  t.log(cpuSince(started));
  t.pass();
});

test('(7) values kube-graceful writes read back with the same types under full YAML 1.1', (t) => {
  const started = process.cpuUsage();
  fc.assert(
    fc.property(caseArb, ({ text, flags }) => {
      const result = run(text, flags);
      const segments = readSegments(result.output).segments;
      for (const document of changedDocuments(result)) {
        const segment = segments[document - 1]!;
        // The full YAML 1.1 schema: timestamps, sexagesimal numbers, yes/no/on/off, 0644 octal.
        const strict = parseDocument(segment.text, {
          version: '1.1',
          intAsBigInt: false,
        }).toJS() as unknown;
        for (const record of lastRecords(result.changes.filter((c) => c.document === document))) {
          const base = objectBase(segment.data, record)!;
          const resolved = resolvePath(valueAt(segment.data, base), record.path)!;
          const read = valueAt(strict, [...base, ...resolved.path]);
          assert.deepEqual(
            read,
            record.after,
            `document ${document} ${formatPath(record.path)}: ` +
              `a YAML 1.1 reader gets ${shownReading(read)}, not ${JSON.stringify(record.after)}`,
          );
        }
      }
    }),
    parameters(),
  );
  t.log(cpuSince(started));
  t.pass();
});

/** The stream's documents as one ResourceList, block style, the way kpt and kustomize send them. */
function resourceListOf(model: StreamModel): { text: string; objects: Obj[] } {
  const random = seededRandom(model.styleSeed);
  const objects = model.docs.flatMap((d) => ('object' in d ? [d.object] : []));
  const items = objects.map((object) => {
    const lines = renderDocument(object, 'block', random).replace(/\n$/, '').split('\n');
    const indented = lines.map((line, i) => (i === 0 ? line : line === '' ? line : `  ${line}`));
    return `- ${indented.join('\n')}\n`;
  });
  const text = [
    'apiVersion: config.kubernetes.io/v1',
    'kind: ResourceList',
    `items:${items.length ? `\n${items.join('')}` : ' []\n'}functionConfig:`,
    '  apiVersion: v1',
    '  kind: ConfigMap',
    '  metadata: {name: function-input}',
    '  data: {}',
    '',
  ].join('\n');
  return { text, objects };
}

test('(8) a ResourceList keeps its items: order, unchanged items, idempotency', (t) => {
  const started = process.cpuUsage();
  fc.assert(
    fc.property(streamArb(), fc.oneof(fc.constant(undefined), flagsArb), (model, flags) => {
      const { text, objects } = resourceListOf(model);
      const first = transform(text, flags ? { flags } : {});
      assert.equal(first.mode, 'resourceList');
      const items = (readData(first.output) as { items?: Obj[] }).items ?? [];
      assert.deepEqual(items.map(identity), objects.map(identity), 'same items in the same order');
      const changed = changedDocuments(first);
      items.forEach((item, i) => {
        if (!changed.has(i + 1))
          assert.deepEqual(
            item,
            readData(JSON.stringify(objects[i])),
            `item ${i + 1} has no change record but changed`,
          );
      });
      const second = transform(first.output, flags ? { flags } : {});
      assert.deepEqual(
        second.changes.map((c) => `${c.document} ${formatPath(c.path)}`),
        [],
        'no change records on the second run',
      );
      assert.deepEqual(
        (readData(second.output) as { items?: Obj[] }).items ?? [],
        items,
        'items identical on the second run',
      );
    }),
    parameters(20),
  );
  t.log(cpuSince(started));
  t.pass();
});
