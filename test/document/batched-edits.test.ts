/**
 * Issue #9: a document's edits are made together and checked with one parse. These tests pin that
 * the batch writes exactly what making the edits one at a time writes (reading `text` after each
 * `set` makes them one at a time), including the shapes the batch cannot splice at once and hands
 * back to the one-at-a-time path.
 */
import test from 'ava';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { ManifestDocument } from '../../fn/document/manifest.ts';
import type { FieldPath } from '../../fn/core/fieldPath.ts';
import { spliceAll } from '../../fn/document/splice.ts';
import { parseOptions } from '../../fn/yaml/options.ts';
import { prescanKind } from '../../fn/document/prescan.ts';
import { splitStream } from '../../fn/stream/split.ts';
import { corpus } from '../helpers/fixtures.ts';

type Edit = readonly [FieldPath, unknown];

const place = { document: 1, line: 1 };

function batched(source: string, edits: readonly Edit[]): string {
  const doc = new ManifestDocument(source, place);
  for (const [path, value] of edits) doc.set(path, value);
  return doc.text;
}

function oneAtATime(source: string, edits: readonly Edit[]): string {
  const doc = new ManifestDocument(source, place);
  for (const [path, value] of edits) {
    doc.set(path, value);
    void doc.text; // reading the text makes the pending edit
  }
  return doc.text;
}

const container = (...rest: FieldPath) =>
  ['spec', 'template', 'spec', 'containers', { key: 'name', equals: 'app' }, ...rest] as FieldPath;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the web tier
spec:
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: app
          image: web:1
          env:
            - name: A
              value: "1"
      terminationGracePeriodSeconds: 30
