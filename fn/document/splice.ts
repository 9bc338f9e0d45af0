/**
 * Text edits that set one field of a parsed document while leaving every other byte alone: a
 * new key is inserted after the last one of its map at the map's indentation, a new list item
 * after the last item, a changed scalar keeps its quoting. Flow collections get entries in their
 * own style (flow.ts).
 *
 * Returns undefined for shapes it does not handle (aliases, compact nested lists…); the caller then
 * falls back to editing the syntax tree, and verifies every edit either way (see manifest.ts).
 */
import { isMap, isPair, isScalar, isSeq, stringify, visit } from 'yaml';
import type { Document, Node, Pair, YAMLMap, YAMLSeq, Scalar } from 'yaml';
import { buildAt, setAt } from '../core/fieldPath.ts';
import { findItem } from './shared.ts';
import { flowPair, flowStyleOf, flowValue, lineIndentation, planFlowAppend } from './flow.ts';
import type { FieldPath } from '../core/fieldPath.ts';
import { longListText } from '../yaml/longLists.ts';
import { stringifyOptions } from '../yaml/options.ts';
import { columnOf } from '../core/positions.ts';
import { withMovedText } from './move.ts';
import type { BlockWriter } from './move.ts';
import type { Edit, FieldSet, ParsedText } from './edit.ts';

type Holder =
  | { readonly kind: 'root' }
  | { readonly kind: 'pair'; readonly pair: Pair<Node, Node | null>; readonly parent: YAMLMap }
  | { readonly kind: 'item'; readonly parent: YAMLSeq };

/** Returns `source` with `value` set at `path`, or undefined when the shape needs a tree edit. */
export function spliceSet(
  source: string,
  doc: Document,
  path: FieldPath,
  value: unknown,
): string | undefined {
  return spliceAll(source, doc, [{ path, value }]);
}

/** Returns `source` with every field set (see planSplices), or undefined. */
export function spliceAll(
  source: string,
  doc: Document,
  sets: readonly FieldSet[],
): string | undefined {
  const edits = planSplices(source, doc, sets);
  return edits && applySplices(source, edits);
}

/**
 * Returns the text edits that set every field, all planned on the one parse `doc` (issue #9: one
 * check for a document's edits, not one per edit), in the original text's offsets and in the
 * order they go in; undefined when one needs a tree edit or two edits overlap. Two insertions at
 * one offset keep their order. Edits that each create the same missing map give a duplicate key,
 * which the caller's check turns down.
 */
export function planSplices(
  source: string,
  doc: Document,
  sets: readonly FieldSet[],
): Edit[] | undefined {
  const planned: Edit[] = [];
  const crlf = source.includes('\r\n');
  for (const { path, value } of sets) {
    const edit = planEdit(source, doc, path, value);
    if (!edit) return undefined;
    planned.push(edit);
  }
  const edits = withMovedText(new Layout(source, doc), sets, planned).map((edit) =>
    crlf ? { ...edit, text: edit.text.replace(/\r?\n/g, '\r\n') } : edit,
  );
  // Last edit first, so offsets before it stay valid; at one offset the later edit goes in first
  // and ends up after the earlier one. Spans may touch but not overlap.
  const order = edits
    .map((edit, index) => ({ edit, index }))
    .sort((a, b) => b.edit.start - a.edit.start || b.index - a.index);
  for (let i = 1; i < order.length; i++) {
    if (order[i]!.edit.end > order[i - 1]!.edit.start) return undefined;
  }
  return order.map((o) => o.edit);
}

/** Returns whether block lists under a key are indented in `doc`, as new fields in it are. */
export function indentSeqOf(source: string, doc: Document): boolean {
  return new Layout(source, doc).indentSeq();
}

/**
 * Returns `source` with the planned edits made. Edits come last first, as planSplices orders them:
 * each ends where the one before it starts, or earlier, so making them one after the other is
 * making them from the front in one pass. That pass copies the text once: one copy per edit was
 * quadratic on a `kind: List` of hundreds of workloads, whose edits all go into one document.
 */
export function applySplices(source: string, edits: readonly Edit[]): string {
  const parts: string[] = [];
  let at = source.length;
  for (const edit of edits) {
    if (edit.end > at || edit.start > edit.end)
      throw new Error(`internal: splice [${edit.start}, ${edit.end}) is out of order`);
    parts.push(source.slice(edit.end, at), edit.text);
    at = edit.start;
  }
  parts.push(source.slice(0, at));
  return parts.reverse().join('');
}

