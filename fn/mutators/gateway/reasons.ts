/**
 * The `reason` of each change: the setting, the value written, the model's formula and
 * explanation, and where every input came from (issue #3: "every number in the output carries
 * its derivation").
 */
import type { Derived, TimingInputs } from '../../timing/model.ts';
import { sourceLine } from '../../core/source.ts';

/** The inputs a reason can name. */
type InputSymbol = 'W' | 'R' | 'B';

/** What a reason cites after its formulas: notes, then where each named input came from. */
export interface Citing {
  readonly inputs: TimingInputs;
  readonly symbols: readonly InputSymbol[];
  readonly notes?: readonly string[];
}

/** Returns `setting = value: formula; formula. explanation` and one line per input source. */
export function derivation(
  setting: string,
  value: string,
  steps: readonly Derived[],
  { inputs, symbols, notes = [] }: Citing,
): string {
  const formulas = steps.map((s) => s.formula).join('; ');
  const head = `${setting} = ${value}: ${formulas}. ${steps[0]?.explanation ?? ''}`.trimEnd();
  return [head, ...notes, ...symbols.map((symbol) => inputLine(symbol, inputs))].join('\n');
}

function inputLine(symbol: InputSymbol, inputs: TimingInputs): string {
  const sourced =
    symbol === 'W' ? inputs.drainWindow : symbol === 'R' ? inputs.maxRequest : inputs.buffer;
  return sourceLine(symbol, sourced.source);
}
