/**
 * The stream goldens store a diff instead of the whole output (test/helpers/goldenDiff.ts); it is
 * only as strict as a whole copy when applying it gives back the output byte for byte, whatever the
 * line endings, the final newline or a BOM.
 */
import test from 'ava';
import fc from 'fast-check';
import { applyGoldenDiff, goldenDiff } from './goldenDiff.ts';
import { propertyParameters } from './reliability-runs.ts';

const edges: Array<[string, string, string]> = [
  ['CRLF, a line added', 'a: 1\r\nb: 2\r\n', 'a: 1\r\nb: 2\r\nc: 3\r\n'],
  ['CRLF in, LF out on one line', 'a: 1\r\nb: 2\r\n', 'a: 1\nb: 2\r\n'],
  ['LF in, CRLF out on one line', 'a: 1\nb: 2\n', 'a: 1\nb: 2\r\n'],
  ['no final newline, kept', 'a: 1\nb: 2', 'a: 1\nb: 3'],
  ['no final newline, added', 'a: 1\nb: 2', 'a: 1\nb: 2\n'],
  ['final newline, removed', 'a: 1\nb: 2\n', 'a: 1\nb: 2'],
  ['a lone CR at the end', 'a: 1\r', 'a: 1\n'],
  ['BOM kept', '\uFEFFa: 1\nb: 2\n', '\uFEFFa: 1\nb: 3\n'],
  ['BOM removed', '\uFEFFa: 1\n', 'a: 1\n'],
  ['empty input', '', 'a: 1\n'],
  ['empty output', 'a: 1\n', ''],
  ['nothing changes', 'a: 1\n---\nb: 2\n', 'a: 1\n---\nb: 2\n'],
  [
    'lines that look like diff syntax',
    '--- a\n+++ b\n@@ -1 +1 @@\n\\ x\n',
    '--- a\n+++ c\n@@ -1 +1 @@\n\\ y\n',
  ],
];

for (const [name, input, output] of edges) {
  test(`a golden diff gives back the output byte for byte: ${name}`, (t) => {
    t.is(applyGoldenDiff(input, goldenDiff('input.yaml', input, output)), output);
  });
}

test('a golden diff does not apply to an input that changed', (t) => {
  const diff = goldenDiff('input.yaml', 'a: 1\nb: 2\n', 'a: 1\nb: 3\n');
  t.is(applyGoldenDiff('a: 1\nb: 9\n', diff), undefined);
  t.is(applyGoldenDiff('a: 1\r\nb: 2\r\n', diff), undefined, 'no line-ending conversion');
  t.is(
    applyGoldenDiff('# added\na: 1\nb: 2\n', diff),
    undefined,
    'no hunk moved to where its lines fit',
  );
});

test('a hunk header names the resource its first change is in, also inside a List', (t) => {
  const input =
    'kind: Service\n' +
    'metadata:\n' +
    '  name: web\n' +
    '---\n' +
    'kind: List\n' +
    'items:\n' +
    '- kind: Deployment\n' +
    '  metadata:\n' +
    '    name: app\n' +
    '  spec:\n' +
    '    replicas: 1\n';
  const diff = goldenDiff(
    'input.yaml',
    input,
    input.replace('web\n', 'www\n').replace('replicas: 1', 'replicas: 2'),
  );
  t.deepEqual(
    diff.split('\n').filter((l) => l.startsWith('@@')),
    ['@@ -1,6 +1,6 @@ Service/web', '@@ -8,4 +8,4 @@ List Deployment/app'],
  );
});

test('any text: applying the golden diff gives back the output byte for byte', (t) => {
  // Lines from a small alphabet with CR, LF and BOM, so that equal lines, endings and edges recur.
  const text = fc.string({
    unit: fc.constantFrom('a', 'b', ' ', '-', '+', '\r', '\n', '\uFEFF'),
    maxLength: 60,
  });
  fc.assert(
    fc.property(
      text,
      text,
      (input, output) => applyGoldenDiff(input, goldenDiff('input.yaml', input, output)) === output,
    ),
    propertyParameters(300),
  );
  t.pass();
});
