import test from 'ava';
import type { KubeObject } from '../../fn/core/kubeObject.ts';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { corpusObject, fixturePath } from '../helpers/fixtures.ts';
import { recognizeServiceLoadBalancer } from '../helpers/recognize.ts';
import {
  AWS_DEFAULT_DEREGISTRATION_DELAY_SECONDS,
  LOAD_BALANCERS,
  ingressBackendServiceNames,
  parseAwsTargetGroupAttributes,
  pickDrainWindow,
  recognizeIngressLoadBalancer,
  serviceSelectsPod,
} from '../../fn/timing/loadBalancers.ts';
import type { LoadBalancerProvider } from '../../fn/timing/loadBalancers.ts';

// The Service of the real chart render (test/fixtures/corpus/istio-gateway-1.17.8-nlb.yaml,
// istio/istio manifests/charts/gateway @1.17.8, Apache-2.0), read from the fixture itself.
const corpusNlbService = corpusObject('istio-gateway-1.17.8-nlb.yaml', 'Service') as KubeObject;

test('corpus NLB Service (istio-gateway-1.17.8-nlb.yaml) is an AWS NLB with IP targets, 180 s', (t) => {
  const r = recognizeServiceLoadBalancer(corpusNlbService);
  t.is(r.provider, 'aws-nlb-ip');
  t.is(r.drainWindowSeconds, 180);
  t.is(
    r.evidence,
    'Service istio-system/istio-public-ingressgateway: ' +
      'AWS NLB with IP targets ' +
      '(service.beta.kubernetes.io/aws-load-balancer-nlb-target-type: ip)',
  );
  t.is(r.note, undefined);
  t.deepEqual(r.targetGroup, {
    deregistrationDelaySeconds: 200,
    deregistrationDelayIsDefault: false,
    connectionTermination: true,
    unreadable: [],
  });
});

test('corpus NLB Service selects the gateway pods of the same file', (t) => {
  const podLabels = {
    'sidecar.istio.io/inject': 'true',
    app: 'istio-public-ingressgateway',
    istio: 'public-ingressgateway',
  };
  t.true(serviceSelectsPod(corpusNlbService, podLabels, undefined, 'istio-system'));
  t.false(serviceSelectsPod(corpusNlbService, podLabels, undefined, 'default'));
  t.false(
    serviceSelectsPod(
      corpusNlbService,
      { app: 'istio-public-ingressgateway' },
      'istio-system',
      'istio-system',
    ),
  );
});

function service(
  annotations: Record<string, string>,
  spec: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'gw', namespace: 'ns', annotations },
    spec,
  };
}

const AWS = 'service.beta.kubernetes.io/aws-load-balancer-type';
const TARGET = 'service.beta.kubernetes.io/aws-load-balancer-nlb-target-type';

