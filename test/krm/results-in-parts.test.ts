/**
 * Issue #34 item 7: a long list of our results is written as one edit per result
 * (fn/krm/resultsInParts.ts), each printed when the output reads it. The text must be the one the
 * single edit for all of them makes: a new `results` field as splice.ts writes any field, or
 * results appended after others as yaml prints the list at the list's column, in either list
 * style, with blank lines and kept line breaks in the results.
 */
import test from 'ava';
import { isDeepStrictEqual } from 'node:util';
import { parseDocument, stringify } from 'yaml';
import { appendResultsEdits } from '../../fn/krm/appendResults.ts';
import { applyEdits } from '../../fn/krm/resourceList.ts';
import type { Frame } from '../../fn/krm/appendResults.ts';
import { applySplices, planSplices } from '../../fn/document/splice.ts';
import { parseOptions, stringifyOptions } from '../../fn/yaml/options.ts';

const frameOf = (text: string): Frame => ({
  text,
  doc: parseDocument(text, parseOptions()),
  toListOffset: (offset) => offset,
});

const awkward = ['x\n\ny\n', 'p\n\n', 'one line', 'G ≥ S + R → 30 s', '\nleading', 'a: b'];

/** 100 results like ours: multi-line messages, a nested list, an object, awkward strings. */
const ours = Array.from({ length: 100 }, (_, i) => ({
  message: `change ${i}\n${awkward[i % awkward.length]}`,
  severity: 'info',
  resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: `app-${i}` },
  field: {
    path: 'spec.template.spec.containers[name=app].args',
    proposedValue: i % 2 ? ['--x', awkward[(i + 1) % awkward.length]] : { sleep: { seconds: 5 } },
  },
  tags: { mutator: 'app-graceful', function: 'kube-graceful' },
}));

const ITEM = 'apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n';
const HEAD = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n';
const frames = {
  'lists not indented under keys': `${HEAD}- ${ITEM}  data:\n    l:\n    - x\n`,
  'lists indented under keys': `${HEAD}  - ${ITEM.replace(/\n {2}/g, '\n    ')}`,
};

for (const [style, text] of Object.entries(frames)) {
  test(`a new results field, ${style}: the text of the one edit for all`, (t) => {
    const frame = frameOf(text);
    const edits = appendResultsEdits(frame, [], ours);
    t.truthy(edits);
    t.true(edits!.length > ours.length, 'one edit per result');
    const whole = planSplices(text, frame.doc, [{ path: ['results'], value: ours }]);
    t.is(applyEdits(text, edits!), applySplices(text, whole!));
    const read = parseDocument(applyEdits(text, edits!), parseOptions()).toJS() as {
      results: unknown;
    };
    t.true(isDeepStrictEqual(read.results, ours));
  });
}

for (const column of [0, 2]) {
  test(`after a foreign result at column ${column}: the list as yaml prints it there`, (t) => {
    const pad = ' '.repeat(column);
    const foreign = `${pad}- message: from another function\n${pad}  severity: warning\n`;
    const text = `${frames['lists not indented under keys']}results:\n${foreign}`;
    const edits = appendResultsEdits(
      frameOf(text),
      [{ message: 'from another function', severity: 'warning' }],
      ours,
    );
    t.truthy(edits);
    t.true(edits!.length > ours.length, 'one edit per result');
    const printed = stringify(ours, stringifyOptions(false))
      .replace(/\n$/, '')
      .replace(/\n/g, `\n${pad}`);
    t.is(applyEdits(text, edits!), `${text}${pad}${printed}\n`);
  });
}

test('a short list is one edit', (t) => {
  const text = frames['lists not indented under keys'];
  t.is(appendResultsEdits(frameOf(text), [], ours.slice(0, 10))?.length, 1);
});
