/**
 * A run's `--namespace` is filled into the namespaced objects the inventory holds that set none,
 * as Helm and kubectl fill in the release's namespace; the cluster-scoped kinds it reads keep
 * none, as the API server keeps none for them (fn/workloads/inventory.ts buildInventory). Inputs:
 * Bitnami's nginx chart with an ALB IngressClass and its IngressClassParams, the AWS Load Balancer
 * Controller's Gateway example with its GatewayClass, a Karpenter NodePool, none of which sets a
 * namespace on its cluster-scoped objects, and Istio's bookinfo sample, whose Services set none.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { readStream } from '../../fn/stream/stream.ts';
import { buildInventory } from '../../fn/workloads/inventory.ts';
import type { KubeObject } from '../../fn/core/kubeObject.ts';
import { fixturePath } from '../helpers/fixtures.ts';

function inventoryOf(files: string[][], defaultNamespace: string) {
  const objects = files.flatMap((parts) => {
    const text = readFileSync(fixturePath(...parts), 'utf8');
    return readStream(text, { extraKinds: [], parseAll: true }).resources.map((r) => r.object);
  });
  return { objects, inventory: buildInventory(objects, defaultNamespace) };
}

const namespaces = (objects: readonly KubeObject[]) => objects.map((o) => o.metadata?.namespace);

test('with --namespace, cluster-scoped objects keep no namespace; namespaced ones get it', (t) => {
  const { objects, inventory } = inventoryOf(
    [
      ['ingress-classes', 'bitnami-nginx-22.1.1-alb-class-params.yaml'],
      ['aws-lbc', 'l7-gateway-echoserver.yaml'],
      ['karpenter', 'spot-v1.yaml'],
      ['corpus', 'istio-sample-kube-bookinfo.yaml'],
    ],
    'run-ns',
  );
  for (const [kind, held] of [
    ['IngressClass', inventory.ingressClasses],
    ['IngressClassParams', inventory.ingressClassParams],
    ['GatewayClass', inventory.gatewayClasses],
    ['NodePool', inventory.nodePools],
  ] as const) {
    // The inputs hold each cluster-scoped kind, with no namespace of its own.
    t.true(
      objects.some((o) => o.kind === kind && o.metadata?.namespace === undefined),
      `the inputs hold a ${kind} with no namespace`,
    );
    t.true(held.length > 0, `the inventory holds the ${kind}`);
    t.deepEqual(
      namespaces(held),
      held.map(() => undefined),
      `${kind}: no namespace filled in`,
    );
  }
  // bookinfo's Services set no namespace: they get the run's; the chart's keep their own.
  const service = (name: string) => inventory.services.find((s) => s.metadata?.name === name);
  t.is(service('productpage')?.metadata?.namespace, 'run-ns');
  t.is(service('nginx')?.metadata?.namespace, 'web');
});