const serviceCases: Array<{
  name: string;
  service: KubeObject;
  provider: LoadBalancerProvider;
  window: number;
  evidence: string;
  noted: boolean;
}> = [
  {
    name: 'external + ip',
    service: service({ [AWS]: 'external', [TARGET]: 'ip' }, { type: 'LoadBalancer' }),
    provider: 'aws-nlb-ip',
    window: 180,
    noted: false,
    evidence: `Service ns/gw: AWS NLB with IP targets (${TARGET}: ip)`,
  },
  {
    name: 'legacy nlb-ip alone means IP targets',
    service: service({ [AWS]: 'nlb-ip' }, { type: 'LoadBalancer' }),
    provider: 'aws-nlb-ip',
    window: 180,
    noted: false,
    evidence: `Service ns/gw: AWS NLB with IP targets (${AWS}: nlb-ip)`,
  },
  {
    name: 'loadBalancerClass service.k8s.aws/nlb + ip',
    service: service(
      { [TARGET]: 'ip' },
      { type: 'LoadBalancer', loadBalancerClass: 'service.k8s.aws/nlb' },
    ),
    provider: 'aws-nlb-ip',
    window: 180,
    noted: false,
    evidence: `Service ns/gw: AWS NLB with IP targets (${TARGET}: ip)`,
  },
  {
    name: 'target-type ip without a type annotation: assumed NLB, noted',
    service: service({ [TARGET]: 'ip' }, { type: 'LoadBalancer' }),
    provider: 'aws-nlb-ip',
    window: 180,
    noted: true,
    evidence: `Service ns/gw: AWS NLB with IP targets (${TARGET}: ip)`,
  },
  {
    name:
      'external without a target type: ' +
      'the controller default (instance), Cluster policy, noted',
    service: service({ [AWS]: 'external' }, { type: 'LoadBalancer' }),
    provider: 'aws-nlb-instance',
    window: 5,
    noted: true,
    evidence:
      `Service ns/gw: AWS NLB with instance targets (${AWS}: external); targets are nodes, ` +
      `so a pod's deletion deregisters nothing; externalTrafficPolicy Cluster: ` +
      `only kube-proxy's endpoint update (≈ 5 s)`,
  },
  {
    name: 'explicit instance targets, externalTrafficPolicy Cluster: in-cluster propagation only',
    service: service(
      { [AWS]: 'external', [TARGET]: 'instance' },
      { type: 'LoadBalancer', externalTrafficPolicy: 'Cluster' },
    ),
    provider: 'aws-nlb-instance',
    window: 5,
    noted: false,
    evidence:
      `Service ns/gw: AWS NLB with instance targets (${TARGET}: instance); ` +
      `targets are nodes, so a pod's deletion deregisters nothing; ` +
      `externalTrafficPolicy Cluster: only kube-proxy's endpoint update (≈ 5 s)`,
  },
  {
    name:
      'in-tree nlb, externalTrafficPolicy Local: ' +
      'node health check defaults 10 s × 2 plus propagation',
    service: service({ [AWS]: 'nlb' }, { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }),
    provider: 'aws-nlb-instance',
    window: 25,
    noted: false,
    evidence:
      `Service ns/gw: AWS NLB with instance targets (${AWS}: nlb); targets are nodes, ` +
      `so a pod's deletion deregisters nothing; externalTrafficPolicy Local: ` +
      `the NLB stops sending to the node after its health check fails: ` +
      `W = propagation + interval × unhealthy threshold = 5 + 10 (default) × 2 (default) = ` +
      `25 s (defaults of the in-tree cloud provider for Local)`,
  },
  {
    name: 'instance targets, Local, health-check annotations read',
    service: service(
      {
        [TARGET]: 'instance',
        'service.beta.kubernetes.io/aws-load-balancer-healthcheck-interval': '30',
        'service.beta.kubernetes.io/aws-load-balancer-healthcheck-unhealthy-threshold': '3',
      },
      {
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Local',
        loadBalancerClass: 'service.k8s.aws/nlb',
      },
    ),
    provider: 'aws-nlb-instance',
    window: 95,
    noted: false,
    evidence:
      `Service ns/gw: AWS NLB with instance targets (${TARGET}: instance); ` +
      `targets are nodes, so a pod's deletion deregisters nothing; ` +
      `externalTrafficPolicy Local: the NLB stops sending to the node after its health check ` +
      `fails: W = propagation + interval × unhealthy threshold = 5 + 30 ` +
      `(service.beta.kubernetes.io/aws-load-balancer-healthcheck-interval) × 3 ` +
      `(service.beta.kubernetes.io/aws-load-balancer-healthcheck-unhealthy-threshold) = 95 s ` +
      `(defaults of the AWS Load Balancer Controller for Local)`,
  },
  {
    name: 'GKE NEG',
    service: service({ 'cloud.google.com/neg': '{"ingress": true}' }),
    provider: 'gke-neg',
    window: 30,
    noted: false,
    evidence:
      'Service ns/gw: GKE container-native load balancing (cloud.google.com/neg: {"ingress": ' +
      'true})',
  },
  {
    name: 'GKE NEG explicitly off falls back to the Service type',
    service: service({ 'cloud.google.com/neg': '{"ingress": false}' }, { type: 'ClusterIP' }),
    provider: 'in-cluster',
    window: 5,
    noted: false,
    evidence: 'Service ns/gw: in-cluster traffic only (spec.type: ClusterIP)',
  },
  {
    name: 'generic LoadBalancer',
    service: service({}, { type: 'LoadBalancer' }),
    provider: 'generic-lb',
    window: 15,
    noted: false,
    evidence:
      'Service ns/gw: type LoadBalancer with no recognised provider annotation (spec.type: ' +
      'LoadBalancer)',
  },
  {
    name: 'ClusterIP',
    service: service({}, { type: 'ClusterIP' }),
    provider: 'in-cluster',
    window: 5,
    noted: false,
    evidence: 'Service ns/gw: in-cluster traffic only (spec.type: ClusterIP)',
  },
  {
    name: 'type omitted defaults to ClusterIP',
    service: service({}),
    provider: 'in-cluster',
    window: 5,
    noted: false,
    evidence: 'Service ns/gw: in-cluster traffic only (spec.type: ClusterIP)',
  },
  {
    name: 'NodePort, externalTrafficPolicy Cluster',
    service: service({}, { type: 'NodePort' }),
    provider: 'in-cluster',
    window: 5,
    noted: false,
    evidence: 'Service ns/gw: in-cluster traffic only (spec.type: NodePort)',
  },
  {
    name: 'NodePort, externalTrafficPolicy Local: generic LB, noted',
    service: service({}, { type: 'NodePort', externalTrafficPolicy: 'Local' }),
    provider: 'generic-lb',
    window: 15,
    noted: true,
    evidence:
      'Service ns/gw: NodePort with externalTrafficPolicy Local (spec.externalTrafficPolicy: ' +
      'Local)',
  },
];