function planEdit(
  source: string,
  doc: Document,
  path: FieldPath,
  value: unknown,
): Edit | undefined {
  const layout = new Layout(source, doc);
  let node = doc.contents;
  let holder: Holder = { kind: 'root' };
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    const rest = path.slice(i + 1);
    if (isEmptyFlowInBlock(node, holder)) {
      // `annotations:\n  {}` as Helm renders it: becomes a block map rather than `{"k": "v"}`.
      return layout.replace(holder, node, setAt(isMap(node) ? {} : [], path.slice(i), value));
    }
    if (isMap(node) && typeof segment === 'string') {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment) as
        Pair<Node, Node | null> | undefined;
      if (!pair) return layout.insertPair(node, segment, buildAt(rest, value));
      holder = { kind: 'pair', pair, parent: node };
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'object') {
      // The name may come from a merge key (`- <<: *c`): that item is the container, and a field
      // set on it goes into its own map, over what the merge gives (shared.ts).
      const item = findItem(doc, node, segment);
      if (!item)
        return layout.appendItem(node, setAt({ [segment.key]: segment.equals }, rest, value));
      holder = { kind: 'item', parent: node };
      node = item;
    } else if (isSeq(node) && typeof segment === 'number') {
      // One past the last item: a new last item (setAt in fn/core/fieldPath.ts does the same).
      if (segment === node.items.length && rest.length === 0) return layout.appendItem(node, value);
      const item = node.items[segment] as Node | undefined;
      if (!item) return undefined;
      holder = { kind: 'item', parent: node };
      node = item;
    } else if (node === null || (isScalar(node) && node.value === null)) {
      return layout.replace(holder, node, buildAt(path.slice(i), value));
    } else {
      return undefined;
    }
  }
  // `undefined` removes what the path names (fn/core/fieldPath.ts setAt).
  if (value === undefined)
    return holder.kind === 'item' ? layout.removeItem(holder.parent, node) : undefined;
  return layout.replace(holder, node, value);
}

/**
 * Returns the edit that replaces `target` (a node of `doc`, e.g. an alias) with `value` written
 * out, or undefined when the shape needs a tree edit.
 */
export function planReplaceNode(
  source: string,
  doc: Document,
  target: Node,
  value: unknown,
): Edit | undefined {
  let holder: Holder | undefined;
  visit(doc, {
    Node(_key, node, path) {
      if (node !== target) return undefined;
      const parent = path.at(-1);
      if (isPair(parent) && isMap(path.at(-2)))
        holder = {
          kind: 'pair',
          pair: parent as Pair<Node, Node | null>,
          parent: path.at(-2) as YAMLMap,
        };
      else if (isSeq(parent)) holder = { kind: 'item', parent };
      return visit.BREAK;
    },
  });
  return holder && new Layout(source, doc).replace(holder, target, value);
}

/** Returns the edit that adds the entry `key: value` at the end of `map`, or undefined. */
export function planInsertPair(
  { source, doc }: ParsedText,
  map: YAMLMap,
  key: string,
  value: unknown,
): Edit | undefined {
  return new Layout(source, doc).insertPair(map, key, value);
}

function isEmptyFlowInBlock(node: Node | null, holder: Holder): boolean {
  return (
    (isMap(node) || isSeq(node)) &&
    node.flow === true &&
    node.items.length === 0 &&
    holder.kind !== 'root' &&
    !holder.parent.flow
  );
}

const isPlainData = (value: unknown) => value === null || typeof value !== 'object';

/** Knows where things are in the source text and how this document indents. */
class Layout implements BlockWriter {
  #indentSeq: boolean | undefined;

  constructor(
    readonly source: string,
    readonly doc: Document,
  ) {}

  /** Column (0-based) of a source offset. */
  column(offset: number): number {
    return columnOf(this.source, offset);
  }

