/**
 * A long list of our results written as one edit per result (issue #34 item 7). Written as one
 * text, the results of 2,400 workloads (15,000 results, 7.6 MB) were a string of 15 MB (their
 * messages hold `≥` and `→`, so two bytes a character) made from others as large, then encoded:
 * a third of that run's peak memory. Each result's edit prints it when its text is read, which the
 * output does once, as it encodes it: no more than one result's text is alive at a time.
 */
import { printBlock } from '../document/splice.ts';
import type { Edit } from '../document/edit.ts';

/**
 * How the edit that writes the whole list indents a result's lines after its first: every line (an
 * append after block results, appendResults.ts appendBlock), or all but the blank ones (a new
 * `results` field at column 0, as yaml prints a list under a key: fn/yaml/longLists.ts).
 */
export type LineIndent = 'every' | 'nonBlank';

/** The deepest column a result is looked for at: a list's `results` are at the top. */
const MAX_COLUMN = 16;

/**
 * Returns the edits that write all of `ours` where `probe` (checked) writes the first alone: the
 * probe's text up to the end of that result, then each further result as one edit after it,
 * printed as the first was (its column, `indentSeq`, `lines`), then the rest of the probe's text.
 * Undefined when the probe's text does not end with the first result so printed: the caller then
 * writes them in one edit. The same text as that one edit: a block sequence prints each item on
 * its own (fn/yaml/longLists.ts); test/krm/results-in-parts.test.ts holds it.
 */
export function resultsInParts(
  probe: Edit,
  ours: readonly unknown[],
  indentSeq: boolean,
  lines: LineIndent,
): Edit[] | undefined {
  const print = (result: unknown, pad: string) =>
    indented(printBlock([result], indentSeq), pad, lines);
  const first = (pad: string) => print(ours[0], pad);
  for (const after of ['\n', '']) {
    if (!probe.text.endsWith(after)) continue;
    const body = probe.text.slice(0, probe.text.length - after.length);
    const column = columnOfLast(body, first);
    if (column === undefined) continue;
    const pad = ' '.repeat(column);
    const at = probe.end;
    return [
      { start: probe.start, end: probe.end, text: body },
      ...ours.slice(1).map((result) => ({
        start: at,
        end: at,
        // Printed when read: the output reads each edit's text once.
        get text() {
          return `\n${pad}${print(result, pad)}`;
        },
      })),
      ...(after ? [{ start: at, end: at, text: after }] : []),
    ];
  }
  return undefined;
}

/** `text`'s lines after its first indented by `pad`, as `lines` says. */
function indented(text: string, pad: string, lines: LineIndent): string {
  if (pad === '') return text;
  return text.replace(lines === 'every' ? /\n/g : /\n(?!\n|$)/g, `\n${pad}`);
}

/**
 * Returns the column at which `text` ends with an item as `item` prints it at a column: its first
 * line after that many spaces from a line's start.
 */
function columnOfLast(text: string, item: (pad: string) => string): number | undefined {
  for (let column = 0; column <= MAX_COLUMN; column++) {
    const pad = ' '.repeat(column);
    const printed = pad + item(pad);
    const lineStart = text.length - printed.length;
    if (lineStart < 0) return undefined;
    if (lineStart > 0 && text[lineStart - 1] !== '\n') continue;
    if (text.endsWith(printed)) return column;
  }
  return undefined;
}