for (const c of serviceCases) {
  test(`recognizeServiceLoadBalancer: ${c.name}`, (t) => {
    const r = recognizeServiceLoadBalancer(c.service);
    t.is(r.provider, c.provider);
    t.is(r.drainWindowSeconds, c.window);
    t.is(r.evidence, c.evidence);
    t.is(r.note !== undefined, c.noted);
    t.is(r.estimate, LOAD_BALANCERS[c.provider].estimate);
  });
}

// Contour's own render (test/fixtures/gateways/contour/render-1.33.6.yaml, projectcontour/contour
// examples/render/contour.yaml@v1.33.6): the envoy Service is type LoadBalancer, externalTraffic-
// Policy Local, with only aws-load-balancer-backend-protocol: an in-tree Classic ELB.
test('Contour render: an AWS annotation without a type is a Classic ELB; Local: 5 + 10 × 6 = 65 s', (t) => {
  const contour = parseAllDocuments(
    readFileSync(fixturePath('gateways', 'contour', 'render-1.33.6.yaml'), 'utf8'),
    { version: '1.1' },
  )
    .map((doc) => doc.toJS() as KubeObject | null)
    .find((o) => o?.kind === 'Service' && o.metadata?.name === 'envoy');
  if (contour === undefined || contour === null) throw new Error('no envoy Service');
  const r = recognizeServiceLoadBalancer(contour);
  t.is(r.provider, 'aws-clb');
  t.is(r.drainWindowSeconds, 65);
  t.is(r.targetType, 'instance');
  t.is(r.targetGroup, undefined);
  t.is(
    r.evidence,
    'Service projectcontour/envoy: AWS Classic ELB with instance targets ' +
      '(service.beta.kubernetes.io/aws-load-balancer-backend-protocol without ' +
      `${AWS}: the in-tree cloud provider's default); targets are nodes, so a pod's deletion ` +
      'deregisters nothing; externalTrafficPolicy Local: the ELB stops sending to the node ' +
      'after its health check fails: W = propagation + interval × unhealthy threshold = ' +
      '5 + 10 (default) × 6 (default) = 65 s ' +
      '(defaults of the in-tree cloud provider (Classic ELB) for Local)',
  );
  // Where the AWS Load Balancer Controller's webhook makes it an NLB the window is shorter: said.
  t.regex(r.note ?? '', /Service webhook.*NLB with instance targets.*after 2 checks, not 6/);
});