  /**
   * Whether block lists under a key are indented (`key:\n  - a`) in this document, as Helm charts
   * vary.
   */
  indentSeq(): boolean {
    if (this.#indentSeq === undefined)
      this.#indentSeq = detectIndentSeq(this.doc, (o) => this.column(o));
    return this.#indentSeq;
  }

  /** Block YAML for `value`, every line after the first indented to `column`. */
  block(value: unknown, column: number, indentSeq = this.indentSeq()): string {
    const text = blockText(value, indentSeq);
    // At column 0 there is nothing to add: no copy (the results of a big list are megabytes).
    return column === 0 ? text : text.replace(/\n(?!$)/g, `\n${' '.repeat(column)}`);
  }

  insertPair(map: YAMLMap, key: string, value: unknown): Edit | undefined {
    if (map.flow) {
      const style = flowStyleOf(this.source, this.doc, map);
      return planFlowAppend(this.source, map, style, (column) =>
        flowPair(key, value, style, column),
      );
    }
    const first = map.items[0]?.key as Node | undefined;
    if (!first?.range || !map.range) return undefined;
    return this.insertLines(map.range[1], this.column(first.range[0]), { [key]: value });
  }

  appendItem(seq: YAMLSeq, item: unknown): Edit | undefined {
    if (seq.flow) {
      const style = flowStyleOf(this.source, this.doc, seq);
      return planFlowAppend(this.source, seq, style, (column) => flowValue(item, style, column));
    }
    if (!seq.range) return undefined;
    return this.insertLines(seq.range[1], this.column(seq.range[0]), [item]);
  }

  /**
   * Removes an item of a block list with the lines it stands on: from the line of its `-` (when
   * nothing but blanks comes before the indicator) to the end of its last line. Comments between
   * its lines go with it; any other shape is left to the tree edit.
   */
  removeItem(seq: YAMLSeq, item: Node | null): Edit | undefined {
    if (seq.flow || !item?.range) return undefined;
    const start = this.source.lastIndexOf('\n', item.range[0] - 1) + 1;
    if (!/^[ \t]*-[ \t]+$/.test(this.source.slice(start, item.range[0]))) return undefined;
    const lineEnd = this.source.indexOf('\n', Math.max(item.range[1] - 1, item.range[0]));
    const end = lineEnd === -1 ? this.source.length : lineEnd + 1;
    return { start, end, text: '' };
  }

  replace(holder: Holder, node: Node | null, value: unknown): Edit | undefined {
    if (holder.kind === 'root') return undefined;
    if (holder.parent.flow) {
      if (!node?.range) return undefined;
      // A scalar keeps its quoting, unless a plain one would then hold what ends a flow entry.
      if (isScalar(node) && isPlainData(value)) {
        const inline = renderScalar(value, node);
        if (
          inline !== undefined &&
          (node.type === 'QUOTE_DOUBLE' ||
            node.type === 'QUOTE_SINGLE' ||
            !/[,[\]{}#]|:(?: |$)/.test(inline))
        )
          return { start: node.range[0], end: node.range[1], text: inline };
      }
      const style = flowStyleOf(this.source, this.doc, holder.parent);
      return {
        start: node.range[0],
        end: node.range[1],
        text: flowValue(value, style, lineIndentation(this.source, node.range[0])),
      };
    }
    if (
      node &&
      isScalar(node) &&
      isPlainData(value) &&
      node.range &&
      node.range[1] > node.range[0]
    ) {
      const inline = renderScalar(value, node);
      if (inline !== undefined) return { start: node.range[0], end: node.range[1], text: inline };
    }
    if (holder.kind === 'pair') {
      const key = holder.pair.key;
      const end = node?.range?.[1] ?? key.range?.[1];
      if (!key.range || end === undefined) return undefined;
      const column = this.column(key.range[0]);
      // A list that is replaced keeps its own indentation style (`key:\n- a` or `key:\n  - a`).
      const ownStyle =
        isSeq(node) && !node.flow && node.range ? this.column(node.range[0]) > column : undefined;
      // A merge key's value is a symbol in the yaml-1.1 schema: it is written back as `<<`.
      const name = (key as Scalar).value;
      const keyText = typeof name === 'symbol' ? (name.description ?? '<<') : String(name);
      return {
        start: key.range[0],
        end: this.trimNewline(end),
        text: this.block({ [keyText]: value }, column, ownStyle),
      };
    }
    if (!node?.range) return undefined;
    return {
      start: node.range[0],
      end: this.trimNewline(node.range[1]),
      text: this.block(value, this.column(node.range[0])),
    };
  }

  /** Block scalars end after their last line break; an edit keeps that break in place. */
  private trimNewline(end: number): number {
    if (this.source[end - 1] !== '\n') return end;
    return this.source[end - 2] === '\r' ? end - 2 : end - 1;
  }

  private insertLines(valueEnd: number, column: number, data: unknown): Edit | undefined {
    const indent = ' '.repeat(column);
    const text = this.block(data, column);
    if (this.source[valueEnd - 1] === '\n')
      return { start: valueEnd, end: valueEnd, text: `${indent}${text}\n` };
    // Insert after a trailing comment on the last line, so the comment stays with its own line.
    const newline = this.source.indexOf('\n', valueEnd);
    let lineEnd = newline === -1 ? this.source.length : newline;
    if (this.source[lineEnd - 1] === '\r') lineEnd--;
    if (!/^[ \t]*(?:#.*)?$/.test(this.source.slice(valueEnd, lineEnd))) return undefined;
    return { start: lineEnd, end: lineEnd, text: `\n${indent}${text}` };
  }
}

/**
 * The block YAML texts made so far, by value (as JSON) and list style. Mutators write the same few
 * values into every workload (a preStop sleep, an annotation), and each stringify builds a whole
 * yaml Document: on 2,400 Deployments that was a tenth of the run (issue #16). Only plain data
 * is looked up (strings, finite numbers but -0, booleans, null, arrays without holes, plain
 * objects): what JSON tells apart exactly; anything else (a bigint, undefined) is printed each
 * time.
 */
const BLOCK_TEXTS = new Map<string, string>();
const MAX_BLOCK_TEXTS = 1024;

export function blockText(value: unknown, indentSeq: boolean): string {
  const print = (v: unknown) => printBlock(v, indentSeq);
  const long = longListText(value, indentSeq, print);
  if (long !== undefined) return long;
  const key = plainJson(value);
  const cached = key === undefined ? undefined : BLOCK_TEXTS.get(`${indentSeq}${key}`);
  if (cached !== undefined) return cached;
  const text = print(value);
  if (key !== undefined) {
    if (BLOCK_TEXTS.size >= MAX_BLOCK_TEXTS) BLOCK_TEXTS.clear();
    BLOCK_TEXTS.set(`${indentSeq}${key}`, text);
  }
  return text;
}

/**
 * The block YAML text of a value, made each time: for values written once, such as the KRM result
 * of each change (fn/krm/resultsInParts.ts), where looking the text up would only cost the JSON of
 * the value and a place in the table.
 */
export function printBlock(value: unknown, indentSeq: boolean): string {
  return stringify(value, stringifyOptions(indentSeq)).replace(/\n$/, '');
}

/** JSON of plain data, or undefined when the value holds anything else. */
function plainJson(value: unknown): string | undefined {
  let plain = true;
  const json = JSON.stringify(value, (_key, v: unknown) => {
    // -0 prints as -0 but is 0 in JSON; a hole in an array is null in JSON.
    if (
      v === null ||
      typeof v === 'string' ||
      typeof v === 'boolean' ||
      (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0))
    )
      return v;
    if (Array.isArray(v) && Object.keys(v).length === v.length) return v as unknown[];
    if (
      typeof v === 'object' &&
      Object.getPrototypeOf(v) === Object.prototype &&
      Object.getOwnPropertySymbols(v).length === 0
    )
      return v;
    plain = false;
    return null;
  });
  return plain ? json : undefined;
}

/**
 * The scalar in the style the old one had (plain, single or double quoted), if it fits on one line.
 */
function renderScalar(value: unknown, old: Scalar): string | undefined {
  if (old.type === 'BLOCK_LITERAL' || old.type === 'BLOCK_FOLDED') return undefined;
  const type = old.type === 'QUOTE_SINGLE' || old.type === 'QUOTE_DOUBLE' ? old.type : 'PLAIN';
  const text = stringify(value, {
    ...stringifyOptions(),
    defaultStringType: type,
    defaultKeyType: 'PLAIN',
  }).replace(/\n$/, '');
  return text.includes('\n') ? undefined : text;
}

function detectIndentSeq(doc: Document, column: (offset: number) => number): boolean {
  let answer: boolean | undefined;
  const visit = (node: unknown, depth: number): void => {
    if (answer !== undefined || depth > 64) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        const value = pair.value as Node | null;
        const key = pair.key as Node | null;
        if (isSeq(value) && !value.flow && value.range && key?.range) {
          answer = column(value.range[0]) > column(key.range[0]);
          return;
        }
        visit(value, depth + 1);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item, depth + 1);
    }
  };
  visit(doc.contents, 0);
  return answer ?? true;
}
