/**
 * Parsed-tree comparison for the reliability properties (issue #8): which leaves differ between a
 * document before and after a run, and whether each difference is covered by a change record.
 */
import { isDeepStrictEqual } from 'node:util';
import { parseDocument } from 'yaml';
import { toData } from '../../fn/document/manifest.ts';
import { isRecord } from '../../fn/core/fieldPath.ts';
import type { FieldPath } from '../../fn/core/fieldPath.ts';
import type { ChangeRecord } from '../../fn/core/records.ts';
import { splitStream } from '../../fn/stream/split.ts';
import { isCommentOnly } from '../../fn/document/prescan.ts';
import { parseOptions } from '../../fn/yaml/options.ts';

/** A path of map keys and list indexes into plain data. */
export type ConcretePath = ReadonlyArray<string | number>;

/**
 * Returns the paths of every leaf where `a` and `b` differ (a missing side counts as different).
 */
export function leafDiffs(
  a: unknown,
  b: unknown,
  path: ConcretePath = [],
  out: ConcretePath[] = [],
): ConcretePath[] {
  if (isDeepStrictEqual(a, b)) return out;
  if (isRecord(a) && isRecord(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
      leafDiffs(a[key], b[key], [...path, key], out);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) leafDiffs(a[i], b[i], [...path, i], out);
    return out;
  }
  // Different types or scalar values: every leaf of either side differs.
  const before = out.length;
  leaves(a, path, out);
  leaves(b, path, out);
  if (out.length === before) out.push(path);
  return out;
}

function leaves(value: unknown, path: ConcretePath, out: ConcretePath[]): void {
  if (value === undefined) return;
  if (isRecord(value) && Object.keys(value).length > 0) {
    for (const [key, child] of Object.entries(value)) leaves(child, [...path, key], out);
  } else if (Array.isArray(value) && value.length > 0) {
    value.forEach((child, i) => leaves(child, [...path, i], out));
  } else {
    out.push(path);
  }
}

/**
 * Returns the record's path made concrete in `root` (list items chosen by their key field), and
 * the key fields of items the selector addresses (`env[name=X]` creates `name: X` too); undefined
 * when the path does not lead anywhere in `root`.
 */
export function resolvePath(
  root: unknown,
  path: FieldPath,
): { path: ConcretePath; keyFields: ConcretePath[] } | undefined {
  const concrete: Array<string | number> = [];
  const keyFields: ConcretePath[] = [];
  let node: unknown = root;
  for (const segment of path) {
    if (typeof segment === 'object') {
      if (!Array.isArray(node)) return undefined;
      const index = node.findIndex(
        (item) => isRecord(item) && item[segment.key] === segment.equals,
      );
      if (index === -1) return undefined;
      concrete.push(index);
      keyFields.push([...concrete, segment.key]);
      node = node[index];
    } else {
      if (node === null || typeof node !== 'object') return undefined;
      concrete.push(segment);
      node = (node as Record<string | number, unknown>)[segment];
    }
  }
  return { path: concrete, keyFields };
}

/** Returns true when `path` is `prefix` or lies under it. */
export function isUnder(path: ConcretePath, prefix: ConcretePath): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => segment === path[i]);
}

/**
 * Returns the data of a document's text as the engine reads it (YAML 1.1, no timestamps, ints as
 * numbers).
 */
export function readData(text: string): unknown {
  const doc = parseDocument(text, parseOptions());
  if (doc.errors.length > 0) throw new Error(`does not parse: ${doc.errors[0]!.message}`);
  return toData(doc);
}

/** One segment of a stream: its text and, unless it holds only comments, its data. */
export interface ReadSegment {
  readonly text: string;
  readonly data?: unknown;
}

/** Returns the stream's segments as the engine cuts them, each with its data. */
export function readSegments(stream: string): { bom: string; segments: ReadSegment[] } {
  const { bom, segments } = splitStream(stream);
  return {
    bom,
    segments: segments.map((s) =>
      isCommentOnly(s.text) ? { text: s.text } : { text: s.text, data: readData(s.text) },
    ),
  };
}

/** `kind namespace/name` of an object, for telling documents apart. */
export function identity(data: unknown): string {
  if (!isRecord(data)) return String(data);
  const meta = isRecord(data['metadata']) ? data['metadata'] : {};
  return (
    `${String(data['apiVersion'])} ${String(data['kind'])} ${String(meta['namespace'] ?? '')}` +
    `/${String(meta['name'] ?? '')}`
  );
}

/**
 * Returns where the record's object sits in its document: `[]`, or `['items', i]` for a `kind:
 * List` item.
 */
export function objectBase(documentData: unknown, record: ChangeRecord): ConcretePath | undefined {
  if (!isRecord(documentData)) return undefined;
  if (documentData['kind'] !== 'List' || !Array.isArray(documentData['items'])) return [];
  const index = documentData['items'].findIndex((item) => {
    if (!isRecord(item) || !isRecord(item['metadata'])) return false;
    return (
      item['kind'] === record.resource.kind && item['metadata']['name'] === record.resource.name
    );
  });
  return index === -1 ? undefined : ['items', index];
}

/** Returns the value at a concrete path. */
export function valueAt(root: unknown, path: ConcretePath): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/**
 * Returns a copy of `value` without null map entries (the API server reads `key: null` as absent).
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (isRecord(value))
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  return value;
}

/** A value a YAML 1.1 reader got back, as a failure message shows it (a timestamp as its date). */
export function shownReading(read: unknown): string {
  return read instanceof Date ? `the date ${read.toISOString()}` : JSON.stringify(read);
}