test('Classic ELB: Cluster policy is propagation only; Local reads the health-check annotations', (t) => {
  const cluster = recognizeServiceLoadBalancer(
    service(
      { 'service.beta.kubernetes.io/aws-load-balancer-internal': 'true' },
      { type: 'LoadBalancer' },
    ),
  );
  t.is(cluster.provider, 'aws-clb');
  t.is(cluster.drainWindowSeconds, 5);
  t.is(cluster.note, undefined);
  const tuned = recognizeServiceLoadBalancer(
    service(
      {
        'service.beta.kubernetes.io/aws-load-balancer-healthcheck-interval': '5',
        'service.beta.kubernetes.io/aws-load-balancer-healthcheck-unhealthy-threshold': '2',
      },
      { type: 'LoadBalancer', externalTrafficPolicy: 'Local' },
    ),
  );
  t.is(tuned.provider, 'aws-clb');
  t.is(tuned.drainWindowSeconds, 15);
  // A ClusterIP Service with an AWS annotation has no load balancer at all.
  const clusterIp = recognizeServiceLoadBalancer(
    service({ 'service.beta.kubernetes.io/aws-load-balancer-internal': 'true' }),
  );
  t.is(clusterIp.provider, 'in-cluster');
});

test('AWS NLB without target-group attributes carries AWS default 300 s', (t) => {
  const r = recognizeServiceLoadBalancer(
    service({ [AWS]: 'external', [TARGET]: 'ip' }, { type: 'LoadBalancer' }),
  );
  t.is(r.targetGroup?.deregistrationDelaySeconds, AWS_DEFAULT_DEREGISTRATION_DELAY_SECONDS);
  t.true(r.targetGroup?.deregistrationDelayIsDefault);
  t.is(r.targetGroup?.connectionTermination, undefined);
});

// GKE's connection draining gives requests in flight time after the NEG endpoint is removed; it
// does not keep new connections coming (kubernetes/ingress-gce pkg/backends/features/draining.go,
// the compute API's ConnectionDraining): W stays the NEG's, the draining is when connections close.
test('GKE NEG: BackendConfig connection draining is when connections close, not part of W', (t) => {
  const svc = service({
    'cloud.google.com/neg': '{"ingress": true}',
    'cloud.google.com/backend-config': '{"default": "drain60"}',
  });
  const backendConfig: KubeObject = {
    apiVersion: 'cloud.google.com/v1',
    kind: 'BackendConfig',
    metadata: { name: 'drain60', namespace: 'ns' },
    spec: { connectionDraining: { drainingTimeoutSec: 60 } },
  };
  const r = recognizeServiceLoadBalancer(svc, { backendConfigs: [backendConfig] });
  t.is(r.drainWindowSeconds, 30);
  t.deepEqual(r.connectionDraining, { seconds: 60, backendConfig: 'drain60' });
  t.is(r.note, undefined);

  const missing = recognizeServiceLoadBalancer(svc);
  t.is(missing.drainWindowSeconds, 30);
  t.deepEqual(missing.connectionDraining, { seconds: 0 });
  t.regex(missing.note ?? '', /BackendConfig drain60 is not in the stream/);

  // Without a BackendConfig, draining is off (0 s): connections close when the endpoint goes.
  const bare = recognizeServiceLoadBalancer(
    service({ 'cloud.google.com/neg': '{"ingress": true}' }),
  );
  t.deepEqual(bare.connectionDraining, { seconds: 0 });
});

test('GKE NEG reads the BackendConfigs a ports-form annotation names and takes the shortest draining', (t) => {
  const svc = service({
    'cloud.google.com/neg': '{"ingress": true}',
    'cloud.google.com/backend-config': '{"ports": {"80": "short", "http2": "long"}}',
  });
  const config = (name: string, seconds: number): KubeObject => ({
    apiVersion: 'cloud.google.com/v1',
    kind: 'BackendConfig',
    metadata: { name, namespace: 'ns' },
    spec: { connectionDraining: { drainingTimeoutSec: seconds } },
  });
  const r = recognizeServiceLoadBalancer(svc, {
    backendConfigs: [config('short', 10), config('long', 45)],
  });
  t.is(r.drainWindowSeconds, 30);
  t.deepEqual(r.connectionDraining, { seconds: 10, backendConfig: 'short' });
  t.is(r.note, undefined);
});

