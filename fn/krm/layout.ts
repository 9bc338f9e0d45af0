/**
 * A ResourceList's layout read from its text, without parsing it: where its `items` are and where
 * each item starts and ends. kpt (`kpt fn source`, kyaml's ByteWriter) and kustomize write a
 * ResourceList as a block mapping at column 0 with `items:` a block sequence, so a list of 534 JSON
 * schemas (13 MB) can be cut into items the way a stream is cut into documents, and only the items
 * a mutator reads get parsed (issue #16, as the stream's pre-scan does for documents: issue #9).
 *
 * Like the stream's pre-scan, this answers only when it is sure and returns undefined otherwise
 * (JSON or flow lists, an indented root, `-` alone on its line, markers…); the caller then parses
 * the whole list. It is sure because at column 0 of a block mapping's document only its keys,
 * comments, `- ` items of a sequence at column 0, and markers can start a line: block scalar
 * content and the continuation lines of multi-line scalars are indented under their key (YAML 1.2
 * §8.2, §7.3), and a sequence's items all start at its column.
 */
import { columnOf } from '../core/positions.ts';

/** One item: where its text starts in the list and how far it may reach. */
export interface ItemSpan {
  /** Offset of the item's first character (after `- `). */
  readonly start: number;
  /** Offset of the line of the next item, or of the end of the items' block: the item ends before
   * it. */
  readonly limit: number;
  /** Column of `start` (the item's lines after the first are indented by it). */
  readonly column: number;
}

/** The list with its items cut out: `frame` is the list with one empty item, for reading everything
 * else. */
export interface ListLayout {
  readonly items: readonly ItemSpan[];
  /**
   * The list's text with the items' block replaced by one empty item: small, and parsed in one go.
   */
  readonly frame: string;
  /** Returns the offset in the list of an offset in `frame` outside the stand-in item. */
  readonly toListOffset: (frameOffset: number) => number;
}

const ITEMS_LINE = /^items[ \t]*:[ \t]*(?:#.*)?\r?$/;
const ROOT_KEY_LINE = /^[A-Za-z_][A-Za-z0-9_./-]*[ \t]*:(?:[ \t]|\r?$)/;
const BLANK_OR_COMMENT = /^[ \t]*(?:#.*)?\r?$/;
/** An item line: `- ` at the sequence's column, then a key (the item is a block mapping on that
 * line) or `{` (a flow mapping, as kpt keeps a JSON file's resource: issue #34 item 1). */
const ITEM_LINE = /^( *)-( +)(?=[A-Za-z_"'{])/;
/** An item line with only a comment after `- `: the item's first key is on a later line. */
const ITEM_WITH_COMMENT = /^( *)-[ \t]+#/;

const SPACE = 0x20;
const DASH = 0x2d;
const DOT = 0x2e;

/** Returns the list's layout, or undefined when the text is not laid out as described above. */
export function listLayout(text: string): ListLayout | undefined {
  // Lines are walked by their offsets, none kept: the list of schemas has 222,000 lines, whose
  // starts were arrays of 2 MB and more each (issue #16 item 5: peak memory).
  let first: number | undefined = 0;
  while (first !== undefined && BLANK_OR_COMMENT.test(lineFrom(text, first)))
    first = nextLine(text, first);
  if (first === undefined || !ROOT_KEY_LINE.test(lineFrom(text, first))) return undefined;
  let itemsLine: number | undefined;
  for (let line: number | undefined = first; line !== undefined; line = nextLine(text, line)) {
    const c = text.charCodeAt(line);
    if ((c === DASH || c === DOT) && /^(?:---|\.\.\.)(?:[ \t]|\r?$)/.test(lineFrom(text, line)))
      return undefined; // one document only
    if (itemsLine === undefined && c === 0x69 /* i */ && ITEMS_LINE.test(lineFrom(text, line)))
      itemsLine = line;
  }
  if (itemsLine === undefined) return undefined;
  const starts: number[] = [];
  /** Where each item's `-` line starts: the item before it ends there at the latest. */
  const dashLines: number[] = [];
  let column: number | undefined;
  let commentedItem = false;
  let at = nextLine(text, itemsLine);
  for (; at !== undefined; at = nextLine(text, at)) {
    const c = text.charCodeAt(at);
    // Most lines are an item's content, indented deeper than its `-`: decided on their indentation.
    if (!commentedItem && column !== undefined && indentedBeyond(text, at, column)) continue;
    const content = lineFrom(text, at);
    if (BLANK_OR_COMMENT.test(content)) continue;
    if (commentedItem) {
      // `- # comment` (kpt keeps a file's head comment so): the item starts on this line.
      commentedItem = false;
      const indent = content.length - content.trimStart().length;
      if (indent <= column! || !/^[A-Za-z_"'{]/.test(content.slice(indent))) return undefined;
      starts.push(at + indent);
      continue;
    }
    const item = ITEM_LINE.exec(content);
    const commented = item ? undefined : ITEM_WITH_COMMENT.exec(content);
    if (
      (item ?? commented) &&
      (column === undefined || (item ?? commented)![1]!.length === column)
    ) {
      column ??= (item ?? commented)![1]!.length;
      dashLines.push(at);
      if (item) starts.push(at + item[0].length);
      else commentedItem = true;
    } else if (c === SPACE) {
      return undefined; // content under `items:` that is not inside an item of the sequence
    } else {
      // a tab, a `-` at another column, flow text at column 0…
      if (!ROOT_KEY_LINE.test(content)) return undefined;
      break; // the next root key: the items are over
    }
  }
  if (starts.length === 0 || commentedItem) return undefined;
  const blockEnd = at ?? text.length;
  const items = starts.map((start, i) => ({
    start,
    limit: dashLines[i + 1] ?? blockEnd,
    column: columnOf(text, start),
  }));
  // The frame: the items' block (up to the next root key) is one empty item at the items' column,
  // so that the frame's lists are indented as the list's are (splice.ts reads that off the first).
  const colon = text.indexOf(':', itemsLine) + 1;
  const endsWithBreak = text.charCodeAt(blockEnd - 1) === 0x0a;
  const standIn = `\n${' '.repeat(column!)}- {}${endsWithBreak ? '\n' : ''}`;
  const frame = text.slice(0, colon) + standIn + text.slice(blockEnd);
  // Offsets after the stand-in map to after the block; its own line break to the block's last one.
  const after = colon + standIn.length - (endsWithBreak ? 1 : 0);
  const listAfter = blockEnd - (endsWithBreak ? 1 : 0);
  return {
    items,
    frame,
    toListOffset: (offset) =>
      offset < colon ? offset : offset >= after ? offset - after + listAfter : colon,
  };
}

/** True when the line at `at` starts with more than `column` spaces. */
function indentedBeyond(text: string, at: number, column: number): boolean {
  for (let i = 0; i <= column; i++) if (text.charCodeAt(at + i) !== SPACE) return false;
  return true;
}

/**
 * Returns where the line after the one starting at `at` starts, or undefined when there is none: a
 * line feed that ends the text starts no line (the last line then holds it, as a line's text).
 */
function nextLine(text: string, at: number): number | undefined {
  const newline = text.indexOf('\n', at);
  return newline !== -1 && newline + 1 < text.length ? newline + 1 : undefined;
}

/** Returns the text of the line starting at `at`, without its line feed (but see nextLine). */
function lineFrom(text: string, at: number): string {
  const next = nextLine(text, at);
  return text.slice(at, next === undefined ? text.length : next - 1);
}
