/**
 * Text edits inside flow collections (`{…}`, `[…]`): JSON manifests, pretty-printed or on one line,
 * and flow collections in block documents (`containers: [{name: a, image: b}]`). A new entry goes
 * where the collection's own entries are: on a line of its own at their indentation when they are
 * one per line, else after the last one on its line; a trailing comma stays the last thing before
 * the closing bracket, as written (YAML allows one in flow collections, and Kubernetes' JSON
 * examples have them). New text is written in the collection's style: double-quoted JSON keys
 * with its spacing, or plain YAML keys. Every byte outside the new text stays (issue #15 item 4).
 */
import { isMap, isPair, isScalar, isSeq, stringify, visit } from 'yaml';
import type { Document, Node, Pair, YAMLMap, YAMLSeq } from 'yaml';
import { stringifyOptions } from '../yaml/options.ts';
import { columnOf, lineStartOf } from '../core/positions.ts';
import type { Edit } from './edit.ts';

/** How a flow collection writes its entries. */
export interface FlowStyle {
  /** Keys double-quoted, as JSON writes them. */
  readonly json: boolean;
  /** Between a JSON key and its value: `:` or `: `. */
  readonly colon: string;
  /** Between two entries on one line: `,` or `, `. */
  readonly comma: string;
  /** Spaces inside the brackets of a one-line collection: `{ a: 1 }`. */
  readonly padding: boolean;
  /** One entry per line: how many columns deeper each level goes. */
  readonly step: number | undefined;
  /**
   * The last entry is followed by a comma (then new collections written one entry per line are
   * too).
   */
  readonly trailing: boolean;
}

type FlowCollection = YAMLMap | YAMLSeq;

/**
 * Returns the style of a flow collection, from its own text (or the document's, when it is empty).
 */
export function flowStyleOf(source: string, doc: Document, collection: FlowCollection): FlowStyle {
  const firstPair = firstPairIn(collection) ?? firstPairIn(doc.contents);
  const key = firstPair?.key as Node | null | undefined;
  const value = firstPair?.value as Node | null | undefined;
  const json = isScalar(key) && key.type === 'QUOTE_DOUBLE';
  const between = key?.range && value?.range ? source.slice(key.range[1], value.range[0]) : ': ';
  const colon = json && /^:$/.test(between) ? ':' : ': ';
  const starts = entryStarts(collection);
  const ends = entryEnds(collection);
  const comma =
    starts.length > 1 &&
    ends[0] !== undefined &&
    starts[1] !== undefined &&
    source.slice(ends[0], starts[1]) === ','
      ? ','
      : ', ';
  const open = collection.range?.[0] ?? 0;
  const padding = starts[0] !== undefined ? source[open + 1] === ' ' : false;
  let step: number | undefined;
  if (starts[0] !== undefined && source.slice(open, starts[0]).includes('\n')) {
    step = Math.max(1, columnOf(source, starts[0]) - lineIndentation(source, open));
  }
  const lastEnd = ends.at(-1);
  const trailing = lastEnd !== undefined && /^\s*,/.test(source.slice(lastEnd));
  return { json, colon, comma, padding, step, trailing };
}

/**
 * Returns the edit that adds an entry (already written by `write`, given the column it starts
 * at) at the end of a flow collection; undefined when its shape is not understood.
 */