// GKE's Ingress controller takes the classes of the annotation only
// (kubernetes/ingress-gce pkg/utils/utils.go@v1.41.1 IsGCEIngress), and needs NEGs for a
// ClusterIP Service and for gce-internal (pkg/controller/translator/translator.go@v1.41.1).
test('a gce Ingress is GKE load balancing: NEG for a ClusterIP Service, noted for a NodePort one', (t) => {
  const gce = ingress({ 'kubernetes.io/ingress.class': 'gce' });
  const clusterIp = service({ 'cloud.google.com/backend-config': '{"default": "d"}' });
  const d: KubeObject = {
    apiVersion: 'cloud.google.com/v1',
    kind: 'BackendConfig',
    metadata: { name: 'd', namespace: 'ns' },
    spec: { connectionDraining: { drainingTimeoutSec: 40 } },
  };
  const r = recognizeIngressLoadBalancer(gce, {
    services: [clusterIp],
    backendConfigs: [d],
    ingressClasses: [],
    ingressClassParams: [],
  });
  t.is(r?.provider, 'gke-neg');
  t.is(r?.drainWindowSeconds, 30);
  t.deepEqual(r?.connectionDraining, { seconds: 40, backendConfig: 'd' });
  t.is(r?.note, undefined);
  t.is(
    r?.evidence,
    'Ingress ns/web: GKE Ingress, container-native load balancing ' +
      '(kubernetes.io/ingress.class: gce)',
  );
  const nodePort = recognizeIngressLoadBalancer(gce, {
    services: [service({}, { type: 'NodePort' })],
    backendConfigs: [],
    ingressClasses: [],
    ingressClassParams: [],
  });
  t.is(nodePort?.provider, 'gke-neg');
  t.regex(nodePort?.note ?? '', /NodePort Service without cloud\.google\.com\/neg/);
  const internal = recognizeIngressLoadBalancer(
    ingress({ 'kubernetes.io/ingress.class': 'gce-internal' }),
    {
      services: [service({}, { type: 'NodePort' })],
      backendConfigs: [],
      ingressClasses: [],
      ingressClassParams: [],
    },
  );
  t.is(internal?.note, undefined);
  // spec.ingressClassName: gce names no class GKE's controller has: not recognised as GKE, and
  // no controller kube-graceful knows takes it.
  const byField = recognizeIngressLoadBalancer(ingress({}, { ingressClassName: 'gce' }));
  t.not(byField?.provider, 'gke-neg');
  t.regex(byField?.notModelled?.what ?? '', /its class gce is not one kube-graceful knows/);
});

function ingress(
  annotations: Record<string, string>,
  spec: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'web', namespace: 'ns', annotations },
    spec,
  };
}

const ingressCases: Array<{
  name: string;
  ingress: KubeObject;
  provider?: LoadBalancerProvider;
  window?: number;
  evidence?: string;
  noted?: boolean;
}> = [
  {
    name: 'ALB IP targets',
    ingress: ingress(
      { 'alb.ingress.kubernetes.io/target-type': 'ip' },
      { ingressClassName: 'alb' },
    ),
    provider: 'aws-alb-ip',
    window: 45,
    noted: false,
    evidence: 'Ingress ns/web: AWS ALB with IP targets (alb.ingress.kubernetes.io/target-type: ip)',
  },
  {
    name: 'ALB instance targets: conservative, noted',
    ingress: ingress({}, { ingressClassName: 'alb' }),
    provider: 'aws-alb-ip',
    window: 45,
    noted: true,
    evidence: 'Ingress ns/web: AWS ALB with instance targets (spec.ingressClassName: alb)',
  },
  {
    name: 'AGIC by annotation',
    ingress: ingress({ 'appgw.ingress.kubernetes.io/connection-draining': 'true' }),
    provider: 'azure-appgw',
    window: 90,
    noted: false,
    evidence:
      'Ingress ns/web: Azure Application Gateway ' +
      '(appgw.ingress.kubernetes.io/connection-draining: true)',
  },
  {
    name: 'AGIC by ingressClassName',
    ingress: ingress({}, { ingressClassName: 'azure-application-gateway' }),
    provider: 'azure-appgw',
    window: 90,
    noted: false,
    evidence:
      'Ingress ns/web: Azure Application Gateway (spec.ingressClassName: ' +
      'azure-application-gateway)',
  },
  { name: 'nginx Ingress is neither', ingress: ingress({}, { ingressClassName: 'nginx' }) },
];

