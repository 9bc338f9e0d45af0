/**
 * How the header counts what `explain` explains: pod-template workloads as "workload", and the
 * objects an object mutator handled (an Envoy Gateway `EnvoyProxy`, which is no workload: the proxy
 * Deployment is generated from it in the cluster) by their own kind.
 */
import { MUTATORS } from '../../mutators/registry.ts';
import type { Explanation, WorkloadExplanation } from '../explain.ts';

const OBJECT_MUTATORS = new Set<string>(
  MUTATORS.filter((m) => m.subject === 'object').map((m) => m.id),
);

/**
 * Returns e.g. `1 workload`, `1 EnvoyProxy`, `2 workloads, 1 EnvoyProxy` (kinds in stream
 * order).
 */
export function countedSubjects(explained: readonly WorkloadExplanation[]): string {
  const counts = new Map<string, number>();
  for (const w of explained) {
    const noun = OBJECT_MUTATORS.has(w.mutator) ? w.resource.kind : 'workload';
    counts.set(noun, (counts.get(noun) ?? 0) + 1);
  }
  return [...counts].map(([noun, n]) => `${n} ${n === 1 ? noun : plural(noun)}`).join(', ');
}

/** English plural of a noun or a Kubernetes kind (`EnvoyProxy` → `EnvoyProxies`). */
function plural(noun: string): string {
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

/** One side of the header's sentence: `patched, none loses requests`. */
function side(label: string, failing: number, unknown: number): string {
  const loses =
    failing === 0 ? 'none loses requests' : `${failing} lose${failing === 1 ? 's' : ''} requests`;
  return `${label}, ${loses}${unknown ? ` and the outcome of ${unknown} is unknown` : ''}`;
}

/**
 * Returns the header's outcome as a sentence a newcomer reads (issue #29 item 9): `As written, 1
 * loses requests; patched, none loses requests.`, with the outcomes kube-graceful cannot tell
 * (issue #26) when there are any. A workload "loses requests" where its timeline has a failure
 * window.
 */
export function outcomeSentence(summary: Explanation['summary']): string {
  return (
    `${side('As written', summary.failingAsWritten, summary.unknownAsWritten)}; ` +
    `${side('patched', summary.failingPatched, summary.unknownPatched)}.`
  );
}

/**
 * Returns the header after `kube-graceful explain: `: what was explained and the outcome sentence,
 * or that nothing was.
 */
export function headline(explanation: Explanation): string {
  return explanation.summary.workloads === 0
    ? 'no workload was handled by a mutator'
    : `${countedSubjects(explanation.workloads)}. ${outcomeSentence(explanation.summary)}`;
}