export function planFlowAppend(
  source: string,
  collection: FlowCollection,
  style: FlowStyle,
  write: (column: number) => string,
): Edit | undefined {
  if (!collection.range) return undefined;
  const close = source.lastIndexOf(isMap(collection) ? '}' : ']', collection.range[1] - 1);
  if (close < collection.range[0]) return undefined;
  const starts = entryStarts(collection);
  const ends = entryEnds(collection);
  const lastEnd = ends.at(-1);
  if (starts.length === 0 || lastEnd === undefined || starts[0] === undefined) {
    return { start: close, end: close, text: write(columnOf(source, close)) };
  }
  // After the last entry: blanks, maybe the trailing comma, maybe comments, then the bracket.
  const after = /^[ \t]*(,?)/.exec(source.slice(lastEnd))!;
  const trailing = after[1] === ',';
  const at = lastEnd + after[0].length;
  if (style.step === undefined) {
    // One line: `{a: 1, b: 2}` → `{a: 1, b: 2, c: 3}`, a trailing comma kept after the new entry.
    return {
      start: lastEnd,
      end: lastEnd,
      text: `${style.comma}${write(columnOf(source, lastEnd) + style.comma.length)}`,
    };
  }
  const itemColumn = columnOf(source, starts[0]);
  const entry = `${' '.repeat(itemColumn)}${write(itemColumn)}`;
  const lineEnd = endOfLine(source, at);
  const rest = source.slice(at, lineEnd);
  if (/^[ \t]*(?:#.*)?$/.test(rest)) {
    // The last entry's line ends here (maybe with a comment): the new entry is the next line.
    if (trailing) return { start: lineEnd, end: lineEnd, text: `\n${entry},` };
    if (rest.trim() === '') return { start: lastEnd, end: lastEnd, text: `,\n${entry}` };
    return { start: lastEnd, end: lineEnd, text: `,${source.slice(lastEnd, lineEnd)}\n${entry}` };
  }
  // Something follows on the line (the closing bracket): the new entry goes before it, on its own
  // line.
  if (trailing) return { start: at, end: at, text: `\n${entry},` };
  return { start: lastEnd, end: lastEnd, text: `,\n${entry}` };
}

/** The text of `key: value` as an entry of a flow map in `style`, starting at `column`. */
export function flowPair(key: string, value: unknown, style: FlowStyle, column: number): string {
  if (style.json) return `${JSON.stringify(key)}${style.colon}${jsonText(value, style, column)}`;
  return unwrap(stringify({ [key]: value }, flowOptions(style)));
}

/** The text of `value` as an item of a flow sequence (or a value in a flow map) in `style`. */
export function flowValue(value: unknown, style: FlowStyle, column: number): string {
  if (style.json) return jsonText(value, style, column);
  return unwrap(stringify([value], flowOptions(style)));
}

/**
 * The JSON text of a value; one entry per line, `step` deeper than `column`, when the style has a
 * step.
 */
function jsonText(value: unknown, style: FlowStyle, column: number): string {
  if (typeof value === 'bigint') return String(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const entries: string[] = Array.isArray(value)
    ? value.map((item) => jsonText(item, style, column + (style.step ?? 0)))
    : Object.entries(value).map(
        ([k, v]) =>
          `${JSON.stringify(k)}${style.colon}${jsonText(v, style, column + (style.step ?? 0))}`,
      );
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return `${open}${close}`;
  if (style.step === undefined) return `${open}${entries.join(style.comma)}${close}`;
  const inner = ' '.repeat(column + style.step);
  return (
    `${open}\n` +
    `${entries.map((entry) => inner + entry).join(',\n')}${style.trailing ? ',' : ''}\n` +
    `${' '.repeat(column)}${close}`
  );
}

function flowOptions(style: FlowStyle) {
  return {
    ...stringifyOptions(),
    collectionStyle: 'flow' as const,
    flowCollectionPadding: style.padding,
    // A string with line breaks (Istio's proxy.istio.io/config) is double-quoted in a flow
    // collection, and yaml writes each `\n` of one of 40 characters or more as a line break
    // (doubleQuotedString in yaml@2.9.1 src/stringify/stringifyString.ts). Those continuation
    // lines start at column 0 of the new text, not deeper than the block map that holds the
    // collection, so the edit did not read back and the whole document was re-printed (issue #33
    // item 6). Escaped, the string stays on its entry's line.
    doubleQuotedMinMultiLineLength: Number.POSITIVE_INFINITY,
  };
}

/** `{a: 1}` → `a: 1`, `[ x ]` → `x`: the one entry of a collection written to hold it. */
function unwrap(text: string): string {
  return text.trim().slice(1, -1).trim();
}

function firstPairIn(node: unknown): Pair | undefined {
  let found: Pair | undefined;
  if (!isMap(node) && !isSeq(node)) return undefined;
  visit(node, {
    Pair(_key, pair) {
      found = pair;
      return visit.BREAK;
    },
  });
  return found;
}

/** Where each entry starts (a map's keys, a list's items). */
function entryStarts(collection: FlowCollection): Array<number | undefined> {
  return (collection.items as unknown[]).map((item) =>
    isPair(item) ? (item.key as Node | null)?.range?.[0] : (item as Node | null)?.range?.[0],
  );
}

/** Where each entry's value ends. */
function entryEnds(collection: FlowCollection): Array<number | undefined> {
  return (collection.items as unknown[]).map((item) => {
    if (!isPair(item)) return (item as Node | null)?.range?.[1];
    return (item.value as Node | null)?.range?.[1] ?? (item.key as Node | null)?.range?.[1];
  });
}

/** The indentation of the line that holds `offset`. */
export function lineIndentation(source: string, offset: number): number {
  const start = lineStartOf(source, offset);
  return /^ */.exec(source.slice(start))![0].length;
}

function endOfLine(source: string, offset: number): number {
  const newline = source.indexOf('\n', offset);
  const end = newline === -1 ? source.length : newline;
  return source[end - 1] === '\r' ? end - 1 : end;
}