for (const c of ingressCases) {
  test(`recognizeIngressLoadBalancer: ${c.name}`, (t) => {
    const r = recognizeIngressLoadBalancer(c.ingress);
    if (c.provider === undefined) {
      t.is(r, undefined);
      return;
    }
    t.is(r?.provider, c.provider);
    t.is(r?.drainWindowSeconds, c.window);
    t.is(r?.evidence, c.evidence);
    t.is(r?.note !== undefined, c.noted ?? false);
  });
}

test('ingressBackendServiceNames follows default backend and rule paths', (t) => {
  const ing = ingress(
    {},
    {
      defaultBackend: { service: { name: 'fallback', port: { number: 80 } } },
      rules: [
        {
          http: {
            paths: [{ path: '/', backend: { service: { name: 'web', port: { number: 80 } } } }],
          },
        },
        {
          http: {
            paths: [
              { path: '/api', backend: { service: { name: 'api' } } },
              { backend: { service: { name: 'web' } } },
            ],
          },
        },
      ],
    },
  );
  t.deepEqual(ingressBackendServiceNames(ing), ['fallback', 'web', 'api']);
});

const attributeCases: Array<[string, string, ReturnType<typeof parseAwsTargetGroupAttributes>]> = [
  [
    'absent → AWS default 300',
    '',
    { deregistrationDelaySeconds: 300, deregistrationDelayIsDefault: true, unreadable: [] },
  ],
  [
    'delay and termination',
    [
      'deregistration_delay.timeout_seconds=200',
      'deregistration_delay.connection_termination.enabled=true',
    ].join(','),
    {
      deregistrationDelaySeconds: 200,
      deregistrationDelayIsDefault: false,
      connectionTermination: true,
      unreadable: [],
    },
  ],
  [
    'spaces and other attributes',
    ' preserve_client_ip.enabled=true , deregistration_delay.timeout_seconds = 30 ',
    { deregistrationDelaySeconds: 30, deregistrationDelayIsDefault: false, unreadable: [] },
  ],
  [
    'unreadable delay is not defaulted',
    [
      'deregistration_delay.timeout_seconds=5m',
      'deregistration_delay.connection_termination.enabled=yes',
    ].join(','),
    {
      deregistrationDelayIsDefault: false,
      unreadable: [
        'deregistration_delay.timeout_seconds=5m',
        'deregistration_delay.connection_termination.enabled=yes',
      ],
    },
  ],
  [
    'above AWS maximum 3600',
    'deregistration_delay.timeout_seconds=4000',
    {
      deregistrationDelayIsDefault: false,
      unreadable: ['deregistration_delay.timeout_seconds=4000'],
    },
  ],
];

for (const [name, value, expected] of attributeCases) {
  test(`parseAwsTargetGroupAttributes: ${name}`, (t) => {
    t.deepEqual(parseAwsTargetGroupAttributes(value), expected);
  });
}

const selectorCases: Array<
  [string, KubeObject, Record<string, string>, string | undefined, string | undefined, boolean]
> = [
  [
    'all pairs match',
    service({}, { selector: { app: 'a' } }),
    { app: 'a', x: 'y' },
    'ns',
    'ns',
    true,
  ],
  ['value differs', service({}, { selector: { app: 'a' } }), { app: 'b' }, 'ns', 'ns', false],
  [
    'empty selector selects nothing',
    service({}, { selector: {} }),
    { app: 'a' },
    'ns',
    'ns',
    false,
  ],
  ['no selector', service({}, {}), { app: 'a' }, 'ns', 'ns', false],
  ['other namespace', service({}, { selector: { app: 'a' } }), { app: 'a' }, 'ns', 'other', false],
  [
    'pod namespace unknown',
    service({}, { selector: { app: 'a' } }),
    { app: 'a' },
    'ns',
    undefined,
    true,
  ],
  [
    'both namespaces unknown',
    { kind: 'Service', metadata: { name: 's' }, spec: { selector: { app: 'a' } } },
    { app: 'a' },
    undefined,
    undefined,
    true,
  ],
];

