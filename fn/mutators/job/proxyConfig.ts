/**
 * `holdApplicationUntilProxyStarts: true` merged into the pod's `proxy.istio.io/config`
 * annotation, so a wrapped Job's program starts with a working network (issue #4). The merge is
 * the shared one (key by key, every other key and comment kept; docs/background.md#istio).
 */
import { readProxyConfig, setProxyConfigField } from '../../workloads/istioProxyConfig.ts';
import { scalarText } from '../../core/scalarText.ts';

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
  const read = readProxyConfig(existing);
  if (!read.ok) return { kind: 'invalid', problem: read.problem };
  const current = read.fields[HOLD];
  if (current === true) return { kind: 'unchanged' };
  if (current === false) return { kind: 'keptFalse' };
  if (current !== undefined)
    return {
      kind: 'invalid',
      problem: `${HOLD} is ${JSON.stringify(scalarText(current))}, not true or false`,
    };
  const value = setProxyConfigField(read.text, [HOLD], true);
  if (value === undefined)
    return { kind: 'invalid', problem: 'it could not be merged without changing other fields' };
  // An empty annotation becomes a one-line value; a `|` block keeps its trailing newline.
  return { kind: 'set', value: read.text.endsWith('\n') ? value : value.replace(/\n+$/, '') };
}
