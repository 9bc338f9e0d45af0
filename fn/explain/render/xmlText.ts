/**
 * Text in XML (the SVG picture) and HTML (the page around it): markup characters as entities, and
 * no character XML 1.0 forbids (§2.2 Char: only tab, line feed, carriage return, U+0020–U+D7FF,
 * U+E000–U+FFFD and the supplementary planes), which would leave the SVG not well-formed (issue
 * #33 item 4). The renderers make every text from the input printable first
 * (fn/core/printable.ts), so such a character is shown as its escape; this holds for any other
 * text too.
 */
import { printable } from '../../core/printable.ts';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};

/** XML 1.0 Char, negated (u flag: a surrogate pair is one character, a lone one matches). */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** Returns `text` escaped for XML or HTML text and double-quoted attribute values. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, printable).replace(/[&<>"]/g, (char) => ENTITIES[char]!);
}