for (const [name, svc, labels, svcNs, podNs, expected] of selectorCases) {
  test(`serviceSelectsPod: ${name}`, (t) => {
    t.is(serviceSelectsPod(svc, labels, svcNs, podNs), expected);
  });
}

test('pickDrainWindow: the longest window wins and the rest are listed', (t) => {
  const nlb = recognizeServiceLoadBalancer(corpusNlbService);
  const internal = recognizeServiceLoadBalancer(service({}, { type: 'ClusterIP' }));
  const alb = recognizeIngressLoadBalancer(
    ingress({ 'alb.ingress.kubernetes.io/target-type': 'ip' }),
  )!;
  const choice = pickDrainWindow([internal, nlb, alb]);
  t.is(choice?.provider, 'aws-nlb-ip');
  t.is(choice?.drainWindowSeconds, 180);
  t.is(choice?.evidence, nlb.evidence);
  t.deepEqual(choice?.alsoConsidered, [`${internal.evidence}: 5 s`, `${alb.evidence}: 45 s`]);
  t.is(pickDrainWindow([]), undefined);
});

test('NLB target type is structured: ip for IP targets, instance (and no target group) for nodes', (t) => {
  t.is(
    recognizeServiceLoadBalancer(
      service({ [AWS]: 'external', [TARGET]: 'ip' }, { type: 'LoadBalancer' }),
    ).targetType,
    'ip',
  );
  t.is(
    recognizeServiceLoadBalancer(service({ [AWS]: 'nlb-ip' }, { type: 'LoadBalancer' })).targetType,
    'ip',
  );
  const instance = recognizeServiceLoadBalancer(
    service(
      {
        [AWS]: 'nlb',
        'service.beta.kubernetes.io/aws-load-balancer-target-group-attributes':
          'deregistration_delay.timeout_seconds=30',
      },
      { type: 'LoadBalancer' },
    ),
  );
  t.is(instance.targetType, 'instance');
  t.is(
    instance.targetGroup,
    undefined,
    'a pod deletion deregisters no node: the target-group delay does not apply to it',
  );
  t.is(recognizeServiceLoadBalancer(service({}, { type: 'LoadBalancer' })).targetType, undefined);
});

test('NLB instance targets, Local: an unreadable health-check annotation counts the default and says so', (t) => {
  const r = recognizeServiceLoadBalancer(
    service(
      {
        [AWS]: 'nlb',
        'service.beta.kubernetes.io/aws-load-balancer-healthcheck-interval': '10s',
      },
      { type: 'LoadBalancer', externalTrafficPolicy: 'Local' },
    ),
  );
  t.is(r.drainWindowSeconds, 25);
  t.regex(r.note ?? '', /healthcheck-interval: "10s" is not a whole number/);
});

test('pickDrainWindow: ties go to the first candidate', (t) => {
  const a = recognizeServiceLoadBalancer({
    ...service({}, { type: 'ClusterIP' }),
    metadata: { name: 'a', namespace: 'ns' },
  });
  const b = recognizeServiceLoadBalancer({
    ...service({}, { type: 'ClusterIP' }),
    metadata: { name: 'b', namespace: 'ns' },
  });
  t.is(pickDrainWindow([a, b])?.evidence, a.evidence);
});

test('LOAD_BALANCERS holds the documented figures (docs/background.md)', (t) => {
  const windows = Object.fromEntries(
    Object.entries(LOAD_BALANCERS).map(([k, v]) => [k, v.drainWindowSeconds]),
  );
  t.deepEqual(windows, {
    'aws-nlb-ip': 180,
    'aws-nlb-instance': 5,
    'aws-clb': 5,
    'aws-alb-ip': 45,
    'gke-neg': 30,
    'azure-appgw': 90,
    'generic-lb': 15,
    'in-cluster': 5,
  });
  t.true(LOAD_BALANCERS['generic-lb'].estimate);
  t.true(LOAD_BALANCERS['in-cluster'].estimate);
  t.false(LOAD_BALANCERS['aws-nlb-ip'].estimate);
  t.regex(LOAD_BALANCERS['aws-nlb-ip'].source ?? '', /#1719.*#2366.*#3270/);
});
