/**
 * A cheap look at a segment's top-level `kind` without parsing it, so documents that no mutator
 * can touch (CRDs, RBAC, ConfigMaps…) pass through as bytes (issue #9: streams dominated by CRDs).
 */

const BLOCK_KIND = /^kind:[ \t]*["']?([A-Za-z0-9]+)["']?[ \t]*(?:#.*)?\r?$/m;
const FLOW_KIND = /"kind"\s*:\s*"([A-Za-z0-9]+)"/;

/**
 * Returns the document's top-level kind, or undefined when it cannot be told cheaply (no
 * `kind:` at column 0, or flow/JSON style where nesting cannot be told apart without a parse).
 */
export function prescanKind(text: string): string | undefined {
  const block = BLOCK_KIND.exec(text);
  if (block) return block[1];
  return undefined;
}

/** Returns true when the segment holds no YAML node at all: only comments, blank lines, markers. */
export function isCommentOnly(text: string): boolean {
  return /^(?:[ \t]*(?:#.*|---[ \t]*(?:#.*)?|\.\.\.[ \t]*)?\r?(?:\n|$))*$/.test(text);
}

/** Returns the flow-style kind if the document looks like JSON; used only as a hint. */
export function prescanFlowKind(text: string): string | undefined {
  return FLOW_KIND.exec(text)?.[1];
}

/** `Kind name` of a document from its text, for messages about documents that did not parse. */
export function resourceHint(text: string): { resource?: string } {
  const kind = prescanKind(text);
  const name = /^metadata:[^\n]*\n(?:[ \t]+[^\n]*\n)*?[ \t]+name:[ \t]*["']?([^\s"'#]+)/m.exec(text)?.[1];
  return kind || name ? { resource: [kind, name].filter(Boolean).join(' ') } : {};
}
