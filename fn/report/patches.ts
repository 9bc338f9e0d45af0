/**
 * The change records as kustomize patches: the list that Flux's `HelmRelease`
 * `spec.postRenderers[].kustomize.patches` takes (and kustomize's own `patches:` field), so a Flux
 * user gets exactly kube-graceful's edits without copying numbers by hand (issue #17).
 *
 * One entry per changed object, derived from its change records only:
 * - kinds whose schema kustomize knows (core, apps and batch workloads) get a strategic-merge
 *   patch: list items are addressed by their merge key (`containers` and `env` by `name`), so a
 *   chart that adds a container does not shift the patch. kustomize puts the items a patch names
 *   first, so the patch names (by key alone) every item before the last one it edits, and the list
 *   keeps its order. A list without a merge key (a container's `args`) is replaced whole, so the
 *   patch carries all of it. A map replaced by one with other keys
 *   (a preStop `exec` that becomes `sleep`) carries `$patch: replace`, or the merge would leave
 *   two handlers in one hook, which the API server rejects. An item the records remove (a
 *   sidecar moved to `initContainers`) is named with `$patch: delete`.
 * - other kinds (custom resources such as an Argo `Rollout`, config `extraKinds`), where kustomize
 *   falls back to a JSON merge patch that replaces whole lists, get a JSON 6902 patch whose list
 *   indices are guarded by `test` operations on the item's key: if the chart moved the item, the
 *   patch fails instead of editing another one.
 * Sources: kustomize api/filters/patchstrategicmerge and api/filters/patchjson6902 (v5.5.0, as in
 * kubectl 1.32); Flux helm-controller `PostRenderer.Kustomize.Patches` (v2 API).
 */
import { Document } from 'yaml';
import { formatPath, getAt, isRecord, setAt } from '../core/fieldPath.ts';
import type { FieldPath } from '../core/fieldPath.ts';
import type { ChangeRecord } from '../core/records.ts';
import type { KubeObject, ResourceRef } from '../core/kubeObject.ts';
import { withEscapedStrings } from '../yaml/escapedStrings.ts';

/**
 * YAML 1.1, as Kubernetes reads manifests, with the input's control characters written as escapes
 * (a name read from `"\e[2J"` or `"\x9b"` goes into a patch's target and its body).
 */
const WRITE = { version: '1.1', customTags: withEscapedStrings } as const;

/** The object a set of records was made on, as it was read (its namespace as written, if any). */
export interface PatchedObject {
  readonly ref: ResourceRef;
  readonly original: KubeObject;
  readonly records: readonly ChangeRecord[];
}

/** A kustomize `patches:` entry. */
export interface KustomizePatch {
  readonly target: {
    readonly group?: string;
    readonly version: string;
    readonly kind: string;
    readonly name: string;
    readonly namespace?: string;
  };
  readonly patch: string;
}

/**
 * API groups whose kinds kustomize merges strategically (their Go types are compiled into
 * kustomize's schema): the workloads kube-graceful edits. Anything else gets JSON 6902.
 */
const STRATEGIC_GROUPS: ReadonlySet<string> = new Set(['', 'apps', 'batch']);

/** Returns one patch per object, in the order given. */
export function kustomizePatches(objects: readonly PatchedObject[]): KustomizePatch[] {
  return objects
    .filter((o) => o.records.length > 0)
    .map((object) => {
      const [group, version] = splitApiVersion(object.ref.apiVersion);
      const namespace = object.original.metadata?.namespace;
      const target = {
        ...(group ? { group } : {}),
        version,
        kind: object.ref.kind,
        name: object.ref.name,
        // Only a namespace the render wrote: a target namespace matches nothing on an object
        // without one.
        ...(typeof namespace === 'string' && namespace ? { namespace } : {}),
      };
      const patch = STRATEGIC_GROUPS.has(group) ? strategicMerge(object) : json6902(object);
      return { target, patch };
    });
}

/** Returns the patches as the YAML list `patches:` takes (`[]` when there is nothing to patch). */
export function renderPatches(patches: readonly KustomizePatch[]): string {
  if (patches.length === 0) return '[]\n';
  const document = new Document(
    patches.map((p) => ({ target: p.target, patch: p.patch })),
    WRITE,
  );
  return document.toString({ lineWidth: 0, blockQuote: 'literal' });
}

