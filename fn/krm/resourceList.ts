/**
 * The KRM function contract (kustomize, kpt): a `ResourceList` in, the same with edited `items`
 * and appended `results` out. Each item's text is cut out of the list, edited like a stream
 * document and put back, so unchanged items and everything around them keep their bytes.
 *
 * Items of kinds no mutator reads are, as in a stream, neither parsed nor decoded when the list is
 * laid out as kpt and kustomize write it (layout.ts): a kpt package of 534 JSON schemas is read in
 * the time its workloads take (issue #16); the workload items are parsed only when the run reaches
 * them (DeferredItem, fn/engine/listPipeline.ts). Otherwise, or when anchors and aliases are about,
 * the whole list is parsed (sharedAnchors.ts handles items that share anchors, issue #15).
 */
import { isMap, isSeq } from 'yaml';
import type { Document, Node } from 'yaml';
import type { ExtraKind } from '../config/schema.ts';
import { ManifestDocument } from '../document/manifest.ts';
import type { Edit } from '../document/edit.ts';
import { KubeGracefulError } from '../core/errors.ts';
import { isCommentOnly, prescanKind, resourceHint } from '../document/prescan.ts';
import { prescanFlowKind } from '../document/prescanFlow.ts';
import { splitStream } from '../stream/split.ts';
import type { Segment } from '../stream/split.ts';
import { resourcesOf } from '../stream/stream.ts';
import { keepYoungGenerationSmall } from '../stream/youngGeneration.ts';
import {
  isCandidateKind,
  isMentionedObject,
  isWorkloadKind,
  objectKindsIn,
} from '../workloads/kinds.ts';
import { optimizeForLongRun } from '../stream/tiering.ts';
import type { ObjectKinds } from '../workloads/kinds.ts';
import type { Resource } from '../workloads/resource.ts';
import { MAX_ALIAS_COUNT } from '../yaml/options.ts';
import { appendResultsEdits } from './appendResults.ts';
import { isOwnResult } from './results.ts';
import { listLayout } from './layout.ts';
import type { ItemSpan, ListLayout } from './layout.ts';
import type { Frame } from './appendResults.ts';
import { expandExternalAliases, sharedAnchorItems, verifySharedItems } from './sharedAnchors.ts';
import type { DeferredItem, Item, ResourceListInput } from './resourceListInput.ts';
import { dedent, indent } from './indentation.ts';
import { columnOf, lineStartOf } from '../core/positions.ts';
import { newDocumentText } from '../document/newDocument.ts';
import { appendAll } from '../core/appendAll.ts';

export type { ResourceListInput } from './resourceListInput.ts';

/** How to read: `parseAll` parses every item; `extraKinds` tells, from the functionConfig, which
 * kinds are workloads. */
export interface ReadListOptions {
  readonly parseAll?: boolean;
  readonly extraKinds?: (functionConfig: unknown) => readonly ExtraKind[];
  /** The kinds object mutators change and read: parsed as well (the engine derives them from its
   * mutators). */
  readonly objectKinds?: ObjectKinds;
  /**
   * Items of workload kinds are not parsed here but as the run reaches them (DeferredItem), when
   * the list is laid out as kpt writes it; a caller that reads `resources` whole leaves this off.
   */
  readonly deferWorkloads?: boolean;
}

