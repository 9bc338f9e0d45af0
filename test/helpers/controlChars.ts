/**
 * What no printed output may hold raw from the input (issue #33): C0 controls but the line feed
 * (which the program writes), DEL, C1 controls, the Unicode bidi controls, the line and paragraph
 * separators and the BOM. Written independently of fn/core/printable.ts, so a class dropped
 * there fails the tests.
 */
export const CONTROL_CHAR = new RegExp(
  '[' +
    [
      '\\u0000-\\u0009\\u000b-\\u001f', // C0, less the line feed
      '\\u007f-\\u009f', // DEL, C1
      '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069', // bidi controls
      '\\u2028\\u2029\\ufeff',
    ].join('') +
    ']',
  'u',
);

/** Returns the first control character in `text` and what surrounds it, for a failure message. */
export function firstControl(text: string): string | undefined {
  const match = CONTROL_CHAR.exec(text);
  return match
    ? JSON.stringify(text.slice(Math.max(0, match.index - 40), match.index + 40))
    : undefined;
}