`;

/** `spliced`: the batch splices all edits on one parse (else it hands them to one at a time). */
const CASES: ReadonlyArray<{ name: string; source: string; edits: Edit[]; spliced: boolean }> = [
  {
    name: 'two items appended to one list, a scalar replaced, a key added',
    source: DEPLOYMENT,
    edits: [
      [container('env', { key: 'name', equals: 'B' }, 'value'), '2'],
      [container('env', { key: 'name', equals: 'C' }, 'value'), 'true'],
      [['spec', 'template', 'spec', 'terminationGracePeriodSeconds'], 45],
      [container('lifecycle'), { preStop: { sleep: { seconds: 5 } } }],
    ],
    spliced: true,
  },
  {
    name: 'two keys into one missing map (each edit alone would create it: one at a time instead)',
    source: DEPLOYMENT,
    edits: [
      [['spec', 'template', 'metadata', 'annotations', 'a.example/one'], 'x'],
      [['spec', 'template', 'metadata', 'annotations', 'a.example/two'], 'y'],
    ],
    spliced: false,
  },
  {
    name: 'a null value that two edits fill (overlapping replacements: one at a time instead)',
    source: DEPLOYMENT.replace(/ {10}env:\n(?: {12}.*\n)+/, '          env:\n'),
    edits: [
      [container('env', { key: 'name', equals: 'B' }, 'value'), '2'],
      [container('env', { key: 'name', equals: 'C' }, 'value'), '3'],
    ],
    spliced: false,
  },
  {
    name: 'a key added after a trailing comment, and a value in the line before it',
    source: 'metadata:\n  name: web\n  namespace: default # where it runs\nspec: {}\n',
    edits: [
      [['metadata', 'name'], 'web2'],
      [['metadata', 'labels'], { app: 'web' }],
    ],
    spliced: true,
  },
  {
    name: 'a flow (JSON) map and a block map in one document',
    source: 'metadata: {"name": "web", "labels": {"app": "web"}}\nspec:\n  replicas: 1\n',
    edits: [
      [['metadata', 'labels', 'tier'], 'front'],
      [['spec', 'paused'], false],
    ],
    spliced: true,
  },
  {
    name: 'CRLF line ends',
    source: DEPLOYMENT.replace(/\n/g, '\r\n'),
    edits: [
      [container('env', { key: 'name', equals: 'B' }, 'value'), '2'],
      [['spec', 'template', 'spec', 'terminationGracePeriodSeconds'], 45],
    ],
    spliced: true,
  },
];

for (const c of CASES) {
  test(`batched edits write what one-at-a-time edits write: ${c.name}`, (t) => {
    const text = batched(c.source, c.edits);
    t.is(text, oneAtATime(c.source, c.edits));
    t.not(text, c.source);
    // Whether the one-parse path wrote it: the splice of all edits is that very text.
    const edits = c.edits.map(([path, value]) => ({ path, value }));
    t.is(spliceAll(c.source, parseDocument(c.source, parseOptions()), edits) === text, c.spliced);
  });
}

test('data shows pending edits at once; the text shows them when read', (t) => {
  const doc = new ManifestDocument(DEPLOYMENT, place);
  doc.set(['spec', 'template', 'spec', 'terminationGracePeriodSeconds'], 45);
  t.true(doc.changed);
  t.is(
    (doc.data as { spec: { template: { spec: { terminationGracePeriodSeconds: number } } } }).spec
      .template.spec.terminationGracePeriodSeconds,
    45,
  );
  t.regex(doc.text, /terminationGracePeriodSeconds: 45\n/);
  t.is(
    doc.document.getIn(['spec', 'template', 'spec', 'terminationGracePeriodSeconds']),
    45,
    'the syntax tree is the edited text',
  );
});

test('an edit through an alias gives that place its own copy; the anchor is left as it was (issue #15)', (t) => {
  const doc = new ManifestDocument('base: &b\n  x: 1\nspec: *b\n', place);
  doc.set(['spec', 'y'], 2);
  t.is(doc.text, 'base: &b\n  x: 1\nspec:\n  x: 1\n  "y": 2\n');
  t.deepEqual(doc.data, { base: { x: 1 }, spec: { x: 1, y: 2 } });
});

test('property: any edits of a corpus gateway, batched, write what one at a time writes', (t) => {
  const source = splitStream(corpus('istio-gateway-1.30.3-nlb.yaml')).segments.find(
    (s) => prescanKind(s.text) === 'Deployment',
  )!.text;
  const proxy = (...rest: FieldPath) =>
    [
      'spec',
      'template',
      'spec',
      'containers',
      { key: 'name', equals: 'istio-proxy' },
      ...rest,
    ] as FieldPath;
  const editArb: fc.Arbitrary<Edit> = fc.oneof(
    fc
      .tuple(
        fc.constantFrom(
          'MINIMUM_DRAIN_DURATION',
          'EXIT_ON_ZERO_ACTIVE_CONNECTIONS',
          'ISTIO_META_X',
        ),
        fc.constantFrom('5s', 'true', 'on', '1:30'),
      )
      .map(([name, value]): Edit => [proxy('env', { key: 'name', equals: name }, 'value'), value]),
    fc
      .integer({ min: 0, max: 600 })
      .map((n): Edit => [['spec', 'template', 'spec', 'terminationGracePeriodSeconds'], n]),
    fc
      .constantFrom('proxy.istio.io/config', 'kube-graceful.dev/note')
      .map((key): Edit => [
        ['spec', 'template', 'metadata', 'annotations', key],
        'drainDuration: 45s\n',
      ]),
    fc
      .integer({ min: 1, max: 90 })
      .map((s): Edit => [proxy('lifecycle'), { preStop: { sleep: { seconds: s } } }]),
    fc.constantFrom('web', 'edge').map((v): Edit => [['metadata', 'labels', 'tier'], v]),
  );
  fc.assert(
    fc.property(
      fc.array(editArb, { minLength: 1, maxLength: 6 }),
      (edits) => batched(source, edits) === oneAtATime(source, edits),
    ),
    { numRuns: 150 },
  );
  t.pass();
});
