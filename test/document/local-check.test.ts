/**
 * Issue #9: edits are checked by re-parsing only the entries that hold them (localCheck.ts). The
 * check must never accept text that a full parse reads differently. These properties try to make
 * it do so: real edits of every corpus workload, and random text put in place of an entry or list
 * item of documents full of the shapes that could leak (indentless lists, block scalars, comments
 * at column 0, flow collections, markers, tabs, anchors, merge keys). Whenever the local check
 * says yes, a full parse must give exactly the data it vouched for.
 */
import test from 'ava';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import type { Document } from 'yaml';
import { toData } from '../../fn/document/manifest.ts';
import { checkEditsLocally, regionsOf } from '../../fn/document/localCheck.ts';
import type { DataPath, Region } from '../../fn/document/localCheck.ts';
import type { FieldPath } from '../../fn/core/fieldPath.ts';
import { dataPathOf, getAt, setAt } from '../../fn/core/fieldPath.ts';
import { applySplices, planSplices } from '../../fn/document/splice.ts';
import { prescanKind } from '../../fn/document/prescan.ts';
import { splitStream } from '../../fn/stream/split.ts';
import { parseOptions } from '../../fn/yaml/options.ts';
import { corpus, corpusNames } from '../helpers/fixtures.ts';
import { propertyParameters } from '../helpers/reliability-runs.ts';

/** The data a full parse gives, or 'error'. */
function fullRead(text: string): unknown {
  const doc = parseDocument(text, parseOptions());
  if (doc.errors.length > 0) return 'error';
  try {
    return toData(doc);
  } catch {
    return 'error';
  }
}

const parse = (text: string): Document => parseDocument(text, parseOptions());

// ---------------------------------------------------------------------------------------------
// Real edits of real workloads
// ---------------------------------------------------------------------------------------------

const WORKLOAD_KINDS = new Set(['Deployment', 'DaemonSet', 'StatefulSet', 'Job', 'CronJob']);
const WORKLOADS = corpusNames().flatMap((name) =>
  splitStream(corpus(name))
    .segments.filter((s) => WORKLOAD_KINDS.has(prescanKind(s.text) ?? ''))
    .map((s) => ({ name: `${name} document ${s.index + 1}`, text: s.text })),
);

/** Edits as the mutators make them, on the first container of the pod template (or the Job's). */
function editArb(text: string): fc.Arbitrary<Array<{ path: FieldPath; value: unknown }>> {
  const data = fullRead(text) as {
    kind?: string;
    spec?: {
      template?: { spec?: { containers?: Array<{ name?: string }> } };
      jobTemplate?: { spec?: { template?: { spec?: { containers?: Array<{ name?: string }> } } } };
    };
  };
  const template: FieldPath =
    data.kind === 'CronJob' ? ['spec', 'jobTemplate', 'spec', 'template'] : ['spec', 'template'];
  const pod =
    data.kind === 'CronJob'
      ? data.spec?.jobTemplate?.spec?.template?.spec
      : data.spec?.template?.spec;
  const names = (pod?.containers ?? []).map((c) => String(c.name));
  const container = (name: string, ...rest: FieldPath): FieldPath => [
    ...template,
    'spec',
    'containers',
    { key: 'name', equals: name },
    ...rest,
  ];
  const one = fc.oneof(
    fc.constantFrom(...(names.length ? names : ['app'])).chain((name) =>
      fc.oneof(
        fc.integer({ min: 1, max: 90 }).map((s) => ({
          path: container(name, 'lifecycle', 'preStop'),
          value: { sleep: { seconds: s } },
        })),
        fc.constantFrom('MINIMUM_DRAIN_DURATION', 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS').map((env) => ({
          path: container(name, 'env', { key: 'name', equals: env }, 'value'),
          value: '5s',
        })),
        fc
          .constantFrom(['sh', '-c', 'exec app'], ['/bin/true'])
          .map((command) => ({ path: container(name, 'command'), value: command })),
      ),
    ),
    fc.integer({ min: 0, max: 600 }).map((n) => ({
      path: [...template, 'spec', 'terminationGracePeriodSeconds'] as FieldPath,
      value: n,
    })),
    fc.constantFrom('proxy.istio.io/config', 'kube-graceful.dev/note').map((key) => ({
      path: [...template, 'metadata', 'annotations', key] as FieldPath,
      value: 'drainDuration: 45s\n',
    })),
    fc
      .constantFrom('yes', '1:30', 'a "quoted" # text')
      .map((v) => ({ path: ['metadata', 'labels', 'tier'] as FieldPath, value: v })),
  );
  return fc.array(one, { minLength: 1, maxLength: 5 });
}

