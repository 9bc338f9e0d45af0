/**
 * fn/core/printable.ts (issue #33 item 2): every character a terminal acts on is shown as an
 * escape, nothing else changes, and JSON text keeps its data while losing its raw C1 and bidi
 * controls.
 */
import test from 'ava';
import fc from 'fast-check';
import {
  printable,
  printableData,
  printableJson,
  printableLines,
} from '../../fn/core/printable.ts';
import { CONTROL_CHAR } from '../helpers/controlChars.ts';

test('terminal sequences, carriage returns and bidi overrides become visible escapes', (t) => {
  t.is(printable('a\u001b]0;title\u0007b'), 'a\\x1b]0;title\\x07b');
  t.is(printable('\u001b[2J'), '\\x1b[2J');
  t.is(printable('x\u009b31my'), 'x\\x9b31my');
  t.is(printable('forged\rPASS\nnext\tcol'), 'forged\\rPASS\\nnext\\tcol');
  t.is(printable('del\u007f nel\u0085 nul\u0000'), 'del\\x7f nel\\x85 nul\\x00');
  t.is(
    printable('\u202eevil\u202c \u2066x\u2069 \u200f'),
    '\\u202eevil\\u202c \\u2066x\\u2069 \\u200f',
  );
  t.is(printable('line\u2028para\u2029bom\ufeff'), 'line\\u2028para\\u2029bom\\ufeff');
  t.is(printable('lone \ud800 and \udc00'), 'lone \\ud800 and \\udc00');
});

test('printable text is left as it is, a character above U+FFFF too', (t) => {
  for (const text of ['Deployment shop/web', 'G = S + R + B ≥ 30 s', 'ümlaut → 😀', '\\x1b', ''])
    t.is(printable(text), text);
});

test('for any text: one line, no control character left, printable text kept', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (text) => {
      const shown = printable(text);
      const escaped = CONTROL_CHAR.test(text) || text.includes('\n');
      return (
        !CONTROL_CHAR.test(shown) &&
        !shown.includes('\n') &&
        printable(shown) === shown &&
        (escaped || shown === text)
      );
    }),
    { numRuns: 5000, seed: 33 },
  );
  t.pass();
});

test('printableLines keeps the line feeds and escapes the rest of each line', (t) => {
  t.is(printableLines('one\ntwo\r\n\u001b[2J'), 'one\ntwo\\r\n\\x1b[2J');
});

test('printableData escapes every string of plain data, keys too, and keeps the rest', (t) => {
  const data = {
    name: 'a\rb',
    list: ['\u001b', 3, null, true, 12n],
    nested: { 'k\u009b': { deep: '\u202e' } },
  };
  t.deepEqual(printableData(data), {
    name: 'a\\rb',
    list: ['\\x1b', 3, null, true, 12n],
    nested: { 'k\\x9b': { deep: '\\u202e' } },
  });
  t.deepEqual(data.name, 'a\rb', 'the data given is not changed');
});

test('printableJson: the same data, with no raw C1, bidi control or line separator', (t) => {
  const value = { name: 'x\u009b\u202e\u2028\u0085y', plain: 'ok ü' };
  const json = printableJson(JSON.stringify(value, null, 2));
  t.false(CONTROL_CHAR.test(json), json);
  t.deepEqual(JSON.parse(json), value);
  t.regex(json, /"x\\u009b\\u202e\\u2028\\u0085y"/);
  t.regex(json, /"ok ü"/);
});
