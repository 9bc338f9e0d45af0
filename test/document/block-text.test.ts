/**
 * Issue #16: the block YAML of values written into workloads is made once per value (splice.ts
 * blockText). A value must always get the text yaml prints for it, whatever was printed before it:
 * values JSON cannot tell apart (0 and -0, 5 and 5n, a hole and null) must never share a text.
 */
import test from 'ava';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { blockText } from '../../fn/document/splice.ts';
import { stringifyOptions } from '../../fn/yaml/options.ts';
import { propertyParameters } from '../helpers/reliability-runs.ts';

const fresh = (value: unknown, indentSeq: boolean) =>
  stringify(value, stringifyOptions(indentSeq)).replace(/\n$/, '');

const lookalikes: unknown[] = [
  0,
  -0,
  5,
  5n,
  // A hole: JSON.stringify writes it as null, like the next one.
  // eslint-disable-next-line no-sparse-arrays
  [1, , 3],
  [1, null, 3],
  { a: undefined },
  {},
  'true',
  true,
  '5',
  null,
];

test('values JSON cannot tell apart each get their own text, in any order', (t) => {
  for (const order of [lookalikes, [...lookalikes].reverse()]) {
    for (const value of order)
      for (const indentSeq of [true, false])
        t.is(blockText(value, indentSeq), fresh(value, indentSeq));
  }
});

test('random data, printed twice: the text yaml prints for it', (t) => {
  const value = fc.oneof(
    fc.jsonValue(),
    fc.constantFrom<unknown>(-0, 5n, { preStop: { sleep: { seconds: 5 } } }),
  );
  fc.assert(
    fc.property(fc.array(fc.tuple(value, fc.boolean()), { maxLength: 8 }), (values) =>
      [...values, ...values].every(
        ([v, indentSeq]) => blockText(v, indentSeq) === fresh(v, indentSeq),
      ),
    ),
    propertyParameters(300),
  );
  t.pass();
});
