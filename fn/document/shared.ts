/**
 * Nodes that one part of a document shares with another: an anchored node (`&pod`) is also every
 * alias to it (`*pod`), and a map with a merge key (`<<: *c`) reads its missing keys from the
 * merged map. A text edit inside a shared node changes what every user of it reads; an edit on the
 * way through an alias would have to edit the anchor. This module finds where an edit's path meets
 * such nodes, so that the editor (manifest.ts) can either edit the anchor when every user gets the
 * same change, or give the edited place its own copy first (issue #15, item 1).
 *
 * Merge keys are YAML 1.1 (https://yaml.org/type/merge.html): the map's own keys win over merged
 * ones, and of several merged maps (`<<: [*a, *b]`) the first that has a key gives it. A key the
 * editor adds to a map goes after its last entry, so after the `<<`: Kubernetes reads manifests
 * with sigs.k8s.io/yaml's fork of gopkg.in/yaml.v2 v2.4.0 (goyaml.v2/README.md), whose decoder
 * (decode.go@v2.4.0, `mapping`) applies a merge where it stands, so that a merged value overwrites
 * an own key written before the `<<` but not one written after it.
 */
import { isAlias, isMap, isScalar, isSeq, visit } from 'yaml';
import type { Alias, Document, Node, Pair, YAMLMap, YAMLSeq } from 'yaml';
import type { FieldPath, PathSegment } from '../core/fieldPath.ts';
import { linesBefore } from '../core/positions.ts';

/** Anchored nodes that aliases refer to, each with those aliases (merge values included). */
export type AliasUsers = ReadonlyMap<Node, readonly Alias[]>;

/** What a field's path meets in the tree on its way to the field. */
export interface SharedOnPath {
  /** An alias the path goes through: the field is inside the node it shares. */
  readonly alias?: Alias;
  /** A map whose key on the path comes from a merge (`<<`), with more of the path after it. */
  readonly merged?: { readonly map: YAMLMap; readonly key: string };
  /**
   * Nodes on the path (the field's own node included) that carry an anchor some alias refers to.
   */
  readonly anchored: readonly Node[];
}

/** Returns true when the document has an alias (so some node may be shared). */
export function hasAliases(source: string, doc: Document): boolean {
  if (!source.includes('*')) return false;
  let found = false;
  visit(doc, {
    Alias() {
      found = true;
      return visit.BREAK;
    },
  });
  return found;
}

/** Returns every anchored node that an alias of the document refers to, with its aliases. */
export function aliasUsers(doc: Document): AliasUsers {
  const users = new Map<Node, Alias[]>();
  visit(doc, {
    Alias(_key, alias) {
      const target = alias.resolve(doc) as Node | undefined;
      if (target) users.set(target, [...(users.get(target) ?? []), alias]);
    },
  });
  return users;
}

/** Returns what `path` meets on its way through the document's tree (see SharedOnPath). */
export function sharedOnPath(doc: Document, path: FieldPath, users: AliasUsers): SharedOnPath {
  const anchored: Node[] = [];
  let node = doc.contents as Node | null | undefined;
  for (let i = 0; i < path.length; i++) {
    if (isAlias(node)) return { alias: node, anchored };
    if (node && users.has(node)) anchored.push(node);
    const segment = path[i]!;
    if (isMap(node) && typeof segment === 'string') {
      const own = ownPair(node, segment);
      if (own) {
        node = own.value;
        continue;
      }
      if (i < path.length - 1 && mergedValue(doc, node, segment) !== undefined)
        return { merged: { map: node, key: segment }, anchored };
      return { anchored };
    }
    if (isSeq(node) && typeof segment !== 'string') {
      node =
        typeof segment === 'number'
          ? (node.items[segment] as Node | undefined)
          : findItem(doc, node, segment);
      if (node === undefined) return { anchored };
      continue;
    }
    return { anchored };
  }
  if (node && !isAlias(node) && users.has(node)) anchored.push(node);
  return { anchored };
}

/** The map's own entry for `key` (not one from a merge). */
function ownPair(map: YAMLMap, key: string): Pair<Node, Node | null> | undefined {
  return map.items.find(
    (pair) => isScalar(pair.key) && String(pair.key.value) === key && !isMergeKey(pair),
  ) as Pair<Node, Node | null> | undefined;
}

/**
 * The value node the map gives `key`: its own, else the first merged map's that has it; undefined
 * when neither has it. Aliases are followed.
 */
function mergedValue(doc: Document, map: YAMLMap, key: string, depth = 0): Node | null | undefined {
  const own = ownPair(map, key);
  if (own) return own.value;
  if (depth > 64) return undefined; // merges of merges this deep are hostile input, not manifests
  for (const pair of map.items) {
    if (!isMergeKey(pair)) continue;
    const value = resolved(doc, pair.value as Node | null);
    const sources = isSeq(value)
      ? value.items.map((item) => resolved(doc, item as Node | null))
      : [value];
    for (const source of sources) {
      if (!isMap(source)) continue;
      const found = mergedValue(doc, source, key, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The list item (a map, or an alias to one) whose `key` field reads `equals`, merges included. */
export function findItem(
  doc: Document,
  seq: YAMLSeq,
  selector: Exclude<PathSegment, string | number>,
): Node | undefined {
  return seq.items.find((item) => {
    const map = resolved(doc, item as Node | null);
    if (!isMap(map)) return false;
    const field = mergedValue(doc, map, selector.key);
    // A scalar's value is a string, number, boolean or bigint here; String() prints it as the
    // selector text (`port: 8080` matches `[port=8080]`).
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    return isScalar(field) && field.value !== null && String(field.value) === selector.equals;
  }) as Node | undefined;
}

/** The 1-based line of an offset in the document's text. */
export function lineOf(source: string, offset: number): number {
  return linesBefore(source, offset) + 1;
}

function resolved(doc: Document, node: Node | null | undefined): Node | null | undefined {
  return isAlias(node) ? node.resolve(doc) : node;
}

/** A merge key as the yaml-1.1 schema reads one: a plain `<<` (its value is then a symbol). */
function isMergeKey(pair: Pair): boolean {
  const key = pair.key;
  if (!isScalar(key) || (key.type !== undefined && key.type !== 'PLAIN')) return false;
  return key.value === '<<' || (typeof key.value === 'symbol' && key.value.description === '<<');
}
