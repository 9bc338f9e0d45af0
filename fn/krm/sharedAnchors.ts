/**
 * Items of one ResourceList may share anchors: an alias in one item refers to an anchor in
 * another, or in functionConfig. That is valid YAML, and kustomize reads it so
 * (TestDeAnchorResourceList in api/resmap/reswrangler_test.go@kustomize/v5.5.0: "Anchor references
 * cross list elements in a ResourceList"; kyaml's listWithAnchors in
 * kyaml/kio/byteio_reader_test.go@kyaml/v0.18.1 shares a whole Deployment spec).
 *
 * Each item is edited as a document of its own, where such an alias would refer to nothing. So
 * the alias is written out in the item's document as the flow YAML of the node it refers to, and
 * put back as the alias when the item is written, wherever that text came through the edits
 * unchanged. An edited item that shares anchors is checked on the whole list written back: every
 * item must read as expected (the edited ones with their edits, the others as they were), so an
 * edit inside an anchor never changes another item behind the user's back.
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { Document, Node } from 'yaml';
import { KubeGracefulError } from '../core/errors.ts';
import { resourceHint } from '../document/prescan.ts';
import type { Edit } from '../document/edit.ts';
import { aliasUses, flowYaml, undefinedAliasMessage } from '../yaml/aliases.ts';
import type { AliasUse } from '../yaml/aliases.ts';
import { MAX_ALIAS_COUNT, parseOptions } from '../yaml/options.ts';
import { dedent } from './indentation.ts';
import type { ResourceListInput, SharedItems } from './resourceListInput.ts';
import { columnOf } from '../core/positions.ts';

/** Returns the items that share anchors; throws E_PARSE for an alias that refers to no anchor. */
export function sharedAnchorItems(
  doc: Document,
  itemNodes: ReadonlyArray<Node | null>,
  text: string,
  lineOf: (offset: number) => number,
): SharedItems {
  const items = new Set<number>();
  const external = new Map<number, AliasUse[]>();
  if (!text.includes('*')) return { items, external, doc, itemNodes };
  const starts = itemNodes.map((node) => node?.range?.[0] ?? -1);
  const itemOf = (offset: number | undefined): number | undefined => {
    if (offset === undefined) return undefined;
    let low = 0;
    let high = starts.length - 1;
    let found: number | undefined;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (starts[mid]! <= offset) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    const range = found === undefined ? undefined : itemNodes[found]?.range;
    return range && offset < range[1] ? found : undefined;
  };
  for (const use of aliasUses(doc)) {
    const at = use.alias.range?.[0];
    const aliasItem = itemOf(at);
    if (!use.target) {
      const { message, hint } = undefinedAliasMessage(use.alias.source);
      const itemText = aliasItem === undefined ? '' : itemSource(text, itemNodes[aliasItem]!);
      throw new KubeGracefulError(
        'E_PARSE',
        message,
        {
          document: aliasItem === undefined ? 1 : aliasItem + 1,
          ...resourceHint(itemText),
          ...(at !== undefined ? { line: lineOf(at) } : {}),
        },
        hint,
      );
    }
    const targetItem = itemOf(use.target.range?.[0]);
    if (aliasItem === targetItem) continue;
    if (aliasItem !== undefined) {
      items.add(aliasItem);
      external.set(aliasItem, [...(external.get(aliasItem) ?? []), use]);
    }
    if (targetItem !== undefined) items.add(targetItem);
  }
  return { items, external, doc, itemNodes };
}

/**
 * Returns item `index`'s text (`[start, end)` of the list's `text`) with its aliases to outside
 * anchors written out.
 */
export function expandExternalAliases(
  shared: SharedItems,
  index: number,
  text: string,
  [start, end]: readonly [number, number],
): { text: string; expanded: Array<{ text: string; alias: string }> } {
  const { doc } = shared;
  const uses = shared.external.get(index);
  if (!uses) return { text: text.slice(start, end), expanded: [] };
  let out = '';
  let at = start;
  const expanded: Array<{ text: string; alias: string }> = [];
  for (const { alias, target } of uses) {
    const [from, to] = alias.range!;
    let value: unknown;
    try {
      value = target!.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT });
    } catch {
      throw new KubeGracefulError(
        'E_ALIAS_BOMB',
        `too many alias expansions behind *${alias.source} (possible "billion laughs" input)`,
        { document: index + 1, ...resourceHint(itemSource(text, shared.itemNodes[index]!)) },
        'Expand the anchors in the input, or remove the aliases.',
      );
    }
    const flow = flowYaml(value);
    out += text.slice(at, from) + flow;
    expanded.push({ text: flow, alias: alias.source });
    at = to;
  }
  return { text: out + text.slice(at, end), expanded };
}

/** An item's text as a document of its own, for messages. */
function itemSource(text: string, node: Node): string {
  const [start, end] = node.range ?? [0, 0];
  return dedent(text.slice(start, end), columnOf(text, start));
}

/**
 * Returns the item edits to use when edited items share anchors: the first of `choices` (see
 * ItemShape in resourceList.ts) with which the whole list reads as expected; throws E_INPUT when
 * none does (an edit inside an anchor that another item uses, which that item does not get).
 */
export function verifySharedItems(input: ResourceListInput, choices: readonly Edit[][]): Edit[] {
  const shared = input.shared!;
  const changed = input.items.filter((item) => item.doc.changed);
  if (!changed.some((item) => shared.items.has(item.doc.place.document - 1))) return choices[0]!;
  const expected = shared.itemNodes.map(
    (node) => node?.toJS(shared.doc, { maxAliasCount: MAX_ALIAS_COUNT }) as unknown,
  );
  for (const item of changed) expected[item.doc.place.document - 1] = item.doc.data;
  let other = -1;
  for (const edits of choices) {
    other = mismatch(input.text, edits, expected);
    if (other === -1) return edits;
  }
  const item = changed.find((i) => shared.items.has(i.doc.place.document - 1))!;
  const otherNode = shared.itemNodes[other];
  const otherName = otherNode
    ? resourceHint(itemSource(input.text, otherNode)).resource
    : undefined;
  throw new KubeGracefulError(
    'E_INPUT',
    `an edit to this item would also change item ${other + 1}` +
      `${otherName ? ` (${otherName})` : ''}: ` +
      'they share a node through an anchor (&) and an alias (*), ' +
      'and kube-graceful does not edit shared nodes',
    { ...item.doc.place, ...resourceHint(item.doc.text) },
    'Write the shared fields out in each item instead of an anchor (&) and aliases (*) to it.',
  );
}

/** Returns the index of the first item that does not read as expected with the edits made (-1:
 * none; the list count when the list does not read). */
function mismatch(text: string, edits: readonly Edit[], expected: readonly unknown[]): number {
  let out = '';
  let at = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  out += text.slice(at);
  const doc = parseDocument(out, parseOptions());
  const items = isMap(doc.contents) ? doc.contents.get('items', true) : undefined;
  if (doc.errors.length || !isSeq(items) || items.items.length !== expected.length)
    return expected.length;
  try {
    return items.items.findIndex(
      (node, i) =>
        !isDeepStrictEqual(
          (node as Node | null)?.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT }),
          expected[i],
        ),
    );
  } catch {
    return expected.length;
  }
}
