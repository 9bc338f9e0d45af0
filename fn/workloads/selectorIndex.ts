/**
 * Services indexed by namespace and by the first pair of their selector, so finding the Services
 * in front of one workload looks at the few that could select it, not at every Service in the
 * stream (issue #16: 2,400 workloads × 2,400 Services was most of a dense stream's run).
 *
 * The index only narrows; the caller's own test decides (serviceSelectsPod in
 * fn/timing/loadBalancers.ts). It relies on three rules of that test, and leaves out only what
 * they refuse:
 * - a selector that is not a mapping, or an empty one, selects nothing: such Services are left out;
 * - a pod a selector picks carries every pair of it, so also the first: the candidates are the
 *   Services whose first pair the pod carries (label and value compared as text, as the test does);
 * - a Service and a pod in two different namespaces never meet; one whose namespace is not known
 *   (no metadata.namespace, no default) meets any.
 * Should the test ever select more (say, an empty selector matching all), this must change with it.
 * test/workloads/selector-index.test.ts holds the candidates, filtered, to the whole list filtered.
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { scalarText } from '../core/scalarText.ts';
import { specField } from '../core/kubeObject.ts';

export interface SelectorIndex {
  /** The Services that may select pods with these labels in that namespace, in stream order. */
  candidates(
    podLabels: Readonly<Record<string, unknown>>,
    podNamespace: string | undefined,
  ): KubeObject[];
}

/** Selector key → selector value as text → Services, each with its place in the stream. */
type ByFirstPair = Map<string, Map<string, Array<[number, KubeObject]>>>;

/** Returns the index of `services` (in stream order). */
export function selectorIndex(services: readonly KubeObject[]): SelectorIndex {
  const byNamespace = new Map<unknown, ByFirstPair>();
  services.forEach((service, at) => {
    const selector = specField(service, 'selector');
    if (selector === null || typeof selector !== 'object') return;
    const first = Object.entries(selector as Record<string, unknown>)[0];
    if (!first) return;
    const namespace = service.metadata?.namespace;
    let byKey = byNamespace.get(namespace);
    if (!byKey) byNamespace.set(namespace, (byKey = new Map() as ByFirstPair));
    let byValue = byKey.get(first[0]);
    if (!byValue) byKey.set(first[0], (byValue = new Map<string, Array<[number, KubeObject]>>()));
    const value = String(first[1]);
    const bucket = byValue.get(value);
    if (bucket) bucket.push([at, service]);
    else byValue.set(value, [[at, service]]);
  });
  return {
    candidates(podLabels, podNamespace) {
      // A pod of unknown namespace meets every Service; one of a known namespace, the Services of
      // that namespace and those of unknown namespace.
      const groups =
        podNamespace === undefined
          ? [...byNamespace.values()]
          : [byNamespace.get(podNamespace), byNamespace.get(undefined)];
      const found: Array<[number, KubeObject]> = [];
      let buckets = 0;
      for (const byKey of groups) {
        if (!byKey) continue;
        for (const [key, byValue] of byKey) {
          // Read as the test reads it (an own label, or anything the object inherits by that name).
          const label: unknown = podLabels[key];
          if (label === undefined || label === null) continue;
          const bucket = byValue.get(scalarText(label));
          if (!bucket) continue;
          for (const entry of bucket) found.push(entry);
          buckets++;
        }
      }
      // Each Service is in one bucket; several buckets are merged back into stream order.
      if (buckets > 1) found.sort((a, b) => a[0] - b[0]);
      return found.map(([, service]) => service);
    },
  };
}
