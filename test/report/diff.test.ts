/**
 * `--diff` (fn/report/diff.ts) diffs a stream document by document (issue #16: one diff of bookinfo
 * in 400 namespaces took minutes). It prints what the diff package's createTwoFilesPatch printed
 * for the whole text on every corpus chart and ResourceList fixture after a real transform, and on
 * bookinfo ×5. On random streams (`...` markers, CR LF, no final line feed) whose documents get
 * lines inserted, as a transform does, it changes as few lines as the whole diff (equal lines may
 * make it place them apart); with documents also added, removed or swapped it still applies.
 * On a dense stream the CLI's diff, applied strictly to the input (every hunk at its
 * stated line, no fuzz), gives back the CLI's output byte for byte.
 */
import test from 'ava';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { createTwoFilesPatch } from 'diff';
import { parseAllDocuments, stringify } from 'yaml';
import { documentsOf, itemsOf, unifiedDiff } from '../../fn/report/diff.ts';
import { transform } from '../../fn/engine/transform.ts';
import { corpus, corpusNames, fixturePath } from '../helpers/fixtures.ts';
import { applyGoldenDiff } from '../helpers/goldenDiff.ts';
import { runCli } from '../helpers/cli.ts';
import { denseStream } from '../../scripts/gen-dense.mjs';

/** What `--diff` printed before: one diff of the whole texts. */
function wholeDiff(before: string, after: string): string {
  if (before === after) return '';
  return createTwoFilesPatch('input', 'output', before, after, '', '', { context: 3 });
}

function resourceListFixtures(): string[] {
  const dir = fixturePath('krm');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => readFileSync(`${dir}/${f}`, 'utf8'))
    .filter((text) => /^kind: ResourceList/m.test(text));
}

test('a stream is cut before each document marker line, and only there', (t) => {
  t.deepEqual(documentsOf('a: 1\n---\nb: 2\n--- # Source: x\nc: |\n  ---\n---\r\nd\n...\n----\n'), [
    'a: 1\n',
    '---\nb: 2\n',
    '--- # Source: x\nc: |\n  ---\n',
    '---\r\nd\n',
    '...\n----\n',
  ]);
  t.deepEqual(documentsOf('---\na: 1\n---'), ['', '---\na: 1\n', '---']);
  t.deepEqual(documentsOf('a: 1'), ['a: 1']);
});

test('every corpus chart, ResourceList fixture and bookinfo ×5: the diff of the whole texts, byte for byte', (t) => {
  const inputs = [...corpusNames().map(corpus), ...resourceListFixtures(), denseStream(5)];
  let changed = 0;
  for (const input of inputs) {
    const { output } = transform(input);
    if (output !== input) changed++;
    t.is(unifiedDiff(input, output), wholeDiff(input, output));
  }
  t.true(changed >= 20, `${changed} of ${inputs.length} inputs changed`);
});

const line = fc.constantFrom(
  'a: 1',
  'b: 2',
  '  c: 3',
  '- x',
  '',
  '# comment',
  'spec:',
  '  replicas: 2',
  '---',
  '--- # Source: x',
  '...',
  'x: "---"',
);
const documentText = fc
  .array(line, { minLength: 0, maxLength: 8 })
  .map((lines) => lines.join('\n'));
/**
 * A stream and the same stream changed: with `edits` only, lines inserted into documents (what a
 * transform does); else also documents added, removed and swapped.
 */
const streams = (ops: ReadonlyArray<'edit' | 'add' | 'remove' | 'swap'>) =>
  fc
    .record({
      documents: fc.array(documentText, { minLength: 1, maxLength: 8 }),
      edits: fc.array(
        fc.record({
          at: fc.nat(),
          line: fc.nat(),
          what: fc.constantFrom(...ops),
          text: documentText,
        }),
        { maxLength: 5 },
      ),
      crlf: fc.boolean(),
      finalNewline: fc.boolean(),
    })
    .map(({ documents, edits, crlf, finalNewline }) => {
      const after = [...documents];
      for (const { at, line, what, text } of edits) {
        const i = at % (after.length + 1);
        const j = i % Math.max(after.length, 1);
        if (what === 'add' || after.length === 0) after.splice(i, 0, text);
        else if (what === 'remove') after.splice(j, 1);
        else if (what === 'swap') after.splice(j, 2, ...after.slice(j, j + 2).reverse());
        else {
          // A transform never writes a document marker: an inserted line is inside a document.
          const inserted = text.split('\n').filter((l) => !/^(?:---|\.\.\.)/.test(l));
          const lines = after[j]!.split('\n');
          lines.splice(line % (lines.length + 1), 0, ...inserted);
          after[j] = lines.join('\n');
        }
      }
      const join = (docs: string[]) => {
        const text = docs.join('\n---\n') + (finalNewline ? '\n' : '');
        return crlf ? text.replaceAll('\n', '\r\n') : text;
      };
      return [join(documents), join(after)] as const;
    });

