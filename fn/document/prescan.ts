/**
 * A cheap look at a segment's top-level `kind` without parsing it, so documents that no mutator
 * can touch (CRDs, RBAC, ConfigMaps…) pass through as bytes (issue #9: streams dominated by CRDs).
 *
 * The pre-scan names a kind only when every valid YAML document with that text has that top-level
 * kind; whenever it cannot be sure it answers "don't know" and the document is parsed.
 * It is sure when:
 *  - the root of the document is a block mapping at column 0: the first line that holds anything
 *    (after comments, directives and a bare `---`) is `key:` at column 0. Then any other line at
 *    column 0 is a key of that mapping, a comment, a `- ` item, or a YAML error (a quoted scalar or
 *    flow collection may not continue at column 0 inside a block mapping; block scalar content is
 *    indented). Not sure: JSON and flow documents, a scalar document (`--- |` whose text may hold
 *    `kind:` at column 0), a tag or anchor on the `---` line, an indented root.
 *  - the first `kind` key at column 0 (plain, `"kind"` or `'kind'`) has a one-word value, plain or
 *    in matching quotes, and nothing after it but a comment;
 *  - the next line that is not blank starts at column 0, so a plain value cannot continue
 *    (`kind: Config` + `  Map` is the kind `Config Map`).
 * A document with two `kind` keys is invalid (duplicate key) and fails when parsed.
 */
import { SharedStrings } from '../core/sharedStrings.ts';

/** A line that holds no node: blank or a comment. */
const BLANK_OR_COMMENT = /^[ \t]*(?:#.*)?\r?$/;
/** A `---` line with nothing after the marker but a comment. */
const BARE_START_MARKER = /^---(?:[ \t]+(?:#.*)?)?\r?$/;
/** The first content line of a document whose root is a block mapping at column 0. */
const ROOT_MAPPING_KEY = /^[A-Za-z_][A-Za-z0-9_./-]*[ \t]*:(?:[ \t]|\r?$)/;
/** A `kind` key at the start of the root's first line (sticky) or of a later line (global). */
const KIND_KEY_HERE = /(?:kind|"kind"|'kind')[ \t]*:/y;
const KIND_KEY_AT_LINE_START = /\n(?:kind|"kind"|'kind')[ \t]*:/g;
/**
 * A `kind` line whose value the pre-scan can read: one word, plain or quoted (captured in one of
 * three groups), then maybe a comment.
 */
const KIND_WORD = '[A-Za-z0-9]+';
const KIND_LINE = new RegExp(
  String.raw`^(?:kind|"kind"|'kind')[ \t]*:[ \t]+` +
    `(?:(${KIND_WORD})|"(${KIND_WORD})"|'(${KIND_WORD})')` +
    String.raw`(?:[ \t]+#.*)?\r?$`,
);
/** A line that holds nothing (blank lines inside a plain scalar fold; they do not end it). */
const BLANK_LINE = /^[ \t]*\r?$/;

/**
 * Returns the document's top-level kind, or undefined when it cannot be told for certain without
 * parsing (see the module comment); the caller then parses the document.
 */
export function prescanKind(text: string): string | undefined {
  const root = rootMappingStart(text);
  if (root === undefined) return undefined;
  // The root's first key may itself be `kind`; otherwise look for `kind` at a later line start.
  let at: number;
  KIND_KEY_HERE.lastIndex = root;
  if (KIND_KEY_HERE.test(text)) {
    at = root;
  } else {
    KIND_KEY_AT_LINE_START.lastIndex = root;
    const found = KIND_KEY_AT_LINE_START.exec(text);
    if (!found) return undefined;
    at = found.index + 1;
  }
  const end = lineEnd(text, at);
  const line = KIND_LINE.exec(text.slice(at, end));
  if (!line) return undefined;
  if (!plainValueEndsHere(text, end)) return undefined;
  const kind = line[1] ?? line[2] ?? line[3];
  return kind === undefined ? undefined : kinds.share(kind);
}

/**
 * The kinds the pre-scan has named, one string each: a run keeps one per document (the stream's
 * plan, a ResourceList's items), and a kind cut out of a document's text would keep that text
 * alive (a list of 534 schemas: 12.5 MB of item copies kept by `CustomResourceDefinition`).
 */
const kinds = new SharedStrings(1000);

/**
 * Returns the offset of the first content line when the document's root is a block mapping at
 * column 0, else undefined (no content, or a root of another shape).
 */
function rootMappingStart(text: string): number | undefined {
  let pos = 0;
  let afterMarker = false;
  while (pos < text.length) {
    const end = lineEnd(text, pos);
    const line = text.slice(pos, end);
    if (BLANK_OR_COMMENT.test(line) || (!afterMarker && line.startsWith('%'))) {
      pos = end + 1;
      continue;
    }
    if (!afterMarker && line.startsWith('---')) {
      if (!BARE_START_MARKER.test(line)) return undefined; // `--- |`, `--- !tag`, `--- {…}`…
      afterMarker = true;
      pos = end + 1;
      continue;
    }
    return ROOT_MAPPING_KEY.test(line) ? pos : undefined;
  }
  return undefined;
}

/**
 * Returns true when the line after `end` cannot continue a plain scalar: the next line with content
 * is at column 0.
 */
function plainValueEndsHere(text: string, end: number): boolean {
  let pos = end + 1;
  while (pos < text.length) {
    const next = lineEnd(text, pos);
    if (!BLANK_LINE.test(text.slice(pos, next))) {
      const first = text.charCodeAt(pos);
      return first !== 0x20 && first !== 0x09;
    }
    pos = next + 1;
  }
  return true;
}

/** Returns the offset of the `\n` that ends the line starting at `pos` (or the text's length). */
function lineEnd(text: string, pos: number): number {
  const end = text.indexOf('\n', pos);
  return end === -1 ? text.length : end;
}

/** Returns true when the segment holds no YAML node at all: only comments, blank lines, markers. */
export function isCommentOnly(text: string): boolean {
  return /^(?:[ \t]*(?:#.*|---[ \t]*(?:#.*)?|\.\.\.[ \t]*)?\r?(?:\n|$))*$/.test(text);
}

/**
 * `Kind name` of a document from its text, for messages about documents that did not parse or are
 * not mappings. A hint only (the first `kind:` at column 0), never used to decide anything.
 */
export function resourceHint(text: string): { resource?: string } {
  const kind = /^kind:[ \t]*["']?([A-Za-z0-9]+)["']?[ \t]*(?:#.*)?\r?$/m.exec(text)?.[1];
  // Each skipped line is matched one way only (`[ \t]` then the rest): `[ \t]+[^\n]*` could split
  // the indentation in many ways, which made a metadata block without `name:` (a Job with
  // generateName and 14 labels) take minutes to fail (exponential backtracking; issue #8 fuzzing).
  const name = /^metadata:[^\n]*\n(?:[ \t][^\n]*\n)*?[ \t]+name:[ \t]*["']?([^\s"'#]+)/m.exec(
    text,
  )?.[1];
  return kind || name ? { resource: [kind, name].filter(Boolean).join(' ') } : {};
}
