/**
 * Anchors and aliases as YAML defines them: an alias `*a` refers to the last node anchored `&a`
 * before it in the same document (YAML 1.2 §3.2.2.2, §7.1; eemeli/yaml resolves the same way in
 * src/nodes/Alias.ts `resolve`: "the last instance of the source anchor before this node"). Anchors
 * never reach across documents (`---`), which is why kustomize's TestDeAnchorMultiDoc
 * (api/resmap/reswrangler_test.go@kustomize/v5.5.0) fails with "unknown anchor 'color-used'
 * referenced", while TestDeAnchorResourceList shows them reaching across the items of one
 * ResourceList.
 */
import { isAlias, visit } from 'yaml';
import type { Alias, Document, Node } from 'yaml';
import { yamlQuoted } from './escapedStrings.ts';

/** An alias and the anchored node it refers to (undefined when no anchor comes before it). */
export interface AliasUse {
  readonly alias: Alias;
  readonly target: Node | undefined;
}

/** Returns every alias of the document in order, each with the node it refers to. */
export function aliasUses(doc: Document): AliasUse[] {
  const latest = new Map<string, Node>();
  const uses: AliasUse[] = [];
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) uses.push({ alias: node, target: latest.get(node.source) });
      else if (node.anchor) latest.set(node.anchor, node);
    },
  });
  return uses;
}

/** Returns the first alias that refers to no anchor, if any. */
export function firstUndefinedAlias(doc: Document): Alias | undefined {
  return aliasUses(doc).find((use) => use.target === undefined)?.alias;
}

/** The message and the fix for an alias that refers to no anchor. */
export function undefinedAliasMessage(source: string): { message: string; hint: string } {
  return {
    message: `undefined alias *${source}: no anchor &${source} comes before it in this document`,
    hint:
      `Define the anchor (&${source}) before the alias, ` +
      `or write the value out instead of *${source}; ` +
      `anchors do not reach across documents (---).`,
  };
}

/**
 * Flow YAML for a value read from YAML, on one line: it can stand where an alias stood (a flow
 * node in any context). JSON for what JSON can say, with no control character raw
 * (escapedStrings.ts); bigints keep their digits, and `!!binary` values (Uint8Array) stay binary.
 */
export function flowYaml(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number')
    return Number.isNaN(value)
      ? '.nan'
      : value === Infinity
        ? '.inf'
        : value === -Infinity
          ? '-.inf'
          : JSON.stringify(value);
  if (typeof value === 'string') return yamlQuoted(value);
  if (typeof value === 'boolean') return JSON.stringify(value);
  if (value instanceof Uint8Array)
    return `!!binary ${JSON.stringify(Buffer.from(value).toString('base64'))}`;
  if (Array.isArray(value)) return `[${value.map(flowYaml).join(', ')}]`;
  if (value instanceof Map)
    return `{${[...value].map(([k, v]) => `${flowYaml(k)}: ${flowYaml(v)}`).join(', ')}}`;
  if (value instanceof Set) return flowYaml([...value]);
  return `{${Object.entries(value)
    .map(([k, v]) => `${yamlQuoted(k)}: ${flowYaml(v)}`)
    .join(', ')}}`;
}