/** How many lines a diff removes and adds. */
function counts(diff: string): [number, number] {
  return [(diff.match(/^-(?!--)/gm) ?? []).length, (diff.match(/^\+(?!\+\+)/gm) ?? []).length];
}

test('random streams with lines inserted into documents: as few lines as the whole diff, and it applies strictly', (t) => {
  // Equal lines (blank ones, a repeated `a: 1`) let two minimal diffs place an insertion apart;
  // the corpus test above holds real outputs to the same bytes.
  fc.assert(
    fc.property(streams(['edit']), ([before, after]) => {
      const diff = unifiedDiff(before, after);
      if (before === after) return diff === '';
      return (
        isDeepStrictEqual(counts(diff), counts(wholeDiff(before, after))) &&
        applyGoldenDiff(before, diff) === after
      );
    }),
    { numRuns: 3000, seed: 16 },
  );
  t.pass();
});

test('random streams with documents also added, removed and swapped: the diff applies strictly', (t) => {
  fc.assert(
    fc.property(streams(['edit', 'add', 'remove', 'swap']), ([before, after]) => {
      const diff = unifiedDiff(before, after);
      return before === after ? diff === '' : applyGoldenDiff(before, diff) === after;
    }),
    { numRuns: 3000, seed: 16 },
  );
  t.pass();
});

test('bookinfo ×100 through the CLI: the diff applied strictly to the input gives the output', (t) => {
  const input = denseStream(100);
  const output = runCli([], input);
  const diff = runCli(['--diff'], input);
  t.is(output.status, 0, output.stderr);
  t.is(diff.status, 0, diff.stderr);
  t.not(output.stdout, input);
  t.is(applyGoldenDiff(input, diff.stdout), output.stdout);
  // One hunk per edited Deployment at least: nothing was diffed as a whole block.
  t.true((diff.stdout.match(/^@@ /gm) ?? []).length >= 600);
});

test('a ResourceList is cut before each item and each top-level key after items', (t) => {
  const list =
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n' +
    '- kind: A\n  x: |\n    - not an item\n# a comment\n- kind: B\n' +
    'functionConfig:\n  data: {}\nresults:\n- message: m\n';
  t.deepEqual(itemsOf(list, list.indexOf('items:\n')), [
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n',
    '- kind: A\n  x: |\n    - not an item\n# a comment\n',
    '- kind: B\n',
    'functionConfig:\n  data: {}\n',
    'results:\n',
    '- message: m\n',
  ]);
});

test('bookinfo ×100 as a ResourceList through the CLI: diffed item by item, the diff applies strictly', (t) => {
  // 600 Deployments as items: diffed whole, this took 20 s (issue #34 item 4).
  const items = parseAllDocuments(denseStream(100)).map((doc) => doc.toJS() as unknown);
  const input = stringify(
    { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items },
    { lineWidth: 0 },
  );
  const output = runCli([], input);
  const diff = runCli(['--diff'], input);
  t.is(output.status, 0, output.stderr);
  t.is(diff.status, 0, diff.stderr);
  t.not(output.stdout, input);
  t.is(applyGoldenDiff(input, diff.stdout), output.stdout);
});

test('a part of 300,000 kept lines: the diff is made, not a stack overflow', (t) => {
  // A ConfigMap of 300,000 short lines kept as it was, after another kept document and before a
  // Deployment that changes: its lines were once appended to the kept run as one call's arguments
  // (a package of indented JSON schemas crashed so).
  const block = Array.from({ length: 300_000 }, (_, i) => `    line ${i}\n`).join('');
  const input =
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: small\n---\n' +
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  text: |\n${block}` +
    corpus('istio-sample-httpbin-httpbin.yaml').replace(/^(?!---)/, '---\n');
  const output = runCli([], input);
  const diff = runCli(['--diff'], input);
  t.is(diff.status, 0, diff.stderr);
  t.not(output.stdout, input);
  t.is(applyGoldenDiff(input, diff.stdout), output.stdout);
});
