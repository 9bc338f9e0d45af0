/**
 * The KRM function contract (kustomize, kpt): a `ResourceList` in, the same with edited `items`
 * and appended `results` out. Each item's text is cut out of the list, edited like a stream
 * document and put back, so unchanged items and everything around them keep their bytes.
 */
import { isMap, isSeq } from 'yaml';
import type { Node } from 'yaml';
import { ManifestDocument } from '../document/manifest.ts';
import { KubeGracefulError } from '../engine/errors.ts';
import { resourceHint } from '../stream/prescan.ts';
import { resourcesOf } from '../stream/stream.ts';
import type { Resource } from '../workloads/resource.ts';

/** One item: where its text sits in the list and its document. */
interface Item {
  readonly start: number;
  readonly end: number;
  readonly column: number;
  readonly doc: ManifestDocument;
}

/** A read ResourceList. */
export interface ResourceListInput {
  readonly mode: 'resourceList';
  readonly text: string;
  readonly items: readonly Item[];
  readonly resources: Resource[];
  readonly functionConfig: unknown;
  /** Results already in the input, which ours are appended to. */
  readonly results: unknown[];
}

/** Returns true when the stream is a single ResourceList document. */
export function looksLikeResourceList(text: string): boolean {
  return /^kind:[ \t]*["']?ResourceList["']?[ \t]*\r?$/m.test(text) || /^\s*\{[\s\S]*"kind"\s*:\s*"ResourceList"/.test(text);
}

/** Returns the ResourceList read from `text`; throws KubeGracefulError when it is not one. */
export function readResourceList(text: string): ResourceListInput {
  const list = new ManifestDocument(text, { document: 1, line: 1 });
  const root = list.document.contents; // parsed once; throws the parse error with its line, if any
  const lineOf = lineIndex(text);
  if (!isMap(root) || (root.get('kind') as unknown) !== 'ResourceList') {
    throw new KubeGracefulError('E_INPUT', 'expected a single ResourceList document', { document: 1 }, 'Send a plain manifest stream or one ResourceList (config.kubernetes.io/v1).');
  }
  const itemsNode = root.get('items', true) as Node | undefined;
  if (itemsNode !== undefined && !isSeq(itemsNode) && !(itemsNode && 'value' in itemsNode && itemsNode.value === null)) {
    throw new KubeGracefulError('E_INPUT', 'ResourceList `items` is not a list', { document: 1, line: itemsNode?.range ? lineOf(itemsNode.range[0]) : undefined }, 'items must be a YAML list of Kubernetes objects.');
  }
  const items: Item[] = [];
  const resources: Resource[] = [];
  for (const [index, node] of (isSeq(itemsNode) ? itemsNode.items : []).entries()) {
    const range = (node as Node | null)?.range;
    const line = range ? lineOf(range[0]) : 0;
    if (!isMap(node) || !range) {
      throw new KubeGracefulError('E_NOT_MAPPING', `ResourceList item ${index + 1} is not a mapping`, { document: index + 1, line }, 'Each item must be a Kubernetes object.');
    }
    const column = range[0] - (text.lastIndexOf('\n', range[0] - 1) + 1);
    const itemText = dedent(text.slice(range[0], range[1]), column);
    const doc = new ManifestDocument(itemText, { document: index + 1, line });
    try {
      resources.push(...resourcesOf(doc));
    } catch (error) {
      if (error instanceof KubeGracefulError) throw new KubeGracefulError(error.code, error.message, { ...error.place, ...resourceHint(itemText) }, error.hint);
      throw error;
    }
    items.push({ start: range[0], end: range[1], column, doc });
  }
  // Through the document's own reader, so an alias bomb in functionConfig is E_ALIAS_BOMB, not a crash.
  const data = list.data as { functionConfig?: unknown; results?: unknown };
  return { mode: 'resourceList', text, items, resources, functionConfig: data.functionConfig, results: Array.isArray(data.results) ? data.results : [] };
}

/** Returns the ResourceList text with edited items put back and `results` appended to any already there. */
export function renderResourceList(input: ResourceListInput, results: readonly unknown[]): string {
  let text = '';
  let at = 0;
  for (const item of input.items) {
    if (!item.doc.changed) continue;
    text += input.text.slice(at, item.start) + indent(item.doc.text, item.column);
    at = item.end;
  }
  text += input.text.slice(at);
  if (results.length === 0) return text;
  const list = new ManifestDocument(text, { document: 1, line: 1 });
  list.set(['results'], [...input.results, ...results]);
  return list.text;
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

/** Removes the item's column of indentation from every line after the first. */
function dedent(text: string, column: number): string {
  if (column === 0) return text;
  const pad = new RegExp(`\\n[ ]{0,${column}}`, 'g');
  return text.replace(pad, '\n');
}

function indent(text: string, column: number): string {
  if (column === 0) return text;
  const pad = ' '.repeat(column);
  return text.replace(/\n(?=[^\r\n])/g, `\n${pad}`);
}
