/**
 * sharedText (fn/core/records.ts) gives back the text it was given, character for character,
 * whatever its lines (empty ones, a final line feed, CR LF, non-Latin-1), also once its table of
 * lines has been cleared: change records' reasons go through it (issue #16 item 5), and the
 * report, `results` and explain print them.
 */
import test from 'ava';
import fc from 'fast-check';
import { sharedText } from '../../fn/core/records.ts';

test('the same text back, for any text and again for the same text', (t) => {
  const line = fc.constantFrom('', 'W = 5 s', 'G = S + R + B ≥ 30', '\r', ' ', 'Service a/b');
  fc.assert(
    fc.property(fc.array(fc.oneof(line, fc.string()), { maxLength: 12 }), (lines) => {
      const text = lines.join('\n');
      return sharedText(text) === text && sharedText(text) === text;
    }),
    { numRuns: 2000, seed: 16 },
  );
  t.is(sharedText(''), '');
  t.is(sharedText('\n'), '\n');
});

test('the same text back past the bound of the table, when it is cleared', (t) => {
  for (let i = 0; i < 25_000; i++) {
    const text = `line ${i}\nshared\n`;
    if (sharedText(text) !== text) t.fail(text);
  }
  t.is(sharedText('line 7\nshared\n'), 'line 7\nshared\n');
});
