/**
 * Issue #15 item 4: a flow-style document (pretty-printed JSON as in kubernetes/examples, with or
 * without trailing commas) or flow collections in a block document are edited in place: the output
 * differs from the input only in the lines that hold the edits, reads as kube-graceful's output for
 * the same objects written as block YAML, and a second run changes nothing. Fixtures and where they
 * come from: test/fixtures/flow/README.md.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { diffLines } from 'diff';
import { parseAllDocuments, stringify } from 'yaml';
import { runCli } from '../helpers/cli.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import { ManifestDocument } from '../../fn/document/manifest.ts';

/**
 * Versions at which sidecar-mode auto gives apps a (pinned) native sidecar: Istio ≥ 1.27 with every
 * kubelet ≥ 1.33.
 */
const NATIVE_BY_DEFAULT = ['--istio-version', '1.28', '--kube-version', '1.33'];
import type { FieldPath } from '../../fn/core/fieldPath.ts';

const fixture = (name: string) => readFileSync(fixturePath('flow', name), 'utf8');

/** The documents of a stream as plain data, read as Kubernetes reads them (YAML 1.1). */
const data = (text: string) => parseAllDocuments(text, { version: '1.1' }).map((doc) => doc.toJS());

/** The same objects written as block YAML. */
const asBlock = (text: string) =>
  data(text)
    .map((object) => stringify(object, { version: '1.1' }))
    .join('---\n');

/** The input's lines the output dropped or changed, and the lines it added, hunk by hunk. */
function lineDiff(input: string, output: string) {
  const hunks: Array<{ removed: string[]; added: string[] }> = [];
  let open: { removed: string[]; added: string[] } | undefined;
  for (const part of diffLines(input, output)) {
    if (!part.added && !part.removed) {
      open = undefined;
      continue;
    }
    if (!open) hunks.push((open = { removed: [], added: [] }));
    const lines = part.value.replace(/\n$/, '').split('\n');
    (part.added ? open.added : open.removed).push(...lines);
  }
  return hunks;
}

/** Whether `after` is `before` with one piece of text inserted somewhere. */
function insertedInto(before: string, after: string): boolean {
  if (after.length <= before.length) return false;
  for (let k = 0; k <= before.length; k++)
    if (after.startsWith(before.slice(0, k)) && after.endsWith(before.slice(k))) return true;
  return false;
}

/** Whether two lines are the same map entry (indentation and key) with different values. */
function sameKey(before: string, after: string): boolean {
  const key = /^\s*(?:"(?:[^"\\]|\\.)*"|[^\s:"]+):/.exec(before)?.[0];
  return key !== undefined && after.startsWith(key);
}

const cases = [
  {
    name:
      'pretty-printed JSON (kubernetes/examples guestbook), ' +
      'injection label on the pod template',
    file: 'guestbook-deployment.json',
    json: true,
    // Each new entry on a line of its own, at its siblings' indentation, in their `"key":value`
    // style.
    layout: [
      /\n {12}\},\n {12}"annotations":\{\n {15}"sidecar.istio.io\/nativeSidecar":"true"\n {12}\}\n/,
      /\n {18}\],\n {18}"lifecycle":\{\n {21}"preStop":\{\n/,
    ],
  },
  {
    name: 'JSON-like with trailing commas, injected namespace in the stream',
    file: 'guestbook-trailing-commas.yaml',
    json: false,
    // …and the trailing comma stays the last thing before each closing bracket.
    layout: [
      new RegExp(
        String.raw`\n {12}\},\n {12}"annotations":\{` +
          String.raw`\n {15}"sidecar.istio.io\/nativeSidecar":"true",` +
          String.raw`\n {12}\},\n {9}\},\n`,
      ),
      /\n {18}\],\n {18}"lifecycle":\{\n[^]*\n {18}\},\n {15}\},\n/,
    ],
  },
  {
    name: 'flow metadata and containers in a block document',
    file: 'helloworld-flow-containers.yaml',
    json: false,
    // The container list stays on its line, the new entry in its plain YAML flow style.
    layout: [
      new RegExp(
        String.raw`\n {6}containers: \[\{name: helloworld, [^\n]*, ` +
          String.raw`ports: \[\{containerPort: 5000\}\], ` +
          String.raw`lifecycle: \{preStop: \{sleep: \{seconds: \d+\}\}\}\}\]\n`,
      ),
    ],
  },
] as const;

