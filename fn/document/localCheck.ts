/**
 * Checks text splices by re-parsing only the parts of the document that hold them, instead of the
 * whole document (issue #9: re-parsing every edited Deployment was a quarter of a run on argo-cd).
 *
 * A region is one entry of a block mapping (from its key to the next key) or one item of a block
 * sequence (from its `-` to the next `-`), at column c. When every content line of the region's
 * new text is indented at least c and the text ends where the old one did (at a line start, or at
 * the indentation of the line after it), YAML reads that text inside the document exactly as it
 * reads the text alone behind c spaces: a block collection at indentation c ends only at a line
 * indented less than c (a line at c is a sibling in the same collection), and what follows the
 * region (the next sibling, or a line indented less than c) ends whatever the region left open, as
 * the end of the text does. The text alone may hold more than the one entry or item: entries or
 * items added after it (a key added at the end of a map, an item appended to a list). So if it
 * reads as the expected entries or items, with no key that another entry of the map already has,
 * the document reads as the expected data there; every byte outside the regions is unchanged.
 *
 * Two more conditions make that the whole document: every field set lies under a checked region
 * (the expected data differs from the old data only along the set paths), and nothing ties one part
 * of the document to another. Anchors and aliases, merge keys (`<<`), directives (`%TAG`), flow
 * roots and keys that are not plain strings are refused, and the caller re-parses the whole
 * document instead. A region that does not read as expected is widened to the one that holds it,
 * up to the document's top-level entries. test/document/local-check.test.ts holds the properties
 * that back this: whenever the check accepts, a full parse agrees.
 */
import { isDeepStrictEqual } from 'node:util';
import { isAlias, isMap, isScalar, isSeq, parseDocument, visit } from 'yaml';
import type { Document, Node, ParsedNode } from 'yaml';
import { parseOptions, toJsOptions } from '../yaml/options.ts';
import { columnOf, lineStartOf } from '../core/positions.ts';
import { TextMemo } from '../core/textMemo.ts';
import type { Edit } from './edit.ts';

/** A step of a path in plain data: a map key or a list index. */
export type DataPath = ReadonlyArray<string | number>;

/** An entry or item of a block collection, with where it stands in the data. */
export interface Region {
  readonly start: number;
  readonly end: number;
  readonly column: number;
  readonly kind: 'entry' | 'item';
  /** Where the collection that holds the region is in the data. */
  readonly collectionPath: DataPath;
  /** Entries: the key. */
  readonly key?: string;
  /** Entries: the keys of the map's other entries. */
  readonly otherKeys?: readonly string[];
  /** Items: the index, and how many items the list has. */
  readonly index?: number;
  readonly count?: number;
  readonly parent?: Region;
}

/** Edits of a text: the text before (`source`), the edits in its offsets, and the text after. */
export interface Splice {
  readonly source: string;
  readonly edits: readonly Edit[];
  readonly spliced: string;
}

/** What a spliced text must read as: the data, and the data paths of the fields set in it. */
export interface Expectation {
  readonly expected: unknown;
  readonly setPaths: readonly DataPath[];
}

/**
 * Returns true when `splice.spliced` certainly parses to `expected`, having re-parsed only the
 * regions that hold the edits; false when that could not be shown this way. `doc` is the parse of
 * `splice.source`; `setPaths` are the data paths of the fields the edits set, as they are in
 * `expected`.
 */
export function checkEditsLocally(
  doc: Document,
  splice: Splice,
  { expected, setPaths }: Expectation,
): boolean {
  const { source, edits } = splice;
  if (edits.length === 0 || !isolated(source, doc)) return false;
  const cache = new Map<string, Region>();
  // Each edit starts in the innermost region that holds it; regions that hold one another merge.
  let chosen: Array<Region | undefined> = edits.map((edit) =>
    regionChain(source, doc, edit, cache).at(-1),
  );
  for (let round = 0; round < 64; round++) {
    if (chosen.some((region) => region === undefined)) return false;
    const merged = mergeNested(chosen as Region[]);
    const covered: DataPath[] = [];
    const failed = new Set<Region>();
    for (const region of new Set(merged)) {
      const reading = readRegion(region, splice, expected);
      if (reading === undefined) failed.add(region);
      else covered.push(...reading);
    }
    if (failed.size === 0)
      return setPaths.every((path) => covered.some((prefix) => startsWith(path, prefix)));
    chosen = merged.map((region) => (failed.has(region) ? region.parent : region));
  }
  return false;
}

