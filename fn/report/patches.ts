/**
 * The change records as kustomize patches: the list that Flux's `HelmRelease`
 * `spec.postRenderers[].kustomize.patches` takes (and kustomize's own `patches:` field), so a Flux
 * user gets exactly kube-graceful's edits without copying numbers by hand (issue #17).
 *
 * One entry per changed object, derived from its change records only:
 * - kinds whose schema kustomize knows (core, apps and batch workloads) get a strategic-merge
 *   patch: list items are addressed by their merge key (`containers` and `env` by `name`), so a
 *   chart that adds a container does not shift the patch. A map replaced by one with other keys
 *   (a preStop `exec` that becomes `sleep`) carries `$patch: replace`, or the merge would leave
 *   two handlers in one hook, which the API server rejects.
 * - other kinds (custom resources such as an Argo `Rollout`, config `extraKinds`), where kustomize
 *   falls back to a JSON merge patch that replaces whole lists, get a JSON 6902 patch whose list
 *   indices are guarded by `test` operations on the item's key: if the chart moved the item, the
 *   patch fails instead of editing another one.
 * Sources: kustomize api/filters/patchstrategicmerge and api/filters/patchjson6902 (v5.5.0, as in
 * kubectl 1.32); Flux helm-controller `PostRenderer.Kustomize.Patches` (v2 API).
 */
import { Document } from 'yaml';
import { isRecord, setAt } from '../core/fieldPath.ts';
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

// ---- strategic merge ----

function strategicMerge(object: PatchedObject): string {
  let body: unknown = {};
  for (const record of object.records)
    body = setAt(body, record.path, strategicValue(record.before, record.after));
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
  return new Document(patch, WRITE).toString({ lineWidth: 0 });
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
  return new Document(operations, WRITE).toString({ lineWidth: 0 });
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
