/**
 * Aligned columns for the text renderers (explain and its summary): the last column wraps onto
 * continuation lines under itself at a terminal's width, and a row too wide for the terminal is one
 * wrapped line (fn/explain/render/wrap.ts).
 */
import { wrapRuns, wrapWords } from './wrap.ts';
import type { Styler } from './wrap.ts';

/** Text as it is: the runs of a line that have no style. */
export const NONE: Styler = (t) => t;

/** Returns text without the ANSI SGR escapes (ESC [ … m) this renderer writes: no columns. */
function plainText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** The narrowest the wrapped last column gets: below that, wrapping helps nobody. */
const MIN_WRAPPED_COLUMN = 30;
/** The narrowest a last column put under its row gets, on a terminal too narrow for any table. */
const MIN_UNDER_COLUMN = 10;

/**
 * Returns rows padded to aligned columns (`right[i]` = 1 aligns column i right); the last column
 * is never padded, and is wrapped at spaces onto continuation lines aligned under itself when the
 * row would be wider than the terminal.
 */
export function table(
  rows: readonly string[][],
  right: readonly number[],
  indent: string,
  terminalWidth: number | undefined,
): string[] {
  const width = (text: string) => [...plainText(text)].length;
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, i) =>
    Math.max(0, ...rows.map((r) => width(r[i] ?? ''))),
  );
  return rows.flatMap((cells) => {
    const head =
      indent +
      cells
        .slice(0, -1)
        .map((cell, i) => {
          const pad = ' '.repeat(widths[i]! - width(cell));
          return right[i] ? pad + cell : cell + pad;
        })
        .map((cell) => `${cell}  `)
        .join('');
    const last = cells.at(-1) ?? '';
    // A terminal narrower than the row's other columns: the row as one wrapped line, unaligned
    // and unstyled (a style is one colour, and the words are what the reader needs there).
    if (terminalWidth !== undefined && width(head.trimEnd()) > terminalWidth)
      return wrapRuns(
        [[NONE, plainText(head + last).replace(/ {3,}/g, '  ')]],
        terminalWidth,
        `${indent}    `,
      );
    const room = terminalWidth === undefined ? Infinity : terminalWidth - width(head);
    // A styled cell is one style around plain text (Style): wrap the text, style each line.
    // eslint-disable-next-line no-control-regex -- an ANSI SGR escape on each side of plain text
    const styled = /^(\u001b\[\d+m)([^\u001b]*)(\u001b\[\d+m)$/s.exec(last);
    const [open, plain, close] = styled ? [styled[1]!, styled[2]!, styled[3]!] : ['', last, ''];
    if (width(last) <= room || plain.includes('\u001b')) return [(head + last).trimEnd()];
    if (room >= MIN_WRAPPED_COLUMN)
      return wrapWords(plain, room).map((part, i) =>
        `${i === 0 ? head : ' '.repeat(width(head))}${open}${part}${close}`.trimEnd(),
      );
    // No room beside the other columns: the last one goes under the row, indented.
    const under = `${indent}    `;
    return [
      head.trimEnd(),
      ...wrapWords(plain, Math.max(MIN_UNDER_COLUMN, (terminalWidth ?? 0) - under.length)).map(
        (part) => `${under}${open}${part}${close}`,
      ),
    ];
  });
}
