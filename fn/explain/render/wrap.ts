/**
 * Line breaking for the text renderer on a terminal (issue #29 item 9): with a width, no line is
 * wider than it. Text breaks at spaces; a word longer than the room (a flag name, a field path) is
 * cut into pieces, since a terminal would fold it anyway, one column past the edge. Widths count
 * code points: every character the renderer writes (✓ ✗ → ≥ …) takes one column.
 */

/** Styles one piece of text (an ANSI SGR pair, or nothing). */
export type Styler = (text: string) => string;

/** Returns `word` cut into pieces of at most `room` characters. */
function pieces(word: string, room: number): string[] {
  const chars = [...word];
  if (chars.length <= room) return [word];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += room) out.push(chars.slice(i, i + room).join(''));
  return out;
}

/** Returns `text` broken at spaces into lines of at most `room` characters. */
export function wrapWords(text: string, room: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').flatMap((w) => pieces(w, room))) {
    if (line && [...line].length + 1 + [...word].length > room) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** One character of a line, and the style of the run it came from. */
interface Cell {
  readonly char: string;
  readonly run: number;
}

/** Renders cells, each run of one style styled once. */
function render(cells: readonly Cell[], styles: readonly Styler[]): string {
  let out = '';
  let start = 0;
  for (let i = 1; i <= cells.length; i++) {
    if (i < cells.length && cells[i]!.run === cells[start]!.run) continue;
    const run = cells[start]?.run;
    if (run !== undefined)
      out += styles[run]!(
        cells
          .slice(start, i)
          .map((c) => c.char)
          .join(''),
      );
    start = i;
  }
  return out;
}

/**
 * Returns one line made of styled runs: as one line without a width (a pipe, a file: whole for
 * grep), or broken at spaces into lines of at most `width` columns, continuation lines indented by
 * `indent`. The spacing inside a line is kept; the spaces at a break are dropped.
 */
export function wrapRuns(
  runs: ReadonlyArray<readonly [Styler, string]>,
  width: number | undefined,
  indent: string,
): string[] {
  const styles = runs.map(([style]) => style);
  if (width === undefined) return [runs.map(([style, text]) => style(text)).join('')];
  const cells: Cell[] = runs.flatMap(([, text], run) => [...text].map((char) => ({ char, run })));
  if (cells.length <= width) return [render(cells, styles)];
  // Words: maximal runs of non-spaces, as [start, end) indexes into cells.
  const words: Array<[number, number]> = [];
  for (let i = 0; i < cells.length;) {
    if (cells[i]!.char === ' ') {
      i++;
      continue;
    }
    let end = i;
    while (end < cells.length && cells[end]!.char !== ' ') end++;
    words.push([i, end]);
    i = end;
  }
  const lines: string[] = [];
  let from = 0;
  let prefix = '';
  let room = width;
  let lineStart = -1;
  let lineEnd = -1;
  const flush = () => {
    if (lineStart >= 0) lines.push(prefix + render(cells.slice(lineStart, lineEnd), styles));
    prefix = indent;
    room = Math.max(1, width - [...indent].length);
    lineStart = -1;
  };
  for (const [start, end] of words) {
    // The first line keeps its own leading spaces (the renderer's indentation).
    const begin = lineStart >= 0 ? lineStart : from === 0 ? 0 : start;
    if (end - begin <= room) {
      lineStart = begin;
      lineEnd = end;
      from = end;
      continue;
    }
    if (lineStart >= 0) flush();
    // The word alone is wider than a line: cut it.
    let at = from === 0 ? 0 : start;
    while (end - at > room) {
      lineStart = at;
      lineEnd = at + room;
      at += room;
      flush();
    }
    lineStart = at;
    lineEnd = end;
    from = end;
  }
  flush();
  return lines;
}
