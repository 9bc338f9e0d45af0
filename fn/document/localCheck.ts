/**
 * Checks text splices by re-parsing only the parts of the document that hold them, instead of the
 * whole document (issue #9: re-parsing every edited Deployment was a quarter of a run on argo-cd).
 *
 * A region is one entry of a block mapping (from its key to the next key) or one item of a block
 * sequence (from its `-` to the next `-`), at column c. When every content line of the region's
 * new text is indented at least c, YAML reads that text inside the document exactly as it reads
 * the text alone behind c spaces: a block collection at indentation c ends only at a line indented
 * less than c (a line at c is a sibling of the same collection), and what follows the region
 * (the next sibling, or a line indented less than c) ends whatever the region left open, as the
 * end of the text does. So if the text alone parses to exactly one entry with the same key (or one
 * item) whose value is the expected value, the document parses to the expected data: every byte
 * outside the regions is unchanged.
 *
 * What could tie a region to the rest of the document is refused, and the caller re-parses the
 * whole document instead: anchors and aliases, merge keys (`<<`), directives (`%TAG`), flow
 * collections (regions are taken in block collections only) and keys that are not scalars. A
 * region whose text does not read as one entry or item (an edit that adds a key to a map ends up
 * after that map's last entry) is widened to the region that holds it, up to the document's
 * top-level entries. test/engine/local-check.test.ts holds the property that backs this: whenever
 * the check accepts, a full parse agrees.
 */
import { dequal } from 'dequal';
import { isAlias, isMap, isScalar, isSeq, parseDocument, visit } from 'yaml';
import type { Document, Node, ParsedNode } from 'yaml';
import { parseOptions, toJsOptions } from '../yaml/options.ts';

/** A text edit in the original text's offsets. */
export interface SpliceEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** An entry or item of a block collection, with where it stands in the data. */
export interface Region {
  readonly start: number;
  readonly end: number;
  readonly column: number;
  readonly kind: 'entry' | 'item';
  /** The key (entries) or index (items) on the way from the root to this region's value. */
  readonly path: ReadonlyArray<string | number>;
  /** The key of an entry (string keys only). */
  readonly key?: string;
  readonly parent?: Region;
}

/**
 * Returns true when `spliced` (the source with `edits` made) certainly parses to `expected`, having
 * re-parsed only the regions that hold the edits; false when that could not be shown this way.
 */
export function checkEditsLocally(source: string, doc: Document, edits: readonly SpliceEdit[], spliced: string, expected: unknown): boolean {
  if (edits.length === 0 || !isolated(source, doc)) return false;
  const regions = regionsOf(source, doc);
  // Each edit starts in the innermost region that holds it; regions that hold one another merge.
  let chosen = edits.map((edit) => innermost(regions, edit));
  for (let round = 0; round < 64; round++) {
    if (chosen.some((region) => region === undefined)) return false;
    const merged = mergeNested(chosen as Region[]);
    const failed = new Set<Region>();
    for (const region of new Set(merged)) {
      if (!regionHolds(region, edits, source, spliced, expected)) failed.add(region);
    }
    if (failed.size === 0) return true;
    chosen = merged.map((region) => (failed.has(region) ? region.parent : region));
  }
  return false;
}

/** Whether nothing in the document can make one part's meaning depend on another part's text. */
function isolated(source: string, doc: Document): boolean {
  if (/^%/m.test(source) || source.includes('<<')) return false;
  if (!isMap(doc.contents) || doc.contents.flow) return false;
  let shared = false;
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node) || (node as { anchor?: string }).anchor) {
        shared = true;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return !shared;
}

/** Every entry and item of the document's block collections, outer ones before inner ones. */
export function regionsOf(source: string, doc: Document): Region[] {
  const regions: Region[] = [];
  const column = (offset: number) => offset - (source.lastIndexOf('\n', offset - 1) + 1);
  const walk = (node: Node | null, path: ReadonlyArray<string | number>, parent: Region | undefined, end: number): void => {
    // A collection is cut into regions only when every entry (item) has a start to cut at: string
    // keys (Kubernetes keys are strings; other keys, tagged ones and `? ` keys leave it whole).
    if (isMap(node) && !node.flow) {
      const keys = node.items.map((pair) => pair.key as ParsedNode | null);
      if (!keys.every((key) => isScalar(key) && key.range && typeof key.value === 'string' && !key.tag && source[key.range[0] - 2] !== '?')) {
        for (const pair of node.items) walk(pair.value as Node | null, path, parent, end);
        return;
      }
      node.items.forEach((pair, i) => {
        const key = keys[i] as ParsedNode & { range: [number, number, number]; value: string };
        const next = keys[i + 1];
        const regionEnd = next?.range ? next.range[0] : lastEnd(source, node.range?.[1], end);
        const region: Region = { start: key.range[0], end: regionEnd, column: column(key.range[0]), kind: 'entry', path: [...path, String(key.value)], key: String(key.value), ...(parent ? { parent } : {}) };
        regions.push(region);
        walk(pair.value as Node | null, region.path, region, regionEnd);
      });
    } else if (isSeq(node) && !node.flow) {
      const starts = node.items.map((item) => dashBefore(source, (item as ParsedNode | null)?.range?.[0]));
      if (starts.some((start) => start === undefined)) {
        for (const item of node.items) walk(item as Node | null, path, parent, end);
        return;
      }
      node.items.forEach((item, i) => {
        const start = starts[i]!;
        const regionEnd = starts[i + 1] ?? lastEnd(source, node.range?.[1], end);
        const region: Region = { start, end: regionEnd, column: column(start), kind: 'item', path: [...path, i], ...(parent ? { parent } : {}) };
        regions.push(region);
        walk(item as Node | null, region.path, region, regionEnd);
      });
    }
  };
  walk(doc.contents as Node | null, [], undefined, source.length);
  return regions;
}