test('real edits of every corpus workload: when the local check accepts, a full parse agrees', (t) => {
  let accepted = 0;
  let tried = 0;
  for (const workload of WORKLOADS) {
    const doc = parse(workload.text);
    const data = toData(doc);
    fc.assert(
      fc.property(editArb(workload.text), (sets) => {
        const edits = planSplices(workload.text, doc, sets);
        if (!edits) return true;
        const spliced = applySplices(workload.text, edits);
        const expected = sets.reduce<unknown>((d, s) => setAt(d, s.path, s.value), data);
        const setPaths = sets.map((set) => dataPathOf(expected, set.path)!);
        tried++;
        const splice = { source: workload.text, edits, spliced };
        if (!checkEditsLocally(doc, splice, { expected, setPaths })) return true;
        accepted++;
        if (!isDeepStrictEqual(fullRead(spliced), expected)) {
          throw new Error(
            `${workload.name}: the local check accepted ${JSON.stringify(sets)} but a full ` +
              `parse reads otherwise`,
          );
        }
        return true;
      }),
      { numRuns: 12, seed: 9 },
    );
  }
  t.log(`${WORKLOADS.length} workloads, ${accepted} of ${tried} edit sets checked locally`);
  t.true(WORKLOADS.length > 20);
  t.true(
    accepted > tried * 0.6,
    `the local check should take most real edits (took ${accepted} of ${tried})`,
  );
});

// ---------------------------------------------------------------------------------------------
// Random text in place of an entry or item
// ---------------------------------------------------------------------------------------------

/** Documents full of the shapes that could make a region read differently alone. */
const DOCUMENTS = [
  `apiVersion: v1
kind: Thing
metadata:
  name: a # comment
  labels:
    x: "1"
# a comment at column 0
spec:
  list:
  - a
  - b: 1
    c: 2
  indented:
    - name: x
      value: |
        line one
        line two
    - name: y
      keep: |+
        kept

    - name: z
  text: >-
    folded
    text
  flow: {a: 1, b: [1, 2]}
  empty:
  last: end
`,
  `kind: List
items:
- kind: Pod
  spec:
    containers:
    - name: app
      args:
      - --x
      - |
        script
      env:
      - {name: A, value: "1"}
    volumes: []
- kind: Pod
  metadata: {name: b}
status: {}
`,
  `a:
  b:
    c: 1
    d:
      - 1
      -
        e: 2
  f: "multi
    line"
g: 'x'
...
`,
];

/**
 * Two real workloads as well: the corpus NLB gateway and an argo-cd Deployment (env lists, probes).
 */
const REAL = [
  WORKLOADS.find((w) => w.name.startsWith('istio-gateway-1.30.3-nlb'))!.text,
  WORKLOADS.find((w) => w.name.startsWith('argo-cd'))!.text,
];

/** Lines the random text is made of (each gets a random indentation). */
const LINES = [
  'k: v',
  'k:',
  'key: value # c',
  '- x',
  '- k: v',
  '-',
  '- - y',
  'k: |',
  'k: |+',
  'k: >-',
  'text',
  '# comment',
  '',
  '---',
  '...',
  'k: "open',
  'close"',
  'k: [1,',
  '2]',
  'k: {a: 1}',
  'k: &anchor 1',
  'k: *anchor',
  '? k',
  ': v',
  '\tk: v',
  '<<: {m: 1}',
  '!!str k: v',
  'name: x',
  'value: "1"',
  'c: 3',
  'list:',
  'a: 1',
  'k: - x',
  'k: v: w',
  '%YAML 1.1',
];

const lineArb = fc.tuple(fc.constantFrom(...LINES), fc.integer({ min: -4, max: 8 }));

test('random text in place of an entry or item: when the local check accepts, a full parse agrees', (t) => {
  let accepted = 0;
  let runs = 0;
  const cases = [...DOCUMENTS, ...REAL].map((source) => {
    const doc = parse(source);
    return { source, doc, data: toData(doc), regions: regionsOf(source, doc) };
  });
  fc.assert(
    fc.property(
      // Which document, and which of its regions.
      fc.tuple(fc.integer({ min: 0, max: cases.length - 1 }), fc.nat()),
      fc.array(lineArb, { maxLength: 6 }),
      fc.boolean(),
      fc.boolean(),
      ([which, pick], lines, keepFirstLine, trailingNewline) => {
        const { source, doc, data, regions } = cases[which]!;
        const region = regions[pick % regions.length]!;
        const old = source.slice(region.start, region.end);
        const firstLine = old.split('\n')[0]!;
        const body = lines
          .map(([line, shift]) => ' '.repeat(Math.max(0, region.column + shift)) + line)
          .join('\n');
        const text = (keepFirstLine ? `${firstLine}\n` : '') + body + (trailingNewline ? '\n' : '');
        const edit = { start: region.start, end: region.end, text };
        const spliced = source.slice(0, region.start) + text + source.slice(region.end);
        const claim = claimFor(region, text, data);
        if (claim === undefined) return true;
        runs++;
        if (!checkEditsLocally(doc, { source, edits: [edit], spliced }, claim)) return true;
        accepted++;
        return isDeepStrictEqual(fullRead(spliced), claim.expected);
      },
    ),
    propertyParameters(3000),
  );
  t.log(
    `${accepted} of ${runs} random regions accepted by the local check, ` +
      `each confirmed by a full parse`,
  );
  t.true(accepted > 50, 'the property must exercise acceptance');
});

