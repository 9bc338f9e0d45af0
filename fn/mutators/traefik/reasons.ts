/** The text of each change and finding: the setting, the value, the formula, and where W, R, B came
 * from. */
import type { Derived, Sourced } from '../../timing/model.ts';
import type { TraefikTimingInputs } from './timing.ts';
import { sourceLine } from '../../core/source.ts';

export type InputSymbol = 'W' | 'R' | 'B';

/** Returns `setting = value: formula. explanation`. */
export function derivationLine(setting: string, value: string, step: Derived): string {
  return `${setting} = ${value}: ${step.formula}. ${step.explanation}`;
}

/** Returns one line per input: `W: <source>`. */
export function sourceLines(
  inputs: TraefikTimingInputs,
  symbols: readonly InputSymbol[],
): string[] {
  return symbols.map((symbol) => {
    const sourced: Sourced =
      symbol === 'W' ? inputs.drainWindow : symbol === 'R' ? inputs.maxRequest : inputs.buffer;
    return sourceLine(symbol, sourced.source);
  });
}
