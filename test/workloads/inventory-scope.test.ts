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
  // The inputs hold each cluster-scoped kind, with no namespace of their own.
  for (const kind of ['IngressClass', 'IngressClassParams', 'GatewayClass', 'NodePool'])
    t.true(
      objects.some((o) => o.kind === kind && o.metadata?.namespace === undefined),
      `the inputs hold a ${kind} with no namespace`,
    );
  t.true(inventory.ingressClasses.length > 0);
  t.deepEqual(
    namespaces(inventory.ingressClasses),
    inventory.ingressClasses.map(() => undefined),
  );
  t.true(inventory.ingressClassParams.length > 0);
  t.deepEqual(
    namespaces(inventory.ingressClassParams),
    inventory.ingressClassParams.map(() => undefined),
  );
  t.true(inventory.gatewayClasses.length > 0);
  t.deepEqual(
    namespaces(inventory.gatewayClasses),
    inventory.gatewayClasses.map(() => undefined),
  );
  t.true(inventory.nodePools.length > 0);
  t.deepEqual(
    namespaces(inventory.nodePools),
    inventory.nodePools.map(() => undefined),
  );
  // bookinfo's Services set no namespace: they get the run's; the chart's keep their own.
  const service = (name: string) => inventory.services.find((s) => s.metadata?.name === name);
  t.is(service('productpage')?.metadata?.namespace, 'run-ns');
  t.is(service('nginx')?.metadata?.namespace, 'web');
});