test('random text inserted anywhere in an entry or item: when the local check accepts, a full parse agrees', (t) => {
  let accepted = 0;
  const cases = [...DOCUMENTS, ...REAL].map((source) => {
    const doc = parse(source);
    return { source, doc, data: toData(doc), regions: regionsOf(source, doc) };
  });
  fc.assert(
    fc.property(
      // Which document, which of its regions, and where in the region.
      fc.tuple(fc.integer({ min: 0, max: cases.length - 1 }), fc.nat(), fc.nat()),
      fc.array(lineArb, { minLength: 1, maxLength: 4 }),
      fc.boolean(),
      fc.boolean(),
      ([which, pick, at], lines, leadingNewline, trailingNewline) => {
        const { source, doc, data, regions } = cases[which]!;
        const region = regions[pick % regions.length]!;
        // Anywhere after the region's first character, up to its end: mid-line too.
        const offset = region.start + 1 + (at % (region.end - region.start));
        const body = lines
          .map(([line, shift]) => ' '.repeat(Math.max(0, region.column + shift)) + line)
          .join('\n');
        const text = (leadingNewline ? '\n' : '') + body + (trailingNewline ? '\n' : '');
        const edit = { start: offset, end: offset, text };
        const spliced = source.slice(0, offset) + text + source.slice(offset);
        const claim = claimFor(region, spliced.slice(region.start, region.end + text.length), data);
        if (claim === undefined) return true;
        if (!checkEditsLocally(doc, { source, edits: [edit], spliced }, claim)) return true;
        accepted++;
        return isDeepStrictEqual(fullRead(spliced), claim.expected);
      },
    ),
    propertyParameters(3000),
  );
  t.log(
    `${accepted} random insertions accepted by the local check, each confirmed by a full parse`,
  );
  t.true(accepted > 20, 'the property must exercise acceptance');
});

/**
 * What the region's new text reads as alone, put in place of the region in the old data: the data
 * the local check would vouch for (its entries or items, added ones too), and the paths it changes.
 */
function claimFor(
  region: Region,
  text: string,
  data: unknown,
): { expected: unknown; setPaths: DataPath[] } | undefined {
  const alone = parseDocument(' '.repeat(region.column) + text, parseOptions());
  if (alone.errors.length > 0) return undefined;
  let read: unknown;
  try {
    read = alone.toJS();
  } catch {
    return undefined;
  }
  const collection = getAt(data, region.collectionPath);
  if (region.kind === 'entry') {
    if (read === null || typeof read !== 'object' || Array.isArray(read)) return undefined;
    const map = { ...(collection as Record<string, unknown>) };
    delete map[region.key!];
    Object.assign(map, read);
    return {
      expected: setAt(data, region.collectionPath, map),
      setPaths: Object.keys(read).map((key) => [...region.collectionPath, key]),
    };
  }
  if (!Array.isArray(read) || read.length === 0) return undefined;
  const list = [...(collection as unknown[])];
  list.splice(region.index!, 1, ...read);
  return {
    expected: setAt(data, region.collectionPath, list),
    setPaths: read.map((_, i) => [...region.collectionPath, region.index! + i]),
  };
}

test('the check refuses what it cannot vouch for: anchors, merge keys, directives, flow roots, lines that leave the region', (t) => {
  const check = (source: string, path: FieldPath, value: unknown): boolean => {
    const doc = parse(source);
    const edits = planSplices(source, doc, [{ path, value }])!;
    t.truthy(edits, source);
    const expected = setAt(toData(doc), path, value);
    const splice = { source, edits, spliced: applySplices(source, edits) };
    return checkEditsLocally(doc, splice, { expected, setPaths: [dataPathOf(expected, path)!] });
  };
  t.true(check('a:\n  b: 1\nc: 2\n', ['a', 'b'], 5), 'a plain edit is taken');
  t.false(check('a: &x\n  b: 1\nc: *x\n', ['a', 'b'], 5), 'anchors and aliases');
  t.false(check('base: {q: 1}\na:\n  <<: {m: 1}\n  b: 1\n', ['a', 'b'], 5), 'merge keys');
  t.false(check('%YAML 1.1\n---\na:\n  b: 1\n', ['a', 'b'], 5), 'directives');
  t.false(check('{"a": {"b": 1}}\n', ['a', 'b'], 5), 'a flow root');
});
