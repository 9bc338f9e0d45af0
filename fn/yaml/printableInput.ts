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
 * or returns when there is none. Bytes are valid UTF-8 (decodeUtf8 checked them).
 */
export function checkPrintableInput(input: string | Buffer, origin = 'the input'): void {
  const at = typeof input === 'string' ? input.search(FORBIDDEN_TEXT) : forbiddenByte(input);
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

/**
 * Returns the offset of the first byte that starts a character refused above, in valid UTF-8
 * (checked before: no surrogates): a C0 control but tab, line feed and a carriage return before a
 * line feed, DEL, a C1 control (0xC2 then 0x80–0x9F, but 0x85 NEL), or U+FFFE/U+FFFF (EF BF
 * BE/BF). One pass, no copy: a 13 MB ResourceList is read in milliseconds.
 */
function forbiddenByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b >= 0x20 && b < 0x7f) continue;
    if (b < 0x20) {
      if (b !== 0x09 && b !== 0x0a && (b !== 0x0d || bytes[i + 1] !== 0x0a)) return i;
    } else if (b === 0x7f) return i;
    else if (b === 0xc2) {
      const next = bytes[i + 1]!;
      if (next >= 0x80 && next <= 0x9f && next !== 0x85) return i;
    } else if (
      b === 0xef &&
      bytes[i + 1] === 0xbf &&
      (bytes[i + 2] === 0xbe || bytes[i + 2] === 0xbf)
    )
      return i;
  }
  return -1;
}
