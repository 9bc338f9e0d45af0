/** An item's text as a document of its own (dedented) and back (indented to the item's column). */

/** Removes the item's column of indentation from every line after the first. */
export function dedent(text: string, column: number): string {
  if (column === 0) return text;
  const pad = new RegExp(`\\n[ ]{0,${column}}`, 'g');
  return text.replace(pad, '\n');
}

/** Indents every line after the first that holds something by the item's column. */
export function indent(text: string, column: number): string {
  if (column === 0) return text;
  const pad = ' '.repeat(column);
  return text.replace(/\n(?=[^\r\n])/g, `\n${pad}`);
}
