/**
 * Text from the input made safe to print: every character a terminal, a pager or a viewer acts on
 * instead of showing is written as a visible escape (issue #33 item 2). kube-graceful runs on
 * untrusted pull-request content, and a name Kubernetes would reject still reaches `explain`,
 * `check`, stderr and the report: ESC starts clear-screen (`ESC [ 2 J`), window-title (OSC 0),
 * clipboard-write (OSC 52) and hyperlink (OSC 8) sequences (xterm's ctlseqs), 0x9b is the 8-bit
 * CSI (ECMA-48 §5.3), CR moves back to the start of the line so a name overwrites what precedes it,
 * and a bidi override reorders what follows it on screen (CVE-2021-42574, "Trojan Source").
 *
 * Escaped: C0 controls (tab, line feed and carriage return too: one value stays one line), DEL,
 * C1 controls, the Unicode bidi controls (Unicode UAX #9 §2: U+061C, U+200E, U+200F,
 * U+202A–U+202E, U+2066–U+2069), the line and paragraph separators U+2028 and U+2029, the BOM
 * U+FEFF (a zero-width no-break space within text), lone surrogates and the noncharacters
 * U+FFFE and U+FFFF (not characters: XML 1.0 §2.2 forbids them too). The program's own line
 * breaks are written around the escaped values, never inside them.
 */

/** C0 controls, as the inside of a regex class (JSON.stringify escapes these itself). */
const C0 = '\\u0000-\\u001f';
/** With the u flag the text is read by code points: a surrogate pair is one character above
 * U+FFFF, so only a lone surrogate falls in this range (JSON.stringify escapes these too). */
const LONE_SURROGATES = '\\ud800-\\udfff';
/** The other characters shown as escapes. */
const OTHERS = [
  '\\u007f-\\u009f', // DEL, C1 controls
  '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069', // bidi controls (UAX #9)
  '\\u2028\\u2029', // line and paragraph separators
  '\\ufeff\\ufffe\\uffff', // BOM, noncharacters
].join('');
const UNPRINTABLE_CLASS = `${C0}${OTHERS}${LONE_SURROGATES}`;

const UNPRINTABLE = new RegExp(`[${UNPRINTABLE_CLASS}]`, 'gu');
const ANY_UNPRINTABLE = new RegExp(`[${UNPRINTABLE_CLASS}]`, 'u');

/** The usual short escapes; every other character is `\xNN` below 0x100, else `\uNNNN`. */
const SHORT: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** Returns the escape that shows `char` (one UTF-16 code unit) as text. */
function escapeOf(char: string): string {
  const short = SHORT[char];
  if (short) return short;
  const code = char.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Returns `text` with every unprintable character as a visible escape (`\x1b`, `\u202e`). */
export function printable(text: string): string {
  // Nearly every string has none: it is returned as it is, not copied.
  return ANY_UNPRINTABLE.test(text) ? text.replace(UNPRINTABLE, escapeOf) : text;
}

/**
 * Returns program text of several lines (a change's reason, an error with the YAML library's code
 * frame) with each line made printable: its line feeds stay, everything else is escaped.
 */
export function printableLines(text: string): string {
  return text.split('\n').map(printable).join('\n');
}

/**
 * Returns a copy of plain data (what JSON holds: objects, arrays, scalars) with every string in
 * it, keys too, made printable; other values are kept as they are. For a renderer that prints
 * everything it is given as text.
 */
export function printableData<T>(value: T): T {
  return mapStrings(value) as T;
}

function mapStrings(value: unknown): unknown {
  if (typeof value === 'string') return printable(value);
  if (Array.isArray(value)) return value.map(mapStrings);
  if (value === null || typeof value !== 'object') return value;
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [printable(key), mapStrings(entry)]),
  );
}

/**
 * Unprintable characters JSON.stringify leaves as they are: it escapes C0 controls (RFC 8259
 * §7) and lone surrogates (ES2019 well-formed JSON.stringify), not DEL, C1 or the rest.
 */
const RAW_IN_JSON = new RegExp(`[${OTHERS}]`, 'g');

/**
 * Returns JSON text with the unprintable characters JSON.stringify leaves raw written as `\uNNNN`
 * escapes: the same data, readable in a terminal. Outside its strings JSON text is ASCII, so each
 * of them stands in a string, where the escape means the same character (RFC 8259 §7).
 */
export function printableJson(json: string): string {
  return json.replace(
    RAW_IN_JSON,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
