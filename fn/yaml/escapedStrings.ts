/**
 * Strings written as YAML with every control character as an escape (issue #33 item 5, the output
 * half). A value read from a double-quoted scalar may hold any character (`"\e"`, `"\x9b"`,
 * `"\u202e"` are valid YAML), and kube-graceful writes such values again: a name in a KRM result,
 * a patch's target, an item's field set from another.
 *
 * eemeli/yaml double-quotes a string with a C0 or C1 control and escapes the C0 ones, but writes
 * DEL and C1 as they are (stringifyString's doubleQuotedString escapes what JSON.stringify does,
 * yaml src/stringify/stringifyString.ts@v2.9.x), and the bidi controls, U+2028 and U+2029 in a
 * plain scalar. None of these is printable in YAML (1.2.2 §5.1 c-printable: no C1 but U+0085, no
 * DEL), U+0085, U+2028 and U+2029 are line breaks to a YAML 1.1 reader (1.1 §5.4, go-yaml's
 * is_break) and a bidi control reorders what a terminal shows after it. Such a string is written
 * here double-quoted, on one line, each of them as a `\uNNNN` escape (YAML 1.2.2 §5.7, the same
 * in 1.1 and in JSON); every other string as the library writes it.
 */
import type { ScalarTag, Tags } from 'yaml';

/** What yaml would write raw and a YAML reader or a terminal takes for something else. */
const RAW_CLASS = [
  '\\u007f-\\u009f', // DEL, C1 controls (U+0085 NEL among them)
  '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069', // bidi controls (UAX #9)
  '\\u2028\\u2029', // line and paragraph separators
  '\\ufeff\\ufffe\\uffff', // BOM, noncharacters
].join('');
const RAW = new RegExp(`[${RAW_CLASS}]`, 'g');
const ANY_RAW = new RegExp(`[${RAW_CLASS}]`);

const STRING_TAG = 'tag:yaml.org,2002:str';

/**
 * Returns `text` as a double-quoted scalar on one line that is JSON too: JSON.stringify's escapes
 * (`\"`, `\\`, `\n`, `\u001b`, a lone surrogate as `\udNNN`) are YAML's, and the characters it
 * leaves raw are escaped as well.
 */
export function yamlQuoted(text: string): string {
  return JSON.stringify(text).replace(
    RAW,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Returns the tags with the string tag writing escapes for the characters above. */
export function withEscapedStrings(tags: Tags): Tags {
  return tags.map((tag) =>
    typeof tag === 'object' && tag.tag === STRING_TAG && !('collection' in tag && tag.collection)
      ? escapingStringTag(tag)
      : tag,
  );
}

function escapingStringTag(tag: ScalarTag): ScalarTag {
  return {
    ...tag,
    stringify: (item, ...rest) => {
      const value = String(item.value);
      return ANY_RAW.test(value) ? yamlQuoted(value) : tag.stringify!(item, ...rest);
    },
  };
}
