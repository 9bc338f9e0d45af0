/**
 * A ResourceList read from stdin's UTF-8 bytes without decoding it whole (issue #16 item 5: the
 * 12.5 MB list of schemas holds a few non-Latin-1 characters, so its text was a 25 MB two-byte
 * string next to the bytes). As the stream mode does (fn/stream/stream.ts ByteStream), the list
 * is cut into items on a latin1 view of the bytes, one character per byte, and only the frame and
 * the items that are parsed are decoded (resourceList.ts readLaidOut); the output is the bytes
 * between the edits and the edits encoded (renderResourceListChunks).
 *
 * Returns undefined where the text must be read whole, as readResourceList does: a list not laid
 * out as kpt writes it (JSON, flow style, aliases), `--all-documents`, a list among other
 * documents (the text reports that), and text the view would not read as the text reads.
 */
import { isUtf8 } from 'node:buffer';
import { BOM_BYTES } from '../stream/stream.ts';
import { listLayout } from './layout.ts';
import { contentDocuments, readLaidOut } from './resourceList.ts';
import type { ReadListOptions, ResourceListInput } from './resourceList.ts';

/**
 * U+2028 and U+2029 in UTF-8. JavaScript's `.` does not match them and `^`/`$` with the m flag end
 * a line at them (ECMA-262 LineTerminator), so the regular expressions of the layout reader, the
 * split and the pre-scan (`#.*` in a comment line) would read them otherwise in the view, where
 * they are three characters of 0x80 or more. Rare enough to read such a list as text.
 */
const LINE_SEPARATORS = [Buffer.from('\u2028', 'utf8'), Buffer.from('\u2029', 'utf8')];

/** Returns the list read from `bytes`, or undefined when its decoded text must be read instead. */
export function readResourceListBytes(
  bytes: Buffer,
  options: ReadListOptions,
): ResourceListInput | undefined {
  if (options.parseAll || bytes.subarray(0, 3).equals(BOM_BYTES) || !isUtf8(bytes))
    return undefined;
  if (LINE_SEPARATORS.some((separator) => bytes.includes(separator))) return undefined;
  const view = bytes.toString('latin1');
  // One document only, or the text path says which one is the list and how many there are.
  if (contentDocuments(view).length > 1) return undefined;
  const layout = listLayout(view);
  return layout && readLaidOut({ view, bytes }, layout, options);
}
