/** `explain --output json`: the Explanation as it is (schema `kube-graceful.dev/explain/v1`,
 * docs/explain-schema.md), its strings' control characters as JSON escapes. */
import { printableJson } from '../../core/printable.ts';
import type { Explanation } from '../explain.ts';

// JSON.stringify throws on a bigint: it is printed as a JSON number.
function bigintAsNumber(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value;
}

/** Returns the explanation as pretty-printed JSON (ends with a newline). */
export function renderJson(explanation: Explanation): string {
  return `${printableJson(JSON.stringify(explanation, bigintAsNumber, 2))}\n`;
}
