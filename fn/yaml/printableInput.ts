/**
 * The characters a manifest may hold raw, as Go's YAML reads it: kubectl, kustomize and the API
 * server decode manifests with go-yaml, whose reader refuses every character outside
 * `#x9 | #xA | #xD | [#x20-#x7E] | #x85 | [#xA0-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`
 * with "control characters are not allowed" (go-yaml readerc.go yaml_parser_update_buffer,
 * gopkg.in/yaml.v2@v2.4.0 and sigs.k8s.io/yaml/goyaml.v2; YAML 1.1 §5.1 c-printable). NUL, ESC,
 * DEL or a C1 control written raw would otherwise pass through kube-graceful into a stream the
 * cluster refuses, or reach a terminal. Written as escapes in a double-quoted scalar ("\e",
 * "\x9b") they are valid, and every writer escapes them again (escapedStrings.ts).
 *
 * A carriage return alone is a line break to YAML and to go-yaml, but not to the yaml library
 * kube-graceful edits with (it reads LF and CR LF): such a stream gets the right message here
 * instead of a wrong parse error on line 1.
 */
import { KubeGracefulError } from '../core/errors.ts';

/** One character go-yaml refuses, in text. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const FORBIDDEN_TEXT = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|\r(?!\n)/;

/** Names of the controls people meet, for the message. */
const NAMES: Readonly<Record<number, string>> = {
  0x00: 'NUL',
  0x07: 'BEL',
  0x08: 'BS',
  0x0b: 'VT',
  0x0c: 'FF',
  0x1b: 'ESC',
  0x7f: 'DEL',
  0x9b: 'CSI',
  0x9d: 'OSC',
};

/**
 * Throws an input error naming the first character go-yaml refuses, with its line and column,
 * or returns when there is none. Bytes are valid UTF-8 (decodeUtf8 checked them). `beforeChunk`
 * is told the size of each chunk of bytes before it is read (firstRefusedByte).
 */
export function checkPrintableInput(
  input: string | Buffer,
  origin = 'the input',
  beforeChunk?: (bytes: number) => void,
): void {
  const at =
    typeof input === 'string' ? input.search(FORBIDDEN_TEXT) : firstRefusedByte(input, beforeChunk);
  if (at === -1) return;
  const before =
    typeof input === 'string' ? input.slice(0, at) : input.subarray(0, at).toString('utf8');
  const code =
    typeof input === 'string'
      ? input.codePointAt(at)!
      : input
          .subarray(at, at + 3)
          .toString('utf8')
          .codePointAt(0)!;
  const line = before.split(/\r\n|\r|\n/).length;
  const column =
    [...before.slice(Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1)].length + 1;
  if (code === 0x0d)
    throw new KubeGracefulError(
      'E_INPUT',
      `${origin} ends a line with a carriage return alone (old Mac line breaks), which the YAML ` +
        'reader kube-graceful edits with does not take for a line break',
      { line, column },
      "Convert the line breaks to LF or CR LF (tr '\\r' '\\n' < in.yaml > out.yaml).",
    );
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  const name = NAMES[code] ? ` (${NAMES[code]})` : '';
  throw new KubeGracefulError(
    'E_INPUT',
    `${origin} holds the control character U+${hex}${name} raw; ` +
      "Go's YAML, which kubectl and the API server read manifests with, refuses it",
    { line, column },
    `Remove it, or write it as an escape inside a double-quoted string ("\\u${hex}").`,
  );
}

/** The same characters as FORBIDDEN_TEXT, in UTF-8 bytes read as Latin-1 (one character a byte). */
const FORBIDDEN_BYTES =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]|\r(?!\n)|\xC2[\x80-\x84\x86-\x9F]|\xEF\xBF[\xBE\xBF]/;

/** How many bytes are read as one Latin-1 string: a bounded copy, however long the input. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Returns the offset of the first byte that starts a character refused above, in valid UTF-8
 * (checked before: no surrogates): a C0 control but tab, line feed and a carriage return before a
 * line feed, DEL, a C1 control (0xC2 then 0x80–0x9F, but 0x85 NEL), or U+FFFE/U+FFFF (EF BF
 * BE/BF); -1 when there is none. In valid UTF-8, 0xC2 and 0xEF only ever lead a character.
 *
 * The bytes are searched by a regular expression, 64 KB at a time as Latin-1: V8 runs regular
 * expressions as machine code, while a loop over the bytes in JavaScript runs at the baseline
 * tier the launcher keeps short runs at (fn/cli/startFlags.ts): on the 4.7 MB kube-prometheus-stack
 * render that loop was a third of the run (about 110 ms of 360). Each window reaches two bytes
 * into the next chunk, so that a character of up to three bytes starting in this chunk, or a
 * carriage return's next byte, is seen whole; what is found in those two bytes is the next
 * chunk's to report. Each window is a new string: `beforeChunk` lets the run's cap on V8's young
 * generation look at the heap as they come (the engine passes fn/stream/youngGeneration.ts's;
 * without it, the windows of a 3 MB stream grew the young generation to 8 MiB before the split
 * first looked).
 */
export function firstRefusedByte(bytes: Buffer, beforeChunk?: (bytes: number) => void): number {
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES) {
    const end = Math.min(bytes.length, start + CHUNK_BYTES + 2);
    beforeChunk?.(end - start);
    const at = bytes.toString('latin1', start, end).search(FORBIDDEN_BYTES);
    if (at !== -1 && at < CHUNK_BYTES) return start + at;
  }
  return -1;
}
