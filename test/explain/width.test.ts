/**
 * On a terminal, explain's text fits the terminal (issue #29 item 9): at every width no line is
 * wider, whatever it holds (table rows, long flag names, finding messages, the header), with and
 * without colour, on every golden case and corpus chart. Without a width (a pipe, a file) the
 * lines stay whole, which the explain goldens hold.
 */
import test from 'ava';
import { explain } from '../../fn/explain/explain.ts';
import type { Explanation } from '../../fn/explain/explain.ts';
import { renderText } from '../../fn/explain/render/text.ts';
import { transform } from '../../fn/engine/transform.ts';
import { corpus, corpusNames } from '../helpers/fixtures.ts';
import { goldenCases, runCase } from '../helpers/golden.ts';

const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
const WIDTHS = [72, 100, 120];

const subjects: Array<{ name: string; explanation: () => Explanation }> = [
  ...goldenCases().map((c) => ({
    name: `golden ${c.name}`,
    explanation: () => explain(runCase(c)),
  })),
  ...corpusNames().map((name) => ({
    name: `corpus ${name}`,
    explanation: () => explain(transform(corpus(name), { flags: {} })),
  })),
];

test('every line of explain fits the terminal, coloured or not, on every golden and corpus chart', (t) => {
  const tooWide: string[] = [];
  for (const subject of subjects) {
    const explanation = subject.explanation();
    if (explanation.workloads.length === 0) continue;
    for (const width of WIDTHS) {
      const plain = renderText(explanation, { width });
      const coloured = stripAnsi(renderText(explanation, { width, colour: true }));
      if (coloured !== plain) tooWide.push(`${subject.name} at ${width}: colour changed the text`);
      for (const line of plain.split('\n'))
        if ([...line].length > width)
          tooWide.push(`${subject.name} at ${width}: ${[...line].length} columns: ${line}`);
    }
  }
  t.deepEqual(tooWide.slice(0, 10), []);
});

test('wrapping loses no word: the wrapped text has the words of the whole one', (t) => {
  const explanation = explain(transform(corpus('istio-gateway-1.30.3-nlb.yaml'), { flags: {} }));
  const words = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');
  const whole = renderText(explanation);
  t.true(
    whole.split('\n').some((line) => line.length > 120),
    'the input has lines to wrap',
  );
  // Words cut across lines (a long flag name) are the only difference: none here is > 72 wide.
  t.is(words(renderText(explanation, { width: 120 })), words(whole));
});
