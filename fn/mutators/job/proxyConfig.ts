/**
 * `holdApplicationUntilProxyStarts: true` merged into the pod's `proxy.istio.io/config`
 * annotation, whose value is a YAML document: set our one key, keep every other key, comment and
 * style (DOMAIN.md §2 "Merge into an existing value key by key … Keep what you don't own").
 */
import { isMap, parseDocument } from 'yaml';
import { parseOptions, stringifyOptions } from '../../yaml/options.ts';

export const PROXY_CONFIG_ANNOTATION = 'proxy.istio.io/config';
const HOLD = 'holdApplicationUntilProxyStarts';

/** What to do with the annotation. */
export type HoldMerge =
  | { readonly kind: 'set'; readonly value: string }
  | { readonly kind: 'unchanged' }
  /** The pod sets it to false: a choice we keep and report. */
  | { readonly kind: 'keptFalse' }
  | { readonly kind: 'invalid'; readonly problem: string };

/** Returns the annotation value with the hold set, or why it is left alone. */
export function mergeHoldApplication(existing: string | undefined): HoldMerge {
  if (existing === undefined || existing.trim() === '') return { kind: 'set', value: `${HOLD}: true` };
  const doc = parseDocument(existing, parseOptions());
  const problem = doc.errors[0];
  if (problem) return { kind: 'invalid', problem: problem.message.split('\n')[0] ?? 'not YAML' };
  if (doc.contents === null) return { kind: 'set', value: `${HOLD}: true` };
  if (!isMap(doc.contents)) return { kind: 'invalid', problem: 'the value is not a YAML map of ProxyConfig fields' };
  const current: unknown = doc.get(HOLD);
  if (current === true) return { kind: 'unchanged' };
  if (current === false) return { kind: 'keptFalse' };
  if (current !== undefined) return { kind: 'invalid', problem: `${HOLD} is ${JSON.stringify(String(current))}, not true or false` };
  doc.set(HOLD, true);
  const text = doc.toString(stringifyOptions());
  // Keep the value's own ending: a `|` block ends with a newline, a quoted one-liner does not.
  return { kind: 'set', value: existing.endsWith('\n') ? text : text.replace(/\n+$/, '') };
}
