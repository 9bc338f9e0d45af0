// The facts docs/mutators/istio-gateway-api.md states about what istiod generates, held to the real
// renders and Istio's own deployment-controller goldens (fixtures README): if an Istio release
// changes them, these fail.
import test from 'ava';
import { parse } from 'yaml';
import {
  CLASS_DEFAULTS_LABEL,
  PROXY_CONTAINER,
} from '../../../fn/mutators/istio-gateway-api/facts.ts';
import type { Container, PodTemplate } from '../../../fn/core/kubeObject.ts';
import { fixtureObjects, only } from './fixtures.ts';

/** The kube-gateway template istiod renders Deployments from, out of the rendered injector
 * ConfigMap. */
function kubeGatewayTemplate(tag: string): string {
  const cm = only(`helm/istiod-${tag}-default-injector.yaml`, 'ConfigMap') as {
    data?: Record<string, string>;
  };
  const config = parse(cm.data!['config']!) as { templates: Record<string, string> };
  return config.templates['kube-gateway']!;
}

for (const tag of ['1.26.8', '1.30.3']) {
  test(`kube-gateway template ${tag}: no grace period, not injected, the pod's annotations mounted for pilot-agent`, (t) => {
    const template = kubeGatewayTemplate(tag);
    t.notRegex(template, /terminationGracePeriodSeconds/);
    t.regex(template, /"sidecar\.istio\.io\/inject" "false"/);
    t.regex(template, /- name: istio-proxy\n/);
    t.regex(template, /- name: istio-podinfo\n\s+mountPath: \/etc\/istio\/pod/);
    t.regex(template, /- path: "annotations"\n\s+fieldRef:\n\s+fieldPath: metadata\.annotations/);
    t.notRegex(template, /MINIMUM_DRAIN_DURATION|EXIT_ON_ZERO_ACTIVE_CONNECTIONS/);
  });
}

for (const file of ['pilot-testdata/simple-1.26.8.yaml', 'pilot-testdata/simple-1.30.3.yaml']) {
  test(`${file}: the generated Deployment has Kubernetes' default grace and Istio's drain defaults`, (t) => {
    const deployment = only(file, 'Deployment');
    const template = deployment.spec.template as PodTemplate;
    t.is(template.spec?.terminationGracePeriodSeconds, undefined);
    t.is(template.metadata?.labels?.['sidecar.istio.io/inject'], 'false');
    const proxy = template.spec?.containers?.find((c) => c.name === PROXY_CONTAINER);
    t.truthy(proxy);
    t.deepEqual(
      proxy!.env!.filter((e) => /DRAIN|EXIT_ON_ZERO/.test(e.name)),
      [],
    );
    t.is(template.metadata?.annotations?.['proxy.istio.io/config'], undefined);
  });
}

test('customizations@1.30.3: the deployment overlay is merged by container name, not replacing the container', (t) => {
  const deployment = only('pilot-testdata/customizations-1.30.3.yaml', 'Deployment');
  t.is(deployment.spec.replicas, 4);
  t.is(deployment.metadata?.annotations?.['cm-annotation'], 'cm-annotation-value');
  const proxy = (deployment.spec.template as PodTemplate).spec!.containers!.find(
    (c) => c.name === PROXY_CONTAINER,
  ) as Container & { resources?: { requests?: Record<string, string> } };
  t.is(proxy.resources?.requests?.['cpu'], '222m');
  // Everything the template gave the container is still there: a strategic merge, not a
  // replacement.
  t.truthy(proxy.image);
  t.true(proxy.env!.some((e) => e.name === 'PROXY_CONFIG'));
  t.deepEqual(proxy.args?.slice(0, 2), ['proxy', 'router']);
  // The overlay's key in the test input is the one the ConfigMap variant carries.
  const cm = fixtureObjects('variants/gateway-params-gw-options.yaml').find(
    (o) => o.kind === 'ConfigMap',
  ) as { data: Record<string, string> };
  t.regex(cm.data['deployment']!, /cpu: 222m/);
});

test("infrastructure-labels-annotations@1.30.3: spec.infrastructure.annotations reach the Service, the Deployment and the pod; the Gateway's own do not", (t) => {
  const objects = fixtureObjects('pilot-testdata/infrastructure-labels-annotations-1.30.3.yaml');
  const service = objects.find((o) => o.kind === 'Service')!;
  const deployment = objects.find((o) => o.kind === 'Deployment')!;
  t.is(service.metadata?.annotations?.['fizz'], 'buzz');
  t.is(deployment.metadata?.annotations?.['fizz'], 'buzz');
  t.is((deployment.spec.template as PodTemplate).metadata?.annotations?.['fizz'], 'buzz');
  t.is(service.metadata?.annotations?.['should-not'], undefined);
  t.is(service.metadata?.annotations?.['gateway.networking.k8s.io/ignore'], undefined);
});

for (const tag of ['1.26.8', '1.28.10', '1.30.3']) {
  test(`istiod chart ${tag}: gatewayClasses renders a class-defaults ConfigMap in istiod's namespace`, (t) => {
    const cm = only(`helm/istiod-${tag}-nlb-gatewayclass.yaml`, 'ConfigMap') as {
      metadata: { name: string; namespace: string; labels: Record<string, string> };
      data: Record<string, string>;
    };
    t.is(cm.metadata.name, 'istio-default-gatewayclass-istio');
    t.is(cm.metadata.namespace, 'istio-system');
    t.is(cm.metadata.labels[CLASS_DEFAULTS_LABEL], 'istio');
    t.deepEqual(Object.keys(cm.data), ['service']);
  });
}