/** Whether nothing in the document can make one part's meaning depend on another part's text. */
function isolated(source: string, doc: Document): boolean {
  if (/^%/m.test(source) || source.includes('<<')) return false;
  if (!isMap(doc.contents) || doc.contents.flow) return false;
  if (!source.includes('&') && !source.includes('*')) return true; // no anchor, no alias
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
  const walk = (at: Collection): void => {
    const children = childRegions(source, at);
    if (children === undefined) return;
    for (const child of children) {
      if (child.region) regions.push(child.region);
      walk({
        node: child.node,
        path: child.path,
        parent: child.region ?? at.parent,
        end: child.region?.end ?? at.end,
      });
    }
  };
  walk({ node: doc.contents, path: [], parent: undefined, end: source.length });
  return regions;
}

/**
 * The regions that hold the edit, outermost first: found by going down the tree only where the
 * edit is (a document has hundreds of entries; an edit lies in a handful). `cache` keeps one
 * object per region across the edits of one check, so that regions compare by identity.
 */
function regionChain(
  source: string,
  doc: Document,
  edit: Edit,
  cache: Map<string, Region>,
): Region[] {
  const chain: Region[] = [];
  const lines = edit.text.split('\n');
  // An edit that begins a line (an inserted entry) also writes its first line at its indentation,
  // inside any region that starts before it; the lines after its line breaks, inside any region.
  const atLineStart = source[edit.start - 1] === '\n';
  const written = (region: Region) =>
    atLineStart && region.start < edit.start ? lines : lines.slice(1);
  let node = doc.contents;
  let path: DataPath = [];
  let parent: Region | undefined;
  let end = source.length;
  for (;;) {
    const children = childRegions(source, { node, path, parent, end });
    const child = children?.find((c) => c.region !== undefined && holds(c.region, edit));
    // A region deeper than a line the edit writes cannot hold it (readRegion refuses it, and every
    // region inside it, which is no shallower): the chain ends above it. A key added at the end of
    // a map lies at the end of the map's last, deeper entries; starting there, the check used to
    // re-parse and refuse each of them in turn (issue #16: on bookinfo, two of three re-parses).
    if (!child || !mayHold(child.region!, written(child.region!))) return chain;
    const key = `${child.region!.start}:${child.region!.end}`;
    const region = cache.get(key) ?? child.region!;
    cache.set(key, region);
    chain.push(region);
    ({ node, path } = child);
    parent = region;
    end = region.end;
  }
}

/**
 * Whether a region could vouch for an edit that writes these lines, as far as their indentation
 * tells (readRegion decides): none is shallower than the region, and in a list item none at the
 * item's own column but a further `-` item (anything else there ends the list). Only narrows
 * where the check starts: a region wrongly passed over would only make it read a larger one.
 */
function mayHold(region: Region, lines: readonly string[]): boolean {
  for (const line of lines) {
    const content = line.trimStart();
    if (content === '' || content === '\r' || content.startsWith('#')) continue;
    const indent = line.length - content.length;
    if (
      indent < region.column ||
      (region.kind === 'item' && indent === region.column && !content.startsWith('-'))
    )
      return false;
  }
  return true;
}

/**
 * A node whose entries or items may be cut into regions: where it is in the data, the region that
 * holds it, and where that region ends (the document's end at the top).
 */
interface Collection {
  readonly node: Node | null;
  readonly path: DataPath;
  readonly parent: Region | undefined;
  readonly end: number;
}

/** A child of a collection: its value node and data path, and its region when it has one. */
interface Child {
  readonly node: Node | null;
  readonly path: DataPath;
  readonly region?: Region;
}

/**
 * The entries (items) of a block collection with their regions. A collection is cut into
 * regions only when every entry (item) has a start to cut at: string keys (Kubernetes keys are
 * strings; other keys, tagged ones and `? ` keys leave it whole), and a `-` before every item.
 * Undefined for anything else (scalars, flow collections).
 */
