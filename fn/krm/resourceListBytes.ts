/**
 * Whether stdin's bytes hold a ResourceList, answered on the bytes: what looksLikeResourceList
 * answers on their latin1 view, without making that view. For a plain stream the view is made
 * anyway (the split and the pre-scan read it); for a ResourceList it was a string as large as the
 * input, alive while the list was decoded beside it (issue #16 item 5: a 12.5 MB list peaked at
 * the bytes, the view and the decoded text together).
 *
 * Only the lines that hold `ResourceList` are looked at: the YAML form is one line (`kind:` at
 * the line's start, then only blanks and quotes), and the JSON form is `"kind"`, blanks, `:`,
 * blanks and `"ResourceList"` after a first `{`, which is read backwards from each occurrence.
 */
import { RESOURCE_LIST_KIND_LINE } from './resourceList.ts';

const NEEDLE = 'ResourceList';

/** The bytes `\s` matches in a latin1 string (ECMAScript WhiteSpace and LineTerminator below
 * U+0100: tab, line feed, vertical tab, form feed, carriage return, space, no-break space). */
function isSpace(byte: number): boolean {
  return (byte >= 0x09 && byte <= 0x0d) || byte === 0x20 || byte === 0xa0;
}

/** Returns what resourceList.ts looksLikeResourceList(bytes.toString('latin1')) returns. */
export function bytesLookLikeResourceList(bytes: Buffer): boolean {
  let brace = 0;
  while (brace < bytes.length && isSpace(bytes[brace]!)) brace++;
  const json = bytes[brace] === 0x7b; // `{`
  for (let at = bytes.indexOf(NEEDLE); at !== -1; at = bytes.indexOf(NEEDLE, at + 1)) {
    const lineStart = at === 0 ? 0 : bytes.lastIndexOf(0x0a, at - 1) + 1;
    const newline = bytes.indexOf(0x0a, at);
    const lineEnd = newline === -1 ? bytes.length : newline;
    // The line alone answers the YAML form: its pattern reaches neither back nor on past a line
    // feed.
    if (RESOURCE_LIST_KIND_LINE.test(bytes.toString('latin1', lineStart, lineEnd))) return true;
    if (json && isJsonKind(bytes, brace, at)) return true;
  }
  return false;
}

/** Whether `"kind"\s*:\s*"` ends right before `at`, starting after the opening brace. */
function isJsonKind(bytes: Buffer, brace: number, at: number): boolean {
  if (bytes[at + NEEDLE.length] !== 0x22 || bytes[at - 1] !== 0x22) return false;
  let i = at - 2;
  while (i > brace && isSpace(bytes[i]!)) i--;
  if (bytes[i] !== 0x3a) return false; // `:`
  i--;
  while (i > brace && isSpace(bytes[i]!)) i--;
  const start = i - '"kind"'.length + 1;
  return start > brace && bytes.toString('latin1', start, i + 1) === '"kind"';
}
