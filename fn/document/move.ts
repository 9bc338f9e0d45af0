/**
 * An item moved from one block list to another keeps its text: a Job's sidecar that leaves
 * `containers` for `initContainers` (fn/mutators/job/declared.ts) is two field sets, one removing
 * the item and one adding it with a field more (`restartPolicy: Always`). Written from data, the
 * added item lost the chart's comments and quoting. Where the two sets pair up, the added item is
 * the removed item's lines, re-indented to the new list, with the added fields' lines after its
 * first line. Nothing here decides what is right: the caller checks the result against the data
 * (manifest.ts), and falls back to the item written from data when it differs.
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, isSeq } from 'yaml';
import type { Document, Node } from 'yaml';
import type { FieldPath, PathSegment } from '../core/fieldPath.ts';
import { isRecord } from '../core/fieldPath.ts';
import { toJsOptions } from '../yaml/options.ts';
import { columnOf } from '../core/positions.ts';
import { findItem } from './shared.ts';
import type { Edit, FieldSet, ParsedText } from './edit.ts';

/** A parsed document that writes values as block YAML in its own layout (splice.ts Layout). */
export interface BlockWriter extends ParsedText {
  /** Block YAML for `value`, every line after the first indented to `column`. */
  block(value: unknown, column: number): string;
}

/** A field set that removes an item, with its edit and the item's node. */
interface Removal {
  readonly set: FieldSet;
  readonly edit: Edit;
  readonly node: Node | undefined;
}

/**
 * Returns `edits` (one per set, in the sets' order) with each added item that another set removes
 * written from the removed item's text; the others as they were.
 */
export function withMovedText(
  writer: BlockWriter,
  sets: readonly FieldSet[],
  edits: readonly Edit[],
): Edit[] {
  const removals: Removal[] = sets.flatMap((set, i) =>
    set.value === undefined ? [{ set, edit: edits[i]!, node: nodeAt(writer.doc, set.path) }] : [],
  );
  if (removals.length === 0) return [...edits];
  const result: Edit[] = [];
  /** The first moved item that opens a new list, by offset and the key lines it writes. */
  const opened = new Map<string, number>();
  for (const [i, edit] of edits.entries()) {
    const { path, value } = sets[i]!;
    const selector = path.at(-1);
    const removal =
      isRecord(value) && typeof selector === 'object' && edit.start === edit.end
        ? removals.find((r) => sameSelector(r.set.path.at(-1), selector))
        : undefined;
    const moved =
      removal?.node?.range && isRecord(value) ? movedItem(writer, removal, value, edit) : undefined;
    if (!moved) {
      result.push(edit);
      continue;
    }
    // Two items moved into one list the document does not have yet would each write the list's
    // key: the second goes into the first's list instead.
    const key = `${moved.edit.start}\n${moved.prefix}`;
    const first = moved.prefix === '' ? undefined : opened.get(key);
    if (first === undefined) {
      if (moved.prefix !== '') opened.set(key, result.length);
      result.push(moved.edit);
      continue;
    }
    const into = result[first]!;
    const item = moved.edit.text.slice(moved.prefix.length);
    result[first] = { ...into, text: into.text.replace(/\n?$/, '\n') + item };
    result.push({ start: moved.edit.start, end: moved.edit.start, text: '' });
  }
  return result;
}

function sameSelector(a: PathSegment | undefined, b: PathSegment): boolean {
  return typeof a === 'object' && typeof b === 'object' && a.key === b.key && a.equals === b.equals;
}

/** The node at `path` (keys and keyed items only), or undefined. */
function nodeAt(doc: Document, path: FieldPath): Node | undefined {
  let node: unknown = doc.contents;
  for (const segment of path) {
    if (isMap(node) && typeof segment === 'string') node = node.get(segment, true);
    else if (isSeq(node) && typeof segment === 'object') node = findItem(doc, node, segment);
    else return undefined;
  }
  return node as Node | undefined;
}

/**
 * Returns the insertion `added` with the removed item's lines instead of the item written from
 * data, or undefined when the item is not the removed one plus new fields at the top level.
 */
function movedItem(
  writer: BlockWriter,
  { node, edit: removal }: Removal,
  value: Record<string, unknown>,
  added: Edit,
): { edit: Edit; prefix: string } | undefined {
  const { source, doc } = writer;
  if (!node) return undefined;
  const data = node.toJS(doc, toJsOptions()) as unknown;
  if (!isRecord(data)) return undefined;
  const extra = Object.keys(value).filter((key) => !(key in data));
  const rest = Object.fromEntries(Object.entries(value).filter(([key]) => !extra.includes(key)));
  if (extra.length === 0 || !isDeepStrictEqual(rest, data)) return undefined;
  // The insertion ends with the new item: after the lines of a new key (`initContainers:`) when
  // the list is new, or alone. Its `-` is where the item's indicator goes.
  const lead = /^( *)- /m.exec(added.text);
  if (!lead) return undefined;
  const prefix = added.text.slice(0, lead.index);
  if (prefix !== '' && !prefix.endsWith('\n')) return undefined;
  const lines = source.slice(removal.start, removal.end);
  const from = columnOf(source, removal.start + lines.indexOf('-'));
  const to = lead[1]!.length;
  const shift = (line: string) =>
    line.trim() === '' ? line : ' '.repeat(to) + line.slice(Math.min(from, indentOf(line)));
  const moved = lines.replace(/\n$/, '').split('\n').map(shift);
  const content = columnOf(source, node.range![0]) - from;
  const fields = extra.map((key) =>
    writer.block({ [key]: value[key] }, to + content).replace(/\n$/, ''),
  );
  const text = [moved[0]!, ...fields.map((f) => ' '.repeat(to + content) + f), ...moved.slice(1)]
    .map((line) => line.replace(/\r$/, ''))
    .join('\n');
  // Line feeds only: the caller writes a CRLF text's line ends (splice.ts planSplices). The
  // insertion ends as it did: with a line feed, or none when it went in before one.
  const end = added.text.endsWith('\n') ? '\n' : '';
  return { edit: { start: added.start, end: added.end, text: `${prefix}${text}${end}` }, prefix };
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}