/**
 * Where the last entry or item of a collection ends: after the line break that ends the
 * collection's last line when only blanks or a comment follow it there (so the region ends at a
 * line start), else where the collection ends (such a region is never checked alone, see
 * regionHolds). Never beyond the enclosing region.
 */
function lastEnd(source: string, collectionEnd: number | undefined, bound: number): number {
  if (collectionEnd === undefined) return bound;
  if (source[collectionEnd - 1] === '\n') return Math.min(collectionEnd, bound);
  const newline = source.indexOf('\n', collectionEnd);
  const lineEnd = newline === -1 ? source.length : newline + 1;
  if (!/^[ \t]*(?:#[^\n]*)?\r?\n?$/.test(source.slice(collectionEnd, lineEnd))) return Math.min(collectionEnd, bound);
  return Math.min(lineEnd, bound);
}

/**
 * The offset of the `-` that introduces a block sequence item starting at `itemStart` (on its
 * line, or on a line before with only blanks between); undefined when a comment or anything else
 * is in between, or the item is empty.
 */
function dashBefore(source: string, itemStart: number | undefined): number | undefined {
  if (itemStart === undefined) return undefined;
  let at = itemStart - 1;
  while (at >= 0 && (source[at] === ' ' || source[at] === '\t' || source[at] === '\n' || source[at] === '\r')) at--;
  return source[at] === '-' ? at : undefined;
}

/** Whether the edit lies within the region: an insertion at its very start belongs before it. */
function holds(region: Region, edit: SpliceEdit): boolean {
  const startsInside = edit.start > region.start || (edit.start === region.start && edit.end > edit.start);
  return startsInside && edit.end <= region.end;
}

function innermost(regions: readonly Region[], edit: SpliceEdit): Region | undefined {
  let found: Region | undefined;
  for (const region of regions) if (holds(region, edit)) found = region; // inner regions come later
  return found;
}

/** Replaces each region by the outermost chosen region that holds it (regions nest or are apart). */
function mergeNested(chosen: readonly Region[]): Region[] {
  return chosen.map((region) => {
    let outer = region;
    for (const other of chosen) if (other !== outer && other.start <= outer.start && outer.end <= other.end && isAncestor(other, outer)) outer = other;
    return outer;
  });
}

function isAncestor(outer: Region, inner: Region): boolean {
  for (let r: Region | undefined = inner; r; r = r.parent) if (r === outer) return true;
  return false;
}

/**
 * Where an original offset is in the spliced text. Edits that end at or before it come before it:
 * at a region's start, an insertion there belongs to what precedes the region; at its end, an
 * insertion there belongs to the region (see holds).
 */
function moved(offset: number, edits: readonly SpliceEdit[]): number {
  let shift = 0;
  for (const edit of edits) if (edit.end <= offset) shift += edit.text.length - (edit.end - edit.start);
  return offset + shift;
}

/** Whether the region's new text, alone behind its indentation, reads as the expected value. */
function regionHolds(region: Region, edits: readonly SpliceEdit[], source: string, spliced: string, expected: unknown): boolean {
  const want = dataAt(expected, region.path);
  if (!want.found) return false;
  const text = spliced.slice(moved(region.start, edits), moved(region.end, edits));
  // The region ends at a line start, or at the indentation of the line after it; the new text
  // ends the same way, so the line after it reads as before.
  const lineStart = source.lastIndexOf('\n', region.end - 1) + 1;
  const tail = source.slice(lineStart, region.end);
  if (lineStart <= region.start || !/^ *$/.test(tail) || !text.endsWith(`\n${tail}`)) return false;
  // It starts where the old one did: the key, or the `-` of the item, at the region's column.
  if (region.kind === 'item' ? !/^-(?:[ \r\n]|$)/.test(text) : /^[\s#]/.test(text)) return false;
  // Every content line after the first stays at the region's column or deeper, indented with
  // spaces, and no line is a document marker.
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^(?:---|\.\.\.)(?:[ \t\r]|$)/.test(line)) return false;
    const content = line.trimStart();
    if (content === '' || content === '\r' || content.startsWith('#')) continue;
    const indent = line.length - content.length;
    if (indent < region.column || line.slice(0, indent).includes('\t')) return false;
  }
  let alone: Document;
  try {
    alone = parseDocument(' '.repeat(region.column) + text, parseOptions());
  } catch {
    return false;
  }
  if (alone.errors.length > 0) return false;
  const root = alone.contents;
  let value: unknown;
  try {
    if (region.kind === 'entry') {
      if (!isMap(root) || root.flow || root.items.length !== 1) return false;
      const key = root.items[0]!.key;
      if (!isScalar(key) || key.value !== region.key || key.tag) return false;
      value = (alone.toJS(toJsOptions()) as Record<string, unknown>)[region.key as string];
    } else {
      if (!isSeq(root) || root.flow || root.items.length !== 1) return false;
      value = (alone.toJS(toJsOptions()) as unknown[])[0];
    }
  } catch {
    return false;
  }
  return dequal(value, want.value);
}

/** The value at a path of plain data, and whether it is there at all. */
function dataAt(data: unknown, path: ReadonlyArray<string | number>): { found: boolean; value?: unknown } {
  let node = data;
  for (const step of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, step)) return { found: false };
    node = (node as Record<string | number, unknown>)[step];
  }
  return { found: true, value: node };
}