function childRegions(
  source: string,
  { node, path, parent, end }: Collection,
): Child[] | undefined {
  const column = (offset: number) => columnOf(source, offset);
  const withParent = parent ? { parent } : {};
  if (isMap(node) && !node.flow) {
    const keys = node.items.map((pair) => pair.key as ParsedNode | null);
    const cut = keys.every(
      (key) =>
        isScalar(key) &&
        key.range &&
        typeof key.value === 'string' &&
        !key.tag &&
        source[key.range[0] - 2] !== '?',
    );
    const names = keys.map((key) => String((key as { value?: unknown } | null)?.value));
    return node.items.map((pair, i) => {
      const value = pair.value as Node | null;
      if (!cut) return { node: value, path: [...path, names[i]!] };
      const start = keys[i]!.range[0];
      const next = keys[i + 1];
      const regionEnd = next ? next.range[0] : lastEnd(source, node.range?.[1], end);
      const otherKeys = names.filter((_, j) => j !== i);
      const region: Region = {
        start,
        end: regionEnd,
        column: column(start),
        kind: 'entry',
        collectionPath: path,
        key: names[i]!,
        otherKeys,
        ...withParent,
      };
      return { node: value, path: [...path, names[i]!], region };
    });
  }
  if (isSeq(node) && !node.flow) {
    const starts = node.items.map((item) =>
      dashBefore(source, (item as ParsedNode | null)?.range?.[0]),
    );
    const cut = starts.every((start) => start !== undefined);
    return node.items.map((item, i) => {
      if (!cut) return { node: item as Node | null, path: [...path, i] };
      const start = starts[i]!;
      const regionEnd = starts[i + 1] ?? lastEnd(source, node.range?.[1], end);
      const region: Region = {
        start,
        end: regionEnd,
        column: column(start),
        kind: 'item',
        collectionPath: path,
        index: i,
        count: node.items.length,
        ...withParent,
      };
      return { node: item as Node | null, path: [...path, i], region };
    });
  }
  return undefined;
}

/**
 * Where the last entry or item of a collection ends: after the line break that ends the
 * collection's last line when only blanks or a comment follow it there (so the region ends at a
 * line start), else where the collection ends (such a region is never checked alone, see
 * readRegion). Never beyond the enclosing region.
 */
