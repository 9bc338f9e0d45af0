/**
 * Issue #16: the inventory answers "which Services select these pods", "which Ingresses are in
 * this namespace" and "which Namespace has this name" from indexes instead of scanning every
 * object per workload. The answers must be exactly the scans' answers, in the same (stream) order:
 * mutators take the first of equals. Held on every corpus chart, on bookinfo in many namespaces,
 * and on random Services and pods made of the values that could slip through (numbers, booleans,
 * null, non-mapping selectors, inherited names such as `constructor`, unset namespaces).
 */
import test from 'ava';
import fc from 'fast-check';
import { denseStream } from '../../scripts/gen-dense.mjs';
import { getAt } from '../../fn/core/fieldPath.ts';
import { readStream } from '../../fn/stream/stream.ts';
import { serviceSelectsPod } from '../../fn/timing/loadBalancers.ts';
import {
  buildInventory,
  ingressesIn,
  namespaceNamed,
  servicesSelecting,
} from '../../fn/workloads/inventory.ts';
import type { Inventory } from '../../fn/workloads/inventory.ts';
import { podTemplatePath } from '../../fn/workloads/kinds.ts';
import { labelsOf } from '../../fn/core/kubeObject.ts';
import type { KubeObject, ObjectMeta } from '../../fn/core/kubeObject.ts';
import { corpus, corpusNames } from '../helpers/fixtures.ts';
import { propertyParameters } from '../helpers/reliability-runs.ts';

/**
 * The scan the index replaces (fn/mutators/shared/timingInputs.ts and
 * fn/mutators/app/servingContainers.ts before issue #16).
 */
const scanned = (
  inventory: Inventory,
  labels: Record<string, unknown>,
  namespace: string | undefined,
) =>
  inventory.services.filter((s) =>
    serviceSelectsPod(s, labels as Record<string, string>, s.metadata?.namespace, namespace),
  );
const indexed = (
  inventory: Inventory,
  labels: Record<string, unknown>,
  namespace: string | undefined,
) =>
  servicesSelecting(inventory, labels, namespace, (s) =>
    serviceSelectsPod(s, labels as Record<string, string>, s.metadata?.namespace, namespace),
  );

/** Every workload's pod labels and namespace in a stream, and the stream's inventory. */
function workloadsOf(text: string, defaultNamespace?: string) {
  const { resources } = readStream(text, { extraKinds: [], parseAll: true });
  const inventory = buildInventory(
    resources.map((r) => r.object),
    defaultNamespace,
  );
  const pods = resources.flatMap((r) => {
    const path = podTemplatePath(r.object.apiVersion, r.object.kind, []);
    if (!path) return [];
    const template = getAt(r.object, path) as { metadata?: ObjectMeta } | undefined;
    return [{ labels: labelsOf(template?.metadata), namespace: r.ref(defaultNamespace).namespace }];
  });
  return { inventory, pods };
}

// The charts with workloads (CRD-only ones such as istio-base have nothing to look up).
const streams = [
  ...corpusNames().map((name) => ({ name, text: corpus(name) })),
  { name: 'bookinfo ×5 (scripts/gen-dense.mjs)', text: denseStream(5) },
].filter(({ text }) => workloadsOf(text).pods.length > 0);

for (const { name, text } of streams) {
  test(`${name}: indexed lookups give what the scans gave, in stream order`, (t) => {
    for (const defaultNamespace of [undefined, 'default']) {
      const { inventory, pods } = workloadsOf(text, defaultNamespace);
      for (const pod of pods) {
        t.deepEqual(
          indexed(inventory, pod.labels, pod.namespace),
          scanned(inventory, pod.labels, pod.namespace),
        );
        t.deepEqual(
          ingressesIn(inventory, pod.namespace),
          inventory.ingresses.filter((i) => i.metadata?.namespace === pod.namespace),
        );
        t.is(
          namespaceNamed(inventory, pod.namespace),
          pod.namespace === undefined
            ? undefined
            : inventory.namespaces.find((n) => n.metadata?.name === pod.namespace),
        );
      }
    }
  });
}

test('bookinfo ×5: every Deployment has the Services of its own copy in front, none of another', (t) => {
  const { inventory, pods } = workloadsOf(denseStream(5));
  t.is(pods.length, 30);
  for (const pod of pods) {
    const services = indexed(inventory, pod.labels, pod.namespace);
    t.is(services.length, 1);
    t.is(services[0]!.metadata?.namespace, pod.namespace);
  }
});

const value = fc.constantFrom<unknown>(
  'a',
  'b',
  '1',
  1,
  true,
  'true',
  null,
  'function Object() { [native code] }',
  { nested: 'a' },
  ['a'],
);
const key = fc.constantFrom('app', 'tier', 'constructor', '0', 'toString');
const namespace = fc.constantFrom<string | undefined>('x', 'y', undefined);
const selector = fc.oneof(
  fc.dictionary(key, value, { maxKeys: 3 }),
  fc.constantFrom<unknown>(null, 'app=a', ['a'], {}),
);
const service = fc
  .record({ selector, namespace })
  .map(({ selector: s, namespace: ns }): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 's', ...(ns === undefined ? {} : { namespace: ns }) },
    spec: { selector: s },
  }));
const pod = fc.record({ labels: fc.dictionary(key, value, { maxKeys: 3 }), namespace });

test('random Services and pods: the index finds exactly what the scan finds, in order', (t) => {
  fc.assert(
    fc.property(
      fc.array(service, { maxLength: 12 }),
      fc.array(pod, { minLength: 1, maxLength: 6 }),
      (services, pods) => {
        const inventory = buildInventory(services);
        return pods.every((p) => {
          const a = indexed(inventory, p.labels, p.namespace);
          const b = scanned(inventory, p.labels, p.namespace);
          return a.length === b.length && a.every((s, i) => s === b[i]);
        });
      },
    ),
    propertyParameters(2000),
  );
  t.pass();
});
