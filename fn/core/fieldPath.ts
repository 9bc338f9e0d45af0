/**
 * Field paths into a Kubernetes object. List items are addressed by a key field (`name`), never
 * by index, so a path stays right when a chart adds a container (the "fragile" index patches of
 * Ontotext-AD/graphdb-helm#223 are what users have today).
 */

/**
 * A map key, a list index (an item of a list without a key field, such as a container's `args`),
 * or the list item whose `key` is `equals`.
 */
export type PathSegment = string | number | { readonly key: string; readonly equals: string };
export type FieldPath = readonly PathSegment[];

/** Returns the path as text, e.g. `spec.template.spec.containers[name=istio-proxy].env`. */
export function formatPath(path: FieldPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string')
      out += /^[A-Za-z0-9_-]+$/.test(segment)
        ? (out ? '.' : '') + segment
        : `[${JSON.stringify(segment)}]`;
    else out += `[${segment.key}=${segment.equals}]`;
  }
  return out;
}

/** Returns true when `path` begins with every segment of `prefix` (a list item by its key). */
export function hasPrefix(path: FieldPath, prefix: FieldPath): boolean {
  return prefix.every((segment, i) => {
    const other = path[i];
    if (typeof segment !== 'object' || typeof other !== 'object') return segment === other;
    return segment.key === other.key && segment.equals === other.equals;
  });
}

/** Returns the value at `path` in plain data, or undefined. */
export function getAt(root: unknown, path: FieldPath): unknown {
  let node: unknown = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    if (typeof segment === 'object') {
      if (!Array.isArray(node)) return undefined;
      node = node.find((item) => isRecord(item) && item[segment.key] === segment.equals);
    } else {
      node = (node as Record<string | number, unknown>)[segment];
    }
  }
  return node;
}

/**
 * Returns `path` in `root` with every list selector replaced by the index of the item it selects
 * (the item setAt edits or adds), or undefined when the path is not there.
 */
export function dataPathOf(root: unknown, path: FieldPath): Array<string | number> | undefined {
  const steps: Array<string | number> = [];
  let node: unknown = root;
  for (const segment of path) {
    let step: string | number = segment as string | number;
    if (typeof segment === 'object') {
      if (!Array.isArray(node)) return undefined;
      step = node.findIndex((item) => isRecord(item) && item[segment.key] === segment.equals);
      if (step === -1) return undefined;
    }
    if (node === null || typeof node !== 'object') return undefined;
    steps.push(step);
    node = (node as Record<string | number, unknown>)[step];
  }
  return steps;
}

/**
 * Returns a copy of `root` with `value` at `path`, creating maps and list items on the way the
 * same way the document editor does (the editor checks its text edit against this); `undefined`
 * removes the item or key at the end of the path.
 */
export function setAt(root: unknown, path: FieldPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [PathSegment, ...PathSegment[]];
  if (value === undefined && rest.length === 0) return removeAt(root, head);
  if (typeof head === 'object') {
    const list: unknown[] = Array.isArray(root) ? [...(root as unknown[])] : [];
    const at = list.findIndex((item) => isRecord(item) && item[head.key] === head.equals);
    const current = at === -1 ? { [head.key]: head.equals } : list[at];
    const next = setAt(current, rest, value);
    if (at === -1) list.push(next);
    else list[at] = next;
    return list;
  }
  if (typeof head === 'number') {
    // An index one past the end appends an item (a flag added to a container's args).
    if (!Array.isArray(root) || head > root.length) throw new RangeError(`no list item ${head}`);
    const list = [...(root as unknown[])];
    list[head] = setAt(list[head], rest, value);
    return list;
  }
  const map = isRecord(root) ? { ...root } : {};
  map[head] = setAt(map[head], rest, value);
  return map;
}

/**
 * Returns a copy of `root` without the list item or map key `segment`: `undefined` set at a path
 * removes what is there (a container moved to `initContainers` leaves `containers`).
 */
function removeAt(root: unknown, segment: PathSegment): unknown {
  if (typeof segment === 'object')
    return Array.isArray(root)
      ? root.filter((item) => !(isRecord(item) && item[segment.key] === segment.equals))
      : root;
  if (typeof segment === 'number')
    return Array.isArray(root) ? root.filter((_, i) => i !== segment) : root;
  if (!isRecord(root) || !(segment in root)) return root;
  const { [segment]: _removed, ...rest } = root;
  return rest;
}

/** Returns the value that creating `path` from nothing would give: nested maps and list items. */
export function buildAt(path: FieldPath, value: unknown): unknown {
  return setAt(undefined, path, value);
}

/** Returns true for a plain (non-array) object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