for (const c of cases) {
  test(`flow edits in place: ${c.name}`, (t) => {
    const input = fixture(c.file);
    const run = runCli(NATIVE_BY_DEFAULT, input);
    t.is(run.status, 0, run.stderr);
    t.not(run.stdout, input, 'the workload is patched');

    // Reads as kube-graceful's output for the same objects written as block YAML.
    const oracle = runCli(NATIVE_BY_DEFAULT, asBlock(input));
    t.is(oracle.status, 0, oracle.stderr);
    t.deepEqual(data(run.stdout), data(oracle.stdout));
    const deployment = data(run.stdout).at(-1) as {
      spec: {
        template: {
          metadata: { annotations: Record<string, string> };
          spec: { containers: Array<{ lifecycle?: unknown }> };
        };
      };
    };
    t.is(deployment.spec.template.metadata.annotations['sidecar.istio.io/nativeSidecar'], 'true');
    t.truthy(deployment.spec.template.spec.containers[0]!.lifecycle);

    // Two edits, two places: the pod template's annotations and the container's lifecycle. An
    // input line changes only by text inserted into it: the comma that now separates it from a new
    // entry on the next line, or the new entry itself in a collection written on one line.
    const hunks = lineDiff(input, run.stdout);
    t.is(hunks.length, 2, JSON.stringify(hunks, null, 1));
    for (const hunk of hunks) {
      for (const line of hunk.removed)
        t.true(
          hunk.added.some((added) => insertedInto(line, added)),
          `only an insertion into: ${line}`,
        );
    }
    t.regex(hunks[0]!.added.join('\n'), /annotations/);
    t.regex(hunks[1]!.added.join('\n'), /lifecycle/);
    // New lines are indented as their siblings are (no line at column 0 inside a document).
    for (const line of hunks.flatMap((hunk) => hunk.added)) t.regex(line, /^ +\S/);

    for (const layout of c.layout) t.regex(run.stdout, layout);

    // A JSON document stays JSON.
    if (c.json) t.notThrows(() => JSON.parse(run.stdout));

    // A second run changes nothing.
    const again = runCli(NATIVE_BY_DEFAULT, run.stdout);
    t.is(again.status, 0, again.stderr);
    t.is(again.stdout, run.stdout);
  });
}

/** The text after setting `value` at `path` in a one-document source. */
const edited = (source: string, path: FieldPath, value: unknown) => {
  const doc = new ManifestDocument(source, { document: 1, line: 1 });
  doc.set(path, value);
  return doc.text;
};

test('flow shapes: a one-line collection keeps its trailing comma last', (t) => {
  t.is(edited('{"a": {"b": 1,}}\n', ['a', 'c'], 2), '{"a": {"b": 1, "c": 2,}}\n');
  t.is(
    edited('x: {a: 1,}\n', ['x', 'b'], 'on'),
    'x: {a: 1, b: "on",}\n',
    'a YAML 1.1 word is quoted',
  );
});

test('flow shapes: a comment after the last entry stays on its line', (t) => {
  t.is(edited('{\n  "a": 1 # one\n}\n', ['b'], 2), '{\n  "a": 1, # one\n  "b": 2\n}\n');
  t.is(edited('{\n  "a": 1, # one\n}\n', ['b'], 2), '{\n  "a": 1, # one\n  "b": 2,\n}\n');
});

test('flow shapes: the closing bracket on the last entry’s line, CRLF, an empty collection', (t) => {
  t.is(
    edited('{\n  "a": {\n    "b": 1}}\n', ['a', 'c'], [1]),
    '{\n  "a": {\n    "b": 1,\n    "c": [\n      1\n    ]}}\n',
  );
  t.is(
    edited('{\r\n  "a": 1\r\n}\r\n', ['b'], { c: 'd' }),
    '{\r\n  "a": 1,\r\n  "b": {\r\n    "c": "d"\r\n  }\r\n}\r\n',
  );
  t.is(edited('{"a": {}, "b": 1}\n', ['a', 'k'], 'v'), '{"a": {"k": "v"}, "b": 1}\n');
});

test('flow shapes: a changed scalar keeps its quoting; a plain one that would end the entry is quoted', (t) => {
  t.is(edited('{"a": "x", "b": 1}\n', ['a'], 'y'), '{"a": "y", "b": 1}\n');
  t.is(edited('m: {a: x, b: 1}\n', ['m', 'a'], 'y, z'), 'm: {a: "y, z", b: 1}\n');
});

/**
 * Corpus charts written as JSON (pretty, 2 and 3 spaces, with trailing commas) and as flow YAML.
 */
const flowRenderings: Record<string, (object: unknown) => string> = {
  'pretty JSON': (object) => JSON.stringify(object, null, 2),
  'pretty JSON with trailing commas': (object) =>
    JSON.stringify(object, null, 3).replace(/([^,{[\s])\n(\s*[}\]])/g, '$1,\n$2'),
  'flow YAML': (object) => stringify(object, { collectionStyle: 'flow', version: '1.1' }).trimEnd(),
};

for (const chart of ['istio-gateway-1.30.3-nlb.yaml', 'istio-sample-kube-bookinfo.yaml']) {
  for (const [style, render] of Object.entries(flowRenderings)) {
    test(`flow edits in place: corpus ${chart} as ${style}`, (t) => {
      const objects = data(readFileSync(fixturePath('corpus', chart), 'utf8')).filter(
        (object) => object !== null,
      );
      const input = objects.map((object) => `${render(object)}\n`).join('---\n');
      const run = runCli(NATIVE_BY_DEFAULT, input);
      t.is(run.status, 0, run.stderr);
      t.not(run.stdout, input, 'workloads are patched');
      const oracle = runCli(
        NATIVE_BY_DEFAULT,
        objects.map((object) => stringify(object, { version: '1.1' })).join('---\n'),
      );
      t.deepEqual(data(run.stdout), data(oracle.stdout));
      for (const hunk of lineDiff(input, run.stdout)) {
        for (const line of hunk.removed)
          t.true(
            hunk.added.some((added) => insertedInto(line, added) || sameKey(line, added)),
            `only an insertion into, or a new value of: ${line}`,
          );
      }
      t.is(
        runCli(NATIVE_BY_DEFAULT, run.stdout).stdout,
        run.stdout,
        'a second run changes nothing',
      );
    });
  }
}
