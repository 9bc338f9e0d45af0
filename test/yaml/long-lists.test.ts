/**
 * Issue #34 item 7: a long list (the KRM results of a big ResourceList) is printed one item at a
 * time (fn/yaml/longLists.ts), so that yaml never holds a tree of all of them. The text must be
 * the one yaml prints for the whole value, for any data: blank lines, block scalars that keep
 * their final line breaks, nested lists in either style, characters beyond Latin-1.
 */
import test from 'ava';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { blockText } from '../../fn/document/splice.ts';
import { stringifyOptions } from '../../fn/yaml/options.ts';
import { propertyParameters } from '../helpers/reliability-runs.ts';

const whole = (value: unknown, indentSeq: boolean) =>
  stringify(value, stringifyOptions(indentSeq)).replace(/\n$/, '');

/** Strings yaml prints as block scalars with blank lines, kept breaks, indentation indicators. */
const awkward = [
  'x\n\ny\n',
  'p\n\n',
  'p\n\n\n',
  '\nleading break',
  '  leading spaces\nsecond',
  'trailing spaces  \nnext',
  'a: b',
  '- x',
  '# not a comment',
  '',
  ' ',
  'G ≥ S + R → 30 s',
  "it's",
  '"quoted"',
  'tab\there',
  'yes',
  '0644',
];

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom<unknown>(...awkward),
  fc.record({
    message: fc.constantFrom(...awkward),
    field: fc.record({
      path: fc.constant('spec.template.spec.containers[name=app].args'),
      proposedValue: fc.array(fc.constantFrom(...awkward), { maxLength: 3 }),
    }),
  }),
);

const longList = fc.array(value, { minLength: 64, maxLength: 80 });

test('a long list, at the top or under a key: the text yaml prints for the whole', (t) => {
  fc.assert(
    fc.property(
      longList,
      fc.boolean(),
      fc.constantFrom('results', 'items', 'a b'),
      (list, seq, key) => [list, { [key]: list }].every((v) => blockText(v, seq) === whole(v, seq)),
    ),
    propertyParameters(60),
  );
  t.pass();
});

test('every awkward string in a long list, in both list styles', (t) => {
  const list = Array.from({ length: 70 }, (_, i) => ({
    message: awkward[i % awkward.length],
    nested: [awkward[(i + 1) % awkward.length], [awkward[(i + 2) % awkward.length]]],
  }));
  for (const indentSeq of [true, false])
    for (const v of [list, { results: list }, list.map((item) => item.message)])
      t.is(blockText(v, indentSeq), whole(v, indentSeq));
});