function splitApiVersion(apiVersion: string): [group: string, version: string] {
  const slash = apiVersion.indexOf('/');
  return slash === -1
    ? ['', apiVersion]
    : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

/**
 * Returns one patch as YAML. kustomize v5.5.0 drops the final line break of a block scalar that
 * ends a patch (kubernetes-sigs/kustomize#5795: the same value followed by another key keeps it):
 * an Istio `proxy.istio.io/config` written last came out without the line break the transform
 * writes. A comment line after such a value ends the scalar, and kustomize keeps its line break.
 */
function patchText(data: unknown): string {
  const text = new Document(data, WRITE).toString({ lineWidth: 0 });
  const last = lastValue(data);
  return typeof last === 'string' && last.endsWith('\n')
    ? `${text}# ends the value above, so that kustomize keeps its final line break\n`
    : text;
}

/** Returns the value written last when `data` is written as YAML. */
function lastValue(data: unknown): unknown {
  const values = Array.isArray(data) ? data : isRecord(data) ? Object.values(data) : undefined;
  return values && values.length > 0 ? lastValue(values.at(-1)) : data;
}

// ---- strategic merge ----

function strategicMerge(object: PatchedObject): string {
  const patched = withRecords(object);
  let body: unknown = {};
  for (const record of object.records) {
    const list = positionalList(record.path);
    // A list addressed by position (a Traefik container's `args`) has no merge key: a strategic
    // merge replaces it whole, so the patch carries the whole list as the records leave it. There
    // is no item to address in an empty patch body ("no list item 15", issue #26 item 6).
    const removesItem = record.after === undefined && typeof record.path.at(-1) === 'object';
    body = list
      ? setAt(body, list, getAt(patched, list))
      : removesItem
        ? // An item removed from a merged list: the merge key and the directive (a container moved
          // to initContainers leaves containers).
          setAt(body, [...record.path, '$patch'], 'delete')
        : setAt(body, record.path, strategicValue(record.before, record.after));
  }
  for (const list of keyedLists(object.records)) body = inOrder(body, patched, list);
  const patch = {
    apiVersion: object.ref.apiVersion,
    kind: object.ref.kind,
    metadata: {
      name: object.ref.name,
      ...(object.original.metadata?.namespace
        ? { namespace: object.original.metadata.namespace }
        : {}),
    },
    ...(body as Record<string, unknown>),
  };
  return patchText(patch);
}

/** Returns the object as the records leave it. */
function withRecords(object: PatchedObject): unknown {
  return object.records.reduce<unknown>(
    (current, record) => setAt(current, record.path, record.after),
    object.original,
  );
}

/** A list whose items the records address by a key field: its path and the key. */
interface KeyedList {
  readonly path: FieldPath;
  readonly key: string;
}

/** Returns each list the records address an item of by key, once, outermost first. */
function keyedLists(records: readonly ChangeRecord[]): KeyedList[] {
  const lists = new Map<string, KeyedList>();
  for (const record of records)
    record.path.forEach((segment, at) => {
      if (typeof segment !== 'object') return;
      const path = record.path.slice(0, at);
      lists.set(formatPath(path), { path, key: segment.key });
    });
  return [...lists.values()].sort((a, b) => a.path.length - b.path.length);
}

/**
 * Returns `body` with the patch's items of `list` in the order the records leave them. kustomize
 * puts a merged list's patch items first, in the patch's order, and then the items the patch does
 * not name (kyaml walk/associative_sequence.go, v5.5.0): a patch naming only a container's new
 * variables would move them before the chart's, and a patch of the second container would move it
 * first. So the patch names every item before its last one, by key alone where the records leave
 * an item as it was (a merge that changes nothing).
 */
function inOrder(body: unknown, patched: unknown, list: KeyedList): unknown {
  const items: unknown = getAt(body, list.path);
  const ordered: unknown = getAt(patched, list.path);
  if (!Array.isArray(items) || !Array.isArray(ordered)) return body;
  const keyOf = (item: unknown): unknown => (isRecord(item) ? item[list.key] : undefined);
  const named = new Map(items.map((item) => [keyOf(item), item as unknown]));
  const keys = ordered.map(keyOf).filter((key) => key !== undefined);
  let last = keys.length - 1;
  while (last >= 0 && !named.has(keys[last])) last--;
  const prefix = keys.slice(0, last + 1).map((key) => named.get(key) ?? { [list.key]: key });
  // Items the records remove are no longer in the list they leave: their directives go last.
  const deletions: unknown[] = items.filter(
    (item: unknown) => isRecord(item) && item.$patch === 'delete',
  );
  return setAt(body, list.path, [...prefix, ...deletions]);
}

/** Returns the path of the first list in `path` addressed by position, or undefined. */
function positionalList(path: FieldPath): FieldPath | undefined {
  const at = path.findIndex((segment) => typeof segment === 'number');
  return at === -1 ? undefined : path.slice(0, at);
}

/** Returns what to merge so that `before` becomes exactly `after` (null deletes a field). */
function strategicValue(before: unknown, after: unknown): unknown {
  if (after === undefined) return null;
  if (!isRecord(after) || !isRecord(before)) return after;
  return mergesTo(before, after) ? after : { $patch: 'replace', ...after };
}

/**
 * Returns whether merging map `after` into map `before` (recursively, lists replaced) gives
 * `after`.
 */
function mergesTo(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  return Object.entries(before).every(([key, value]) => {
    if (!(key in after)) return false;
    const next = after[key];
    return isRecord(value) && isRecord(next) ? mergesTo(value, next) : true;
  });
}

// ---- JSON 6902 ----

type Operation =
  { op: 'test' | 'add' | 'replace'; path: string; value: unknown } | { op: 'remove'; path: string };

function json6902(object: PatchedObject): string {
  const operations: Operation[] = [];
  let current: unknown = object.original;
  for (const record of object.records) {
    operations.push(...operationsFor(current, record.path, record.after));
    current = setAt(current, record.path, record.after);
  }
  return patchText(operations);
}

/**
 * Returns the operations that set `path` to `value` in `root`, with a `test` guarding each list
 * index.
 */
function operationsFor(root: unknown, path: FieldPath, value: unknown): Operation[] {
  const guards: Operation[] = [];
  const pointer: string[] = [];
  let node: unknown = root;
  for (const [index, segment] of path.entries()) {
    const rest = path.slice(index + 1);
    if (typeof segment === 'object') {
      const items = Array.isArray(node) ? node : undefined;
      const at = items
        ? items.findIndex((item) => isRecord(item) && item[segment.key] === segment.equals)
        : -1;
      if (!items || at === -1) {
        const item = setAt({ [segment.key]: segment.equals }, rest, value);
        // Appended to the list, or (no list there, e.g. `env: null`) the list set whole.
        const add: Operation = items
          ? { op: 'add', path: pointerOf([...pointer, '-']), value: item }
          : { op: 'add', path: pointerOf(pointer), value: [item] };
        return [...guards, add];
      }
      pointer.push(String(at));
      guards.push({
        op: 'test',
        path: pointerOf([...pointer, segment.key]),
        value: segment.equals,
      });
      node = items[at];
      continue;
    }
    const key = String(segment);
    const exists = isRecord(node)
      ? key in node
      : Array.isArray(node) && typeof segment === 'number' && segment < node.length;
    if (!exists) {
      if (value === undefined) return guards;
      return [
        ...guards,
        {
          op: 'add',
          path: pointerOf([...pointer, key]),
          value: rest.length ? setAt(undefined, rest, value) : value,
        },
      ];
    }
    pointer.push(key);
    node = (node as Record<string, unknown>)[key];
  }
  if (value === undefined) return [...guards, { op: 'remove', path: pointerOf(pointer) }];
  return [...guards, { op: 'replace', path: pointerOf(pointer), value }];
}

/** RFC 6901: `~` is `~0`, `/` is `~1`. */
function pointerOf(steps: readonly string[]): string {
  return steps.map((step) => `/${step.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
