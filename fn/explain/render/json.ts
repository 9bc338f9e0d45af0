/** `explain --output json`: the Explanation as it is (schema `kube-graceful.dev/explain/v1`,
 * docs/explain-schema.md). */
import type { Explanation } from '../explain.ts';

/** Returns the explanation as pretty-printed JSON (ends with a newline). */
export function renderJson(explanation: Explanation): string {
  return (
    `${JSON.stringify(explanation, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value), 2)}` +
    `\n`
  );
}