function lastEnd(source: string, collectionEnd: number | undefined, bound: number): number {
  if (collectionEnd === undefined) return bound;
  if (source[collectionEnd - 1] === '\n') return Math.min(collectionEnd, bound);
  const newline = source.indexOf('\n', collectionEnd);
  const lineEnd = newline === -1 ? source.length : newline + 1;
  if (!/^[ \t]*(?:#[^\n]*)?\r?\n?$/.test(source.slice(collectionEnd, lineEnd)))
    return Math.min(collectionEnd, bound);
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
  while (
    at >= 0 &&
    (source[at] === ' ' || source[at] === '\t' || source[at] === '\n' || source[at] === '\r')
  )
    at--;
  return source[at] === '-' ? at : undefined;
}

/** Whether the edit lies within the region: an insertion at its very start belongs before it. */
function holds(region: Region, edit: Edit): boolean {
  const startsInside =
    edit.start > region.start || (edit.start === region.start && edit.end > edit.start);
  return startsInside && edit.end <= region.end;
}

/**
 * Replaces each region by the outermost chosen region that holds it (regions nest or are apart).
 */
function mergeNested(chosen: readonly Region[]): Region[] {
  return chosen.map((region) => {
    let outer = region;
    for (const other of chosen) if (other !== outer && isAncestor(other, outer)) outer = other;
    return outer;
  });
}

function isAncestor(outer: Region, inner: Region): boolean {
  for (let r: Region | undefined = inner.parent; r; r = r.parent) if (r === outer) return true;
  return false;
}

/**
 * Where an original offset is in the spliced text. Edits that end at or before it come before it:
 * at a region's start, an insertion there belongs to what precedes the region; at its end, an
 * insertion there belongs to the region (see holds).
 */
function moved(offset: number, edits: readonly Edit[]): number {
  let shift = 0;
  for (const edit of edits)
    if (edit.end <= offset) shift += edit.text.length - (edit.end - edit.start);
  return offset + shift;
}

/**
 * Reads the region's new text alone behind its indentation. Returns the data paths it vouches
 * for (the entries or items it reads, each as expected), or undefined when it cannot vouch.
 */
function readRegion(
  region: Region,
  { source, edits, spliced }: Splice,
  expected: unknown,
): DataPath[] | undefined {
  const collection = dataAt(expected, region.collectionPath);
  if (!collection.found) return undefined;
  const text = spliced.slice(moved(region.start, edits), moved(region.end, edits));
  // The region ends at a line start, or at the indentation of the line after it; the new text
  // ends the same way, so the line after it reads as before.
  const lineStart = lineStartOf(source, region.end);
  const tail = source.slice(lineStart, region.end);
  if (lineStart <= region.start || !/^ *$/.test(tail) || !text.endsWith(`\n${tail}`))
    return undefined;
  // It starts where the old one did: the key, or the `-` of the item, at the region's column.
  if (region.kind === 'item' ? !/^-(?:[ \r\n]|$)/.test(text) : /^[\s#]/.test(text))
    return undefined;
  // Every content line after the first stays at the region's column or deeper, indented with
  // spaces, and no line is a document marker.
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^(?:---|\.\.\.)(?:[ \t\r]|$)/.test(line)) return undefined;
    const content = line.trimStart();
    if (content === '' || content === '\r' || content.startsWith('#')) continue;
    const indent = line.length - content.length;
    if (indent < region.column || line.slice(0, indent).includes('\t')) return undefined;
  }
  const reading = readings.get(' '.repeat(region.column) + text, readAlone);
  if (reading === undefined) return undefined;
  return region.kind === 'entry'
    ? readEntries(region, reading, collection.value)
    : readItems(region, reading, collection.value);
}

/**
 * What a region's text reads as alone: a block map's keys (every one a plain string) with its
 * data, or a block list's data; undefined for anything else (bad YAML, a flow or empty
 * collection, a key that is not a plain string), which vouches for nothing.
 */
type Alone =
  | { readonly keys: readonly string[]; readonly data: unknown }
  | { readonly list: true; readonly data: unknown }
  | undefined;

/**
 * Regions read so far, by text. The workloads of a dense stream often share their pod templates
 * (one chart in many namespaces), so the same region text is read again (issue #16: two parses
 * per Deployment on bookinfo in 100 namespaces, a tenth of the run).
 */
const readings = new TextMemo<Alone>(256, 16_384);

function readAlone(text: string): Alone {
  let alone: Document;
  let data: unknown;
  try {
    alone = parseDocument(text, parseOptions());
    if (alone.errors.length > 0) return undefined;
    data = alone.toJS(toJsOptions());
  } catch {
    return undefined;
  }
  const root = alone.contents;
  if (isSeq(root) && !root.flow && root.items.length > 0) return { list: true, data };
  if (!isMap(root) || root.flow || root.items.length === 0) return undefined;
  const keys: string[] = [];
  for (const pair of root.items) {
    if (!isScalar(pair.key) || typeof pair.key.value !== 'string' || pair.key.tag) return undefined;
    keys.push(pair.key.value);
  }
  return { keys, data };
}

/**
 * The entry's key first, maybe keys added after it, none that the map has elsewhere; each as
 * expected.
 */
function readEntries(
  region: Region,
  reading: NonNullable<Alone>,
  map: unknown,
): DataPath[] | undefined {
  if (!('keys' in reading) || map === null || typeof map !== 'object' || Array.isArray(map))
    return undefined;
  const { keys } = reading;
  const others = region.otherKeys!;
  if (keys[0] !== region.key || keys.some((key) => others.includes(key))) return undefined;
  // The map holds exactly the other entries (their text is unchanged) and the ones read here.
  if (
    Object.keys(map).length !== others.length + keys.length ||
    ![...others, ...keys].every((key) => Object.hasOwn(map, key))
  )
    return undefined;
  const read = reading.data as Record<string, unknown>;
  if (!keys.every((key) => isDeepStrictEqual(read[key], (map as Record<string, unknown>)[key])))
    return undefined;
  return keys.map((key) => [...region.collectionPath, key]);
}

/** The item, maybe items appended after it when it is the last; each as expected. */
function readItems(
  region: Region,
  reading: NonNullable<Alone>,
  list: unknown,
): DataPath[] | undefined {
  if (!('list' in reading) || !Array.isArray(list)) return undefined;
  const read = reading.data as unknown[];
  const index = region.index!;
  const count = region.count!;
  if (read.length > 1 && index !== count - 1) return undefined; // new items go at the end only
  if (list.length !== count - 1 + read.length) return undefined;
  if (!read.every((item, i) => isDeepStrictEqual(item, list[index + i]))) return undefined;
  return read.map((_, i) => [...region.collectionPath, index + i]);
}

function dataAt(data: unknown, path: DataPath): { found: boolean; value?: unknown } {
  let node = data;
  for (const step of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, step))
      return { found: false };
    node = (node as Record<string | number, unknown>)[step];
  }
  return { found: true, value: node };
}

function startsWith(path: DataPath, prefix: DataPath): boolean {
  return prefix.length <= path.length && prefix.every((step, i) => path[i] === step);
}