/** A line `kind: ResourceList` at the start of a line, as YAML (a comment may follow). */
export const RESOURCE_LIST_KIND_LINE =
  /^kind:[ \t]*["']?ResourceList["']?(?:[ \t]+#.*?)?[ \t]*\r?$/m;

/** Returns true when the stream is a single ResourceList document. */
export function looksLikeResourceList(text: string): boolean {
  return (
    RESOURCE_LIST_KIND_LINE.test(text) || /^\s*\{[\s\S]*"kind"\s*:\s*"ResourceList"/.test(text)
  );
}

/** An alias anywhere in a text (`*name` after a space, `[`, `{` or `,`, or at a line start), or
 * text that looks like one. */
const ALIAS_LIKE = /(?:^|[\s[{,])\*[^\s,[\]{}]/;
/** `{`: an item that is a flow mapping, read by the flow pre-scan. */
const OPEN_BRACE = 0x7b;

/** Returns the ResourceList read from `text`; throws KubeGracefulError when it is not one. */
export function readResourceList(text: string, options: ReadListOptions = {}): ResourceListInput {
  requireOneDocument(text);
  const layout = options.parseAll ? undefined : listLayout(text);
  const quick = layout && readLaidOut({ view: text }, layout, options);
  return quick ?? readWhole(text, options);
}

/** The documents of a stream that hold something: a ResourceList must be the only one. */
export function contentDocuments(text: string): Segment[] {
  return splitStream(text).segments.filter((segment) => !isCommentOnly(segment.text));
}

/**
 * Throws E_INPUT when the ResourceList is one of several documents: kpt and kustomize send it
 * alone, and a stream holding one among manifests is a mix-up the user should hear about (the YAML
 * library would say "Source contains multiple documents; please use YAML.parseAllDocuments()").
 */
function requireOneDocument(text: string): void {
  const documents = contentDocuments(text);
  if (documents.length <= 1) return;
  const list = documents.find((segment) => looksLikeResourceList(segment.text)) ?? documents[0]!;
  throw new KubeGracefulError(
    'E_INPUT',
    `document ${list.index + 1} is a ResourceList, but the input holds ${documents.length}` +
      ` documents; a ResourceList must be the only document`,
    { document: list.index + 1, line: list.line, resource: 'ResourceList' },
    'Send the ResourceList alone (as kpt and kustomize do), or a plain ' +
      'stream of manifests without it (`kpt fn source DIR` wraps a folder of ' +
      'manifests into one ResourceList).',
  );
}

/**
 * What the layout reader reads. `view` has one character per offset: the list's text, or, for a
 * list that came as UTF-8 bytes, their latin1 view (as the stream mode's ByteStream), where
 * offsets are byte offsets and every byte of a multi-byte character is 0x80 or more, never the
 * ASCII that lines, indentation, `- ` and `kind:` are made of. Only what is read as text is then
 * decoded from the bytes: the frame and the items that are parsed.
 */
export interface ListSource {
  readonly view: string;
  readonly bytes?: Buffer;
}

/** Returns the text of `view`'s offsets `start` to `end`, decoded from the bytes if any. */
function decode(source: ListSource, start: number, end: number): string {
  return source.bytes ? source.bytes.toString('utf8', start, end) : source.view.slice(start, end);
}

/**
 * The frame as text, and the way from its offsets to the list's (the view's): through its UTF-8
 * length when the frame came as bytes and holds other than ASCII (a comment or description in
 * functionConfig, say).
 */
function frameOf(source: ListSource, layout: ListLayout): Omit<Frame, 'doc'> {
  if (!source.bytes) return { text: layout.frame, toListOffset: layout.toListOffset };
  // The view's frame is cut from it at ASCII (the `items:` line, the next root key): valid UTF-8.
  const text = Buffer.from(layout.frame, 'latin1').toString('utf8');
  // As long as its view only when it is ASCII: a multi-byte character is one or two UTF-16 units.
  if (text.length === layout.frame.length) return { text, toListOffset: layout.toListOffset };
  return {
    text,
    toListOffset: (offset) => layout.toListOffset(Buffer.byteLength(text.slice(0, offset), 'utf8')),
  };
}

/**
 * The list as kpt writes it: the frame (the list less its items) is parsed for functionConfig and
 * results; an item is parsed only when the pre-scan cannot say its kind is one no mutator reads.
 * Returns undefined when the frame or an item that must be parsed holds something like an alias
 * (then the whole list is parsed, where anchors are resolved across items) or the frame does not
 * read. Offsets (items, the frame's edits) are the view's.
 */
export function readLaidOut(
  source: ListSource,
  layout: ListLayout,
  options: ReadListOptions,
): ResourceListInput | undefined {
  const text = source.view;
  const frame = frameOf(source, layout);
  if (ALIAS_LIKE.test(frame.text)) return undefined;
  const frameDoc = new ManifestDocument(frame.text, { document: 1, line: 1 });
  // The view has the text's line breaks (a byte 0x0a is always one), so its lines are the text's.
  const lineOf = lineCounter(text);
  let head: ReturnType<typeof listHead>;
  try {
    head = listHead(frameDoc.document, (offset) => lineOf(frame.toListOffset(offset)));
  } catch {
    return undefined; // the whole list is parsed, which reports the error at its own line
  }
  const extraKinds = options.extraKinds?.(head.functionConfig) ?? [];
  const items: Item[] = [];
  const resources: Resource[] = [];
  // Each item's kind first (its reads are needed only where a mutator's own kind is present),
  // without keeping every item's text meanwhile (issue #16: peak memory). The pre-scan reads
  // ASCII only (a kind is `[A-Za-z0-9]+`), so the view answers as the text would.
  const itemTextOf = (span: ItemSpan) => dedent(text.slice(span.start, span.limit), span.column);
  const kinds = layout.items.map((span) => {
    keepYoungGenerationSmall(span.limit - span.start);
    // A flow item is read where it stands: indentation means nothing inside it, so no copy.
    return text.charCodeAt(span.start) === OPEN_BRACE
      ? prescanFlowKind(text.slice(span.start, span.limit))
      : prescanKind(itemTextOf(span));
  });
  // A mention is found as well in the item's text as it stands in the list (views, not copies);
  // mentions are ASCII keys (Envoy Gateway's `envoy-gateway.yaml`), found in a latin1 view too.
  const rawText = (span: ItemSpan) => text.slice(span.start, span.limit);
  const objectKinds = objectKindsIn(
    options.objectKinds,
    layout.items.map((span, i) => ({ kind: kinds[i], text: rawText(span) })),
  );
  const wanted = layout.items.map(
    (span, index) =>
      isCandidateKind(kinds[index], extraKinds, objectKinds) ||
      isMentionedObject(kinds[index], () => rawText(span), objectKinds),
  );
  // As for a stream (fn/stream/stream.ts): enough items to parse make optimizing pay (issue #34
  // item 3: a list of 600 Deployments ran capped at the baseline compiler, 3× its stream's time).
  optimizeForLongRun(
    layout.items.reduce((sum, span, i) => (wanted[i] ? sum + span.limit - span.start : sum), 0),
  );
  const deferred: DeferredItem[] = [];
  for (const [index, span] of layout.items.entries()) {
    if (!wanted[index]) continue; // kept as the bytes it came as
    // Lines are counted forwards as the items come, so each item's line is taken now.
    const line = lineOf(span.start);
    if (options.deferWorkloads && isWorkloadKind(kinds[index], extraKinds, objectKinds)) {
      deferred.push({ index, open: () => openItem(source, span, index, line) });
      continue;
    }
    const opened = openItem(source, span, index, line);
    if (!opened) return undefined;
    items.push(opened.item);
    appendAll(resources, opened.resources);
  }
  return {
    mode: 'resourceList',
    text,
    ...(source.bytes ? { bytes: source.bytes } : {}),
    items,
    resources,
    ...(options.deferWorkloads ? { deferred } : {}),
    ...head,
    frame: { text: frame.text, doc: frameDoc.document, toListOffset: frame.toListOffset },
  };
}

/**
 * Parses one laid-out item: its place in the list and its resources. Undefined when it holds
 * something like an alias (the whole list is then parsed, where anchors are resolved across
 * items) or does not read as YAML (the whole list is then parsed, which says where in the list's
 * terms).
 */
function openItem(
  source: ListSource,
  span: ItemSpan,
  index: number,
  line: number,
): { item: Item; resources: Resource[] } | undefined {
  // The span starts after `- ` and ends at a line start: whole characters of the bytes.
  const itemSource = decode(source, span.start, span.limit);
  const itemText = dedent(itemSource, span.column);
  if (ALIAS_LIKE.test(itemText)) return undefined;
  let end: number | undefined;
  const whole = new ManifestDocument(itemText, { document: index + 1, line });
  try {
    end = whole.document.contents?.range?.[1];
  } catch {
    return undefined;
  }
  if (end === undefined) return undefined;
  // The item's content is usually all of its text: the document parsed is then the item's, not
  // parsed a second time (issue #34 item 3).
  const doc =
    end === itemText.length
      ? whole
      : new ManifestDocument(itemText.slice(0, end), { document: index + 1, line });
  const resources = itemResources(doc, itemText);
  const length = undentedLength(itemSource, 0, span.column, end);
  const item = {
    start: span.start,
    end:
      span.start + (source.bytes ? Buffer.byteLength(itemSource.slice(0, length), 'utf8') : length),
    column: span.column,
    doc,
  };
  return { item, resources };
}

/** The whole list parsed: every item, with anchors shared between items resolved. */
function readWhole(text: string, options: ReadListOptions): ResourceListInput {
  const list = new ManifestDocument(text, { document: 1, line: 1 });
  const doc = list.document; // parsed once; throws the parse error with its line, if any
  const lineOf = lineIndex(text);
  const head = listHead(doc, lineOf);
  // every item is parsed here; called so the caller has its config either way
  options.extraKinds?.(head.functionConfig);
  const root = doc.contents!;
  const itemsNode = isMap(root) ? (root.get('items', true) as Node | undefined) : undefined;
  const itemNodes = isSeq(itemsNode) ? (itemsNode.items as Array<Node | null>) : [];
  const shared = sharedAnchorItems(doc, itemNodes, text, lineOf);
  const items: Item[] = [];
  const resources: Resource[] = [];
  for (const [index, node] of itemNodes.entries()) {
    const range = node?.range && ([itemStart(text, node.range[0]), node.range[1]] as const);
    const line = range ? lineOf(range[0]) : 0;
    if (!isMap(node) || !range) {
      throw new KubeGracefulError(
        'E_NOT_MAPPING',
        `ResourceList item ${index + 1} is not a mapping`,
        { document: index + 1, line },
        'Each item must be a Kubernetes object.',
      );
    }
    const column = columnOf(text, range[0]);
    const expansion = expandExternalAliases(shared, index, text, range);
    const itemText = dedent(expansion.text, column);
    const doc1 = new ManifestDocument(itemText, { document: index + 1, line });
    appendAll(resources, itemResources(doc1, itemText));
    items.push({
      start: range[0],
      end: range[1],
      column,
      doc: doc1,
      ...(expansion.expanded.length ? { expanded: expansion.expanded } : {}),
    });
  }
  const frame = { text, doc, toListOffset: (offset: number) => offset };
  return {
    mode: 'resourceList',
    text,
    items,
    resources,
    ...head,
    frame,
    ...(shared.items.size ? { shared } : {}),
  };
}

/**
 * Where an item's text starts: yaml's range of a block mapping in `- &a key: v` starts at `key`,
 * after the first key's anchor or tag; the item (and the column its lines are indented by) starts
 * at those properties, right after the `- ` indicator. Cut at `key`, the item would lose `&a` (an
 * alias to it would then be undefined) and be dedented by the wrong column.
 */
function itemStart(text: string, start: number): number {
  const lineStart = lineStartOf(text, start);
  const properties = /^([ \t]*-[ \t]+)(?:[&!][^\s]*[ \t]+)+$/.exec(text.slice(lineStart, start));
  return properties ? lineStart + properties[1]!.length : start;
}

/** Checks that the list is a ResourceList and reads its functionConfig and results, each through
 * the reader's limits. */
function listHead(
  doc: Document,
  lineOf: (offset: number) => number,
): { functionConfig: unknown; results: unknown[] } {
  const root = doc.contents;
  if (!isMap(root) || root.get('kind') !== 'ResourceList') {
    throw new KubeGracefulError(
      'E_INPUT',
      'expected a single ResourceList document',
      { document: 1 },
      'Send a plain manifest stream or one ResourceList (config.kubernetes.io/v1).',
    );
  }
  const itemsNode = root.get('items', true) as Node | undefined;
  if (
    itemsNode !== undefined &&
    !isSeq(itemsNode) &&
    !(itemsNode && 'value' in itemsNode && itemsNode.value === null)
  ) {
    const line = itemsNode?.range ? lineOf(itemsNode.range[0]) : undefined;
    throw new KubeGracefulError(
      'E_INPUT',
      'ResourceList `items` is not a list',
      { document: 1, line },
      'items must be a YAML list of Kubernetes objects.',
    );
  }
  // Read through the list's own context (aliases into items resolve) and its alias limit.
  const read = (key: string) => {
    const node = root.get(key, true) as Node | undefined;
    try {
      return node?.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT }) as unknown;
    } catch {
      // toJS throws only when the aliases expand beyond the limit (undefined ones were found
      // before).
      throw new KubeGracefulError(
        'E_ALIAS_BOMB',
        `too many alias expansions in ${key} (possible "billion laughs" input)`,
        { document: 1, resource: 'ResourceList', field: key },
        `Expand the anchors in ${key}, or remove the aliases.`,
      );
    }
  };
  const results = read('results');
  return { functionConfig: read('functionConfig'), results: Array.isArray(results) ? results : [] };
}

/** The resources of one item's document, with its kind and name in any message. */
function itemResources(doc: ManifestDocument, itemText: string): Resource[] {
  try {
    return resourcesOf(doc);
  } catch (error) {
    if (error instanceof KubeGracefulError)
      throw new KubeGracefulError(
        error.code,
        error.message,
        { ...error.place, ...resourceHint(itemText) },
        error.hint,
      );
    throw error;
  }
}

/** Returns the length in the list of the first `length` characters of an item's dedented text. */
function undentedLength(text: string, start: number, column: number, length: number): number {
  if (column === 0) return length;
  let listAt = start;
  let left = length;
  for (;;) {
    const newline = text.indexOf('\n', listAt);
    const lineLength = newline === -1 ? text.length - listAt : newline + 1 - listAt;
    if (left <= lineLength) return listAt + left - start;
    left -= lineLength;
    listAt += lineLength;
    // dedent removed up to `column` spaces at the start of this line
    let removed = 0;
    while (removed < column && text.charCodeAt(listAt + removed) === 0x20) removed++;
    listAt += removed;
  }
}

/** Returns the ResourceList text with edited items put back and `results` appended after any
 * already there. */
export function renderResourceList(
  input: ResourceListInput,
  results: readonly unknown[],
  added: AddedItems = [],
): string {
  const rendered = listEdits(input, results, added);
  return 'text' in rendered ? rendered.text : withEdits(input, rendered.edits);
}

/** Returns the list's text with the edits made, from its bytes when it was read from bytes (the
 * edits' offsets are then byte offsets). */
function withEdits(input: ResourceListInput, edits: readonly Edit[]): string {
  return input.bytes
    ? Buffer.concat(byteChunks(input.bytes, edits)).toString('utf8')
    : applyEdits(input.text, edits);
}

/**
 * Returns the same output as renderResourceList, as bytes in chunks: the stretches between edits
 * as views of `bytes` (the UTF-8 bytes `input.text` was decoded from, or read from), the edits
 * encoded. No string or buffer of the whole output is made (issue #16: a 13 MB list of schemas
 * with a few non-Latin-1 characters is a 26 MB two-byte string, and its output was another, then
 * its bytes).
 */
export function renderResourceListChunks(
  input: ResourceListInput,
  results: readonly unknown[],
  bytes: Buffer,
  added: AddedItems = [],
): Uint8Array[] {
  const rendered = listEdits(input, results, added);
  if ('text' in rendered) return [Buffer.from(rendered.text, 'utf8')];
  // Read from the bytes: the edits' offsets are byte offsets already.
  if (input.bytes) return byteChunks(input.bytes, rendered.edits);
  const chunks: Uint8Array[] = [];
  let at = 0;
  let byteAt = 0;
  for (const edit of [...rendered.edits].sort((a, b) => a.start - b.start)) {
    const kept = Buffer.byteLength(input.text.slice(at, edit.start), 'utf8');
    chunks.push(bytes.subarray(byteAt, byteAt + kept), Buffer.from(edit.text, 'utf8'));
    byteAt += kept + Buffer.byteLength(input.text.slice(edit.start, edit.end), 'utf8');
    at = edit.end;
  }
  chunks.push(bytes.subarray(byteAt));
  return chunks;
}

/** Returns `bytes` with the edits (at byte offsets) made, in chunks: as applyEdits does on text. */
function byteChunks(bytes: Buffer, edits: readonly Edit[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    chunks.push(bytes.subarray(at, edit.start), Buffer.from(edit.text, 'utf8'));
    at = edit.end;
  }
  chunks.push(bytes.subarray(at));
  return chunks;
}

/** The edits that make the output from the list's text, or the whole output when the results could
 * not be appended as an edit. */
function listEdits(
  input: ResourceListInput,
  results: readonly unknown[],
  added: AddedItems,
): { edits: Edit[] } | { text: string } {
  const changed = input.items.filter((item) => item.doc.changed);
  const itemEdits = (shape: ItemShape) =>
    changed.map((item) => ({
      start: item.start,
      end: item.end,
      text: itemText(input.text, item, shape),
    }));
  const edits =
    input.shared && changed.length
      ? verifySharedItems(input, ITEM_SHAPES.map(itemEdits))
      : itemEdits('restored');
  // An earlier run's results go, this run's take their place (appendResults.ts).
  const kept = input.results.filter((result) => !isOwnResult(result));
  const rewrite = results.length > 0 || kept.length < input.results.length;
  const appended = rewrite ? appendResultsEdits(input.frame, input.results, results) : undefined;
  const all = [...edits, ...added.map((a) => insertion(input, a)), ...(appended ?? [])];
  if (!rewrite || appended) return { edits: all };
  // A shape the append does not handle: the whole `results` is set, as a tree edit would.
  const list = new ManifestDocument(withEdits(input, all), { document: 1, line: 1 });
  list.set(['results'], [...kept, ...results]);
  return { text: list.text };
}

/**
 * Objects a mutator adds, each after the item of the document it goes with (a ConfigMap after the
 * Gateway whose settings it holds).
 */
export type AddedItems = ReadonlyArray<{
  readonly after: ManifestDocument;
  readonly objects: readonly unknown[];
}>;

/**
 * The edit that puts `added`'s objects into the list right after their item, as items of the same
 * block sequence (`- ` at the item's indicator). An item that is not a block sequence entry ending
 * at a line end (a flow list, JSON) gets nothing written: an error, as a half-made edit (a Gateway
 * pointed at a ConfigMap not in the output) would break what it is for.
 */
function insertion(
  input: ResourceListInput,
  added: AddedItems[number],
): { start: number; end: number; text: string } {
  const item = input.items.find((i) => i.doc === added.after);
  const indicator = item && entryIndicator(input.text, item);
  if (!item || indicator === undefined || input.text[item.end - 1] !== '\n')
    throw new KubeGracefulError(
      'E_INPUT',
      `ResourceList item ${added.after.place.document} is not written as a block sequence entry, ` +
        'so the object kube-graceful adds for it cannot be put next to it',
      { document: added.after.place.document, line: added.after.place.line },
      'Write the ResourceList in block style (as kpt and kustomize do), or exclude this object.',
    );
  const text = added.objects
    .map((object) => indicator + indent(newDocumentText(object, ''), item.column))
    .join('');
  return { start: item.end, end: item.end, text };
}

/**
 * Returns the block sequence entry indicator of an item, to start an item of the same list with
 * (`- `, `  - `), or undefined when the item is not such an entry. The indicator usually stands
 * on the item's first line; when comments open the item, it stands before them, on the first
 * comment's line: `kpt fn source` writes a file that begins with Helm's `# Source:` comment as
 * `- # Source: …` with the object on the lines after.
 */
function entryIndicator(text: string, item: Item): string | undefined {
  const lineStart = lineStartOf(text, item.start);
  const before = text.slice(lineStart, item.start);
  if (/^[ ]*-[ ]+$/.test(before)) return before;
  if (!/^[ ]*$/.test(before)) return undefined;
  // Back over the comment and blank lines above the item, to the line with the indicator.
  for (let end = lineStart; end > 0;) {
    const start = lineStartOf(text, end - 1);
    const line = text.slice(start, end);
    const entry = /^([ ]*)-[ ]+#/.exec(line);
    if (entry) {
      const dash = entry[1]!.length;
      return item.column > dash + 1
        ? `${entry[1]}-${' '.repeat(item.column - dash - 1)}`
        : undefined;
    }
    if (!/^[ \t]*(?:#.*)?\r?\n$/.test(line)) return undefined;
    end = start;
  }
  return undefined;
}

/** Returns `text` with the edits made; they do not overlap, and one at an offset where another ends
 * goes after it. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  let out = '';
  let at = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

/**
 * How an edited item that had aliases to anchors outside it is written. `restored` puts the
 * aliases back where their written-out text came through the edits unchanged, and writes them out
 * where it did not; `kept` instead leaves such an item as it came, for when the edits reach it
 * through the anchor (two Deployments sharing one spec, both given the same preStop); `expanded`
 * writes every one out. verifySharedItems takes the first that reads as the edits say.
 */
type ItemShape = 'restored' | 'kept' | 'expanded';

/** The choices, best first: aliases kept wherever the list still reads as the edits say. */
const ITEM_SHAPES: readonly ItemShape[] = ['kept', 'restored', 'expanded'];

function itemText(list: string, item: Item, shape: ItemShape): string {
  const edited = item.doc.text;
  if (!item.expanded || shape === 'expanded') return indent(edited, item.column);
  let text = edited;
  let from = 0;
  for (const { text: flow, alias } of item.expanded) {
    const at = text.indexOf(flow, from);
    if (at === -1)
      return shape === 'kept' ? list.slice(item.start, item.end) : indent(edited, item.column);
    text = text.slice(0, at) + `*${alias}` + text.slice(at + flow.length);
    from = at + alias.length + 1;
  }
  return indent(text, item.column);
}

/** Returns a function from a text offset to its 1-based line (binary search over line starts). */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

/**
 * Returns a function from a text offset to its 1-based line, as lineIndex's, that counts the line
 * feeds from the offset it was last asked about (or from the start, for an earlier one) instead of
 * keeping every line's start: the laid-out reader asks about the items in order, and the list of
 * schemas has 222,000 lines (issue #16 item 5: peak memory).
 */
function lineCounter(text: string): (offset: number) => number {
  let counted = 0;
  let line = 1;
  return (offset) => {
    if (offset < counted) [counted, line] = [0, 1];
    for (
      let at = text.indexOf('\n', counted);
      at !== -1 && at < offset;
      at = text.indexOf('\n', at + 1)
    )
      line++;
    counted = offset;
    return line;
  };
}
