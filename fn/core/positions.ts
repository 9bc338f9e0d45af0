/**
 * Lines and columns in a text: the one place they are counted. Messages name a line and column
 * (1-based, as editors show them); edits need a line's start and a node's column (0-based offsets).
 * Where yaml parses a whole text, its own LineCounter gives the positions (fn/cli/inputs.ts).
 */
/** Returns the offset where the line holding `offset` starts. */
export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Returns the 0-based column of `offset`: how far it is from its line's start. */
export function columnOf(text: string, offset: number): number {
  return offset - lineStartOf(text, offset);
}

/** Returns how many line breaks come before `offset`: its 0-based line. */
export function linesBefore(text: string, offset: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1))
    count++;
  return count;
}
