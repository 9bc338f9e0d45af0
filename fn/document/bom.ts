/**
 * Byte-order marks inside a stream. Files joined into one stream (`cat a.yaml b.yaml`, a `---`
 * between them) keep each file's mark: `---\n\uFEFFapiVersion: apps/v1`. `yaml` reads a mark only
 * at the start of the stream, so it took that key for `\uFEFFapiVersion` and the workload
 * went through unpatched (issue #33 item 7), while kustomize reads a Deployment: kyaml cuts the
 * stream at its `---` lines and decodes each document on its own (kyaml/kio/byteio_reader.go
 * splitDocuments, kustomize v5.5.0), and go-yaml drops a mark at the start of what it decodes.
 * YAML allows it too: "Byte order marks may appear at the start of any document" (YAML 1.2.2
 * §5.2).
 *
 * A mark anywhere else at a line start is not read that way: `kubectl kustomize` reads it into the
 * key that follows, or fails (a mark before `---`), as test/document/bom.test.ts shows. Such a
 * document is refused.
 */

/** U+FEFF, the byte-order mark as text. */
export const BOM = '\uFEFF';

/** A `---` line, maybe with a comment after it (split.ts cuts a segment before such a line). */
const MARKER_LINE = /^---(?:[ \t]+(?:#[^\n]*)?)?\r?\n/;
/** A line before a document's `---`: blank, a comment or a directive. */
const PREFIX_LINE = /^(?:[ \t]*(?:#[^\n]*)?|%[^\n]*)\r?\n/;

/**
 * Returns the offset of the byte-order mark that opens a document's content, as kustomize reads it:
 * right after the segment's `---` line, or at the start of a segment without one. Undefined when
 * there is none.
 */
export function documentBomAt(text: string): number | undefined {
  if (!text.includes(BOM)) return undefined;
  if (text.startsWith(BOM)) return 0;
  let at = 0;
  for (;;) {
    const marker = MARKER_LINE.exec(text.slice(at));
    if (marker)
      return text.startsWith(BOM, at + marker[0].length) ? at + marker[0].length : undefined;
    const line = PREFIX_LINE.exec(text.slice(at));
    if (!line) return undefined;
    at += line[0].length;
  }
}

/** Returns the offset of the first byte-order mark at the start of a line, or undefined. */
export function bomAtLineStart(text: string): number | undefined {
  if (text.startsWith(BOM)) return 0;
  const at = text.indexOf(`\n${BOM}`);
  return at === -1 ? undefined : at + 1;
}
