// The pure decision for Gateway API gateways istiod deploys, run on objects parsed from the real
// fixtures (test/fixtures/gateways/istio-gateway-api/README.md): exact fields and values.
import test from 'ava';
import { parse } from 'yaml';
import { setAt } from '../../../fn/core/fieldPath.ts';
import { isGateway, istioGatewayClasses } from '../../../fn/mutators/istio-gateway-api/objects.ts';
import type {
  ConfigMapObject,
  GatewayObject,
} from '../../../fn/mutators/istio-gateway-api/objects.ts';
import { planIstioGatewayApi } from '../../../fn/mutators/istio-gateway-api/plan.ts';
import type {
  IstioGatewayApiInputs,
  IstioGatewayApiOutcome,
} from '../../../fn/mutators/istio-gateway-api/decision.ts';
import type { KubeObject } from '../../../fn/core/kubeObject.ts';
import { fixtureObjects } from './fixtures.ts';
import { fromDefault, fromFlag } from '../../helpers/sources.ts';
import { sourceText } from '../../../fn/core/source.ts';

/** The seed thread's R and B (README's quickstart): R = 10, B = 10. */
const SEED = {
  maxRequest: { value: 10, source: fromFlag('max-request') },
  buffer: { value: 10, source: fromFlag('buffer') },
};
const DEFAULTS = {
  maxRequest: { value: 20, source: fromDefault('max-request') },
  buffer: { value: 5, source: fromDefault('buffer') },
};
const ISTIO_130 = { major: 1, minor: 30, source: 'flag --istio-version' };

function decide(
  objects: KubeObject[],
  extra: Partial<IstioGatewayApiInputs> = {},
): IstioGatewayApiOutcome {
  const gateways: GatewayObject[] = objects.filter(isGateway);
  if (gateways.length !== 1) throw new Error(`${gateways.length} Gateways`);
  const gateway = gateways[0]!;
  const className = String(gateway.spec?.gatewayClassName);
  if (!istioGatewayClasses(objects).has(className))
    throw new Error(`${className} is not an Istio class`);
  return planIstioGatewayApi({
    gateway,
    objects,
    className,
    istioVersion: ISTIO_130,
    istiodNamespace: 'istio-system',
    kubernetesVersion: '1.31',
    ...SEED,
    ...extra,
  });
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

const codes = (outcome: IstioGatewayApiOutcome): string[] => outcome.findings.map((f) => f.code);

test('bookinfo sample (type LoadBalancer, no provider): a new ConfigMap with G, M and exit-on-zero, and the Gateway pointed at it', (t) => {
  const outcome = decide(fixtureObjects('samples/bookinfo-gateway-1.30.3.yaml'), DEFAULTS);
  t.is(outcome.timing?.loadBalancer.provider, 'generic-lb');
  t.is(outcome.timing?.plan.graceSeconds.value, 15 + 20 + 5);
  t.deepEqual(
    outcome.changes.map((c) => [c.object, c.path, c.value]),
    [
      [
        'gateway',
        ['spec', 'infrastructure', 'parametersRef'],
        { group: '', kind: 'ConfigMap', name: 'bookinfo-gateway-kube-graceful' },
      ],
    ],
  );
  const cm = outcome.create!.configMap;
  t.deepEqual(cm.metadata, { name: 'bookinfo-gateway-kube-graceful' });
  // drainDuration W + B = 20 s is under Istio's 45 s default: not written.
  t.deepEqual(parse(String(cm.data!['deployment'])), {
    spec: {
      template: {
        spec: {
          terminationGracePeriodSeconds: 40,
          containers: [
            {
              name: 'istio-proxy',
              env: [
                { name: 'MINIMUM_DRAIN_DURATION', value: '15s' },
                { name: 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS', value: 'true' },
              ],
            },
          ],
        },
      },
    },
  });
  t.regex(
    outcome.create!.reason,
    /terminationGracePeriodSeconds = 40: G = S \+ R \+ B = 15 \+ 20 \+ 5 = 40/,
  );
  t.regex(outcome.create!.reason, /W: Service bookinfo-gateway-istio: type LoadBalancer/);
  t.deepEqual(codes(outcome), ['ISTIO_GATEWAY_API_CLASS_DEFAULTS_NOT_IN_STREAM']);
});

test('NLB with IP targets in spec.infrastructure.annotations: W = 180, and drainDuration goes into the pod annotation', (t) => {
  const outcome = decide(fixtureObjects('variants/gateway-nlb.yaml'));
  t.is(outcome.timing?.loadBalancer.provider, 'aws-nlb-ip');
  t.regex(
    sourceText(outcome.timing!.inputs.drainWindow.source),
    /Service bookinfo\/bookinfo-gateway-istio: AWS NLB with IP targets/,
  );
  t.deepEqual(outcome.create!.configMap.metadata, {
    name: 'bookinfo-gateway-kube-graceful',
    namespace: 'bookinfo',
  });
  t.deepEqual(parse(String(outcome.create!.configMap.data!['deployment'])), {
    spec: {
      template: {
        spec: {
          terminationGracePeriodSeconds: 200,
          containers: [
            {
              name: 'istio-proxy',
              env: [
                { name: 'MINIMUM_DRAIN_DURATION', value: '180s' },
                { name: 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS', value: 'true' },
              ],
            },
          ],
        },
        metadata: { annotations: { 'proxy.istio.io/config': 'drainDuration: 190s\n' } },
      },
    },
  });
  t.regex(outcome.create!.reason, /drainDuration = "190s": D = W \+ B = 180 \+ 10 = 190/);
  t.regex(outcome.create!.reason, /MINIMUM_DRAIN_DURATION = "180s": M = S = 180/);
});

for (const tag of ['1.26.8', '1.28.10', '1.30.3']) {
  test(`class defaults from the istiod ${tag} chart put the Service behind an NLB: W = 180 for the bookinfo sample`, (t) => {
    const objects = [
      ...fixtureObjects('samples/bookinfo-gateway-1.30.3.yaml'),
      ...fixtureObjects(`helm/istiod-${tag}-nlb-gatewayclass.yaml`),
    ];
    const outcome = decide(objects);
    t.is(outcome.timing?.loadBalancer.provider, 'aws-nlb-ip');
    t.is(outcome.timing?.plan.graceSeconds.value, 200);
    // Not in istiod's namespace: not class defaults.
    const elsewhere = decide(objects, { istiodNamespace: 'istio-other' });
    t.is(elsewhere.timing?.loadBalancer.provider, 'generic-lb');
  });
}

test("the operator's larger class defaults (grace 600, MINIMUM_DRAIN_DURATION 300s) are kept: only exit-on-zero and drainDuration are written", (t) => {
  const objects = [
    ...fixtureObjects('samples/bookinfo-gateway-1.30.3.yaml'),
    ...fixtureObjects('helm/istiod-1.30.3-tuned-gatewayclass.yaml'),
  ];
  const outcome = decide(objects);
  t.is(outcome.timing?.loadBalancer.provider, 'aws-nlb-ip');
  // S is the kept minimum drain: G needs 300 + 10 + 10 = 320, and 600 is kept.
  t.is(outcome.timing?.plan.preStopSeconds.value, 300);
  t.is(outcome.timing?.plan.graceSeconds.value, 600);
  t.deepEqual(parse(String(outcome.create!.configMap.data!['deployment'])), {
    spec: {
      template: {
        spec: {
          containers: [
            {
              name: 'istio-proxy',
              env: [{ name: 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS', value: 'true' }],
            },
          ],
        },
        metadata: { annotations: { 'proxy.istio.io/config': 'drainDuration: 190s\n' } },
      },
    },
  });
  // The kept 300 s minimum drain plus R outlasts the NLB's default 300 s deregistration delay.
  t.deepEqual(codes(outcome), ['LB_DEREGISTRATION_TOO_SHORT', 'ISTIO_GATEWAY_API_VALUE_KEPT']);
  t.regex(
    outcome.findings[1]!.message,
    new RegExp(
      String.raw`terminationGracePeriodSeconds 600 set in the class-defaults ConfigMap ` +
        String.raw`istio-default-gatewayclass-istio is more than the plan needs \(320`,
    ),
  );
});

test("an existing parameters ConfigMap (Istio's customizations case) is merged into: the user's keys, values and order stay", (t) => {
  const objects = fixtureObjects('variants/gateway-params-gw-options.yaml');
  const outcome = decide(objects, {
    drainWindow: { value: 180, source: fromFlag('drain-window') },
  });
  t.is(outcome.create, undefined);
  t.is(outcome.changes.length, 1);
  const change = outcome.changes[0]!;
  t.is(change.object, 'parameters');
  t.deepEqual(change.path, ['data', 'deployment']);
  t.is(
    change.value,
    [
      'metadata:',
      '  annotations:',
      '    cm-annotation: cm-annotation-value',
      'spec:',
      '  replicas: 4',
      '  template:',
      '    spec:',
      '      containers:',
      '      - name: istio-proxy',
      '        resources:',
      '          requests:',
      '            cpu: 222m',
      '        env:',
      '        - name: MINIMUM_DRAIN_DURATION',
      '          value: 180s',
      '        - name: EXIT_ON_ZERO_ACTIVE_CONNECTIONS',
      '          value: "true"',
      '      terminationGracePeriodSeconds: 200',
      '    metadata:',
      '      annotations:',
      '        proxy.istio.io/config: |',
      '          drainDuration: 190s',
      '',
    ].join('\n'),
  );
  t.regex(change.reason, /W: flag --drain-window/);
  // The user's overlay as written is a prefix of the merged one, byte for byte: only additions
  // after it.
  const original = String(
    (objects.find((o) => o.kind === 'ConfigMap') as ConfigMapObject).data!['deployment'],
  );
  t.true(String(change.value).startsWith(original));
});

test('idempotent: the outcome applied, a second decision changes nothing', (t) => {
  for (const file of [
    'variants/gateway-nlb.yaml',
    'samples/bookinfo-gateway-1.30.3.yaml',
    'variants/gateway-params-gw-options.yaml',
  ]) {
    let objects = fixtureObjects(file);
    const first = decide(objects);
    for (const change of first.changes) {
      const kind = change.object === 'gateway' ? 'Gateway' : 'ConfigMap';
      objects = objects.map((o) =>
        o.kind === kind ? (setAt(o, change.path, change.value) as KubeObject) : o,
      );
    }
    if (first.create) objects.push(first.create.configMap);
    const second = decide(objects);
    t.deepEqual(second.changes, [], file);
    t.is(second.create, undefined, file);
    t.is(second.timing?.plan.graceSeconds.value, first.timing?.plan.graceSeconds.value, file);
  }
});

test("a user's smaller values in the parameters overlay are raised, a larger one kept, another value kept with a warning", (t) => {
  const objects = clone(fixtureObjects('variants/gateway-params-gw-options.yaml'));
  const cm = objects.find((o) => o.kind === 'ConfigMap') as ConfigMapObject;
  cm.data!['deployment'] =
    String(cm.data!['deployment']).replace(
      '        resources:',
      [
        '        env:',
        '        - name: EXIT_ON_ZERO_ACTIVE_CONNECTIONS',
        '          value: "false"',
        '        - name: MINIMUM_DRAIN_DURATION',
        '          value: 60s',
        '        resources:',
      ].join('\n'),
    ) + '      terminationGracePeriodSeconds: 90 # ours\n';
  const outcome = decide(objects, {
    drainWindow: { value: 180, source: fromFlag('drain-window') },
  });
  const written = parse(String(outcome.changes[0]!.value)) as {
    spec: {
      template: {
        spec: { terminationGracePeriodSeconds: number; containers: Array<{ env: unknown }> };
      };
    };
  };
  t.is(written.spec.template.spec.terminationGracePeriodSeconds, 200);
  t.deepEqual(written.spec.template.spec.containers[0]!.env, [
    { name: 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS', value: 'false' },
    { name: 'MINIMUM_DRAIN_DURATION', value: '180s' },
  ]);
  t.regex(String(outcome.changes[0]!.value), /terminationGracePeriodSeconds: 200 # ours/);
  t.regex(
    outcome.changes[0]!.reason,
    /raised from 90 set in the Gateway's parameters ConfigMap gw-options/,
  );
  t.regex(
    outcome.changes[0]!.reason,
    /raised from "60s" set in the Gateway's parameters ConfigMap gw-options/,
  );
  t.deepEqual(codes(outcome), [
    'ISTIO_GATEWAY_API_CLASS_DEFAULTS_NOT_IN_STREAM',
    'ISTIO_GATEWAY_API_VALUE_OTHER',
  ]);
  t.regex(
    outcome.findings[1]!.message,
    /EXIT_ON_ZERO_ACTIVE_CONNECTIONS is "false" in the Gateway's parameters ConfigMap gw-options/,
  );
});

test("proxy.istio.io/config in spec.infrastructure.annotations: the overlay's annotation keeps its fields", (t) => {
  const objects = clone(fixtureObjects('variants/gateway-nlb.yaml'));
  const gateway = objects.find((o) => o.kind === 'Gateway') as GatewayObject;
  gateway.spec!.infrastructure!.annotations!['proxy.istio.io/config'] =
    'terminationDrainDuration: 10s\n';
  const outcome = decide(objects);
  const overlay = parse(String(outcome.create!.configMap.data!['deployment'])) as {
    spec: { template: { metadata: { annotations: Record<string, string> } } };
  };
  t.is(
    overlay.spec.template.metadata.annotations['proxy.istio.io/config'],
    'terminationDrainDuration: 10s\ndrainDuration: 190s\n',
  );
  t.regex(
    outcome.create!.reason,
    new RegExp(
      String.raw`merged key by key into the proxy\.istio\.io\/config of the Gateway's ` +
        String.raw`infrastructure annotations`,
    ),
  );
});

test('networking.istio.io/service-type: ClusterIP on the Gateway: in-cluster W, grace not raised past what the pod has', (t) => {
  const objects = clone(fixtureObjects('samples/httpbin-gateway-1.30.3.yaml'));
  const gateway = objects.find((o) => o.kind === 'Gateway')!;
  gateway.metadata!.annotations = { 'networking.istio.io/service-type': 'ClusterIP' };
  const outcome = decide(objects, {
    ...DEFAULTS,
    maxRequest: { value: 5, source: fromFlag('max-request') },
  });
  t.is(outcome.timing?.loadBalancer.provider, 'in-cluster');
  // G = 5 + 5 + 5 = 15 ≤ 30: the pod's 30 s is left; only the env is written.
  t.deepEqual(parse(String(outcome.create!.configMap.data!['deployment'])), {
    spec: {
      template: {
        spec: {
          containers: [
            {
              name: 'istio-proxy',
              env: [
                { name: 'MINIMUM_DRAIN_DURATION', value: '5s' },
                { name: 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS', value: 'true' },
              ],
            },
          ],
        },
      },
    },
  });
});

test('before Istio 1.26 nothing can reach the generated Deployment: a warning, nothing written', (t) => {
  const outcome = decide(fixtureObjects('variants/gateway-nlb.yaml'), {
    istioVersion: { major: 1, minor: 25, source: 'flag --istio-version' },
  });
  t.deepEqual(outcome.changes, []);
  t.is(outcome.create, undefined);
  t.deepEqual(codes(outcome), ['ISTIO_GATEWAY_API_OVERLAYS_UNSUPPORTED']);
  t.regex(outcome.findings[0]!.message, /deploymentcontroller\.go@1\.26\.0, absent @1\.25\.5/);
});

test('a parameters ConfigMap that is not in the stream, or a parametersRef that is not a ConfigMap: a warning, nothing written', (t) => {
  const gatewayOnly = fixtureObjects('variants/gateway-params-gw-options.yaml').filter(
    (o) => o.kind === 'Gateway',
  );
  const missing = decide(gatewayOnly);
  t.deepEqual(
    [missing.changes, missing.create, codes(missing)],
    [[], undefined, ['ISTIO_GATEWAY_API_PARAMETERS_NOT_IN_STREAM']],
  );
  const other = clone(gatewayOnly);
  (other[0] as GatewayObject).spec!.infrastructure!.parametersRef = {
    group: 'gateway.envoyproxy.io',
    kind: 'EnvoyProxy',
    name: 'x',
  };
  const notCm = decide(other);
  t.deepEqual([notCm.changes, codes(notCm)], [[], ['ISTIO_GATEWAY_API_PARAMETERS_NOT_CONFIGMAP']]);
});

test('a ConfigMap of the name kube-graceful would create, not referenced: a warning, nothing written', (t) => {
  const objects = fixtureObjects('variants/gateway-nlb.yaml');
  objects.push({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'bookinfo-gateway-kube-graceful', namespace: 'bookinfo' },
  });
  const outcome = decide(objects);
  t.deepEqual(
    [outcome.changes, outcome.create, codes(outcome)],
    [[], undefined, ['ISTIO_GATEWAY_API_CONFIGMAP_NAME_TAKEN']],
  );
});

test('a Gateway name that would make the ConfigMap name longer than the API server takes: a warning, nothing written', (t) => {
  // 253 is the longest ConfigMap name (a DNS-1123 subdomain); `-kube-graceful` is 14 characters.
  const named = (name: string) => {
    const objects = clone(fixtureObjects('variants/gateway-nlb.yaml'));
    (objects.find((o) => o.kind === 'Gateway') as GatewayObject).metadata!.name = name;
    return decide(objects);
  };
  const longest = named('g'.repeat(239));
  t.is(longest.create?.configMap.metadata?.name?.length, 253);
  const tooLong = named('g'.repeat(240));
  t.deepEqual(
    [tooLong.changes, tooLong.create, codes(tooLong)],
    [[], undefined, ['ISTIO_GATEWAY_API_CONFIGMAP_NAME_TOO_LONG']],
  );
  t.regex(tooLong.findings[0]!.message, /254 characters/);
});

test('an overlay that is not a mapping is left alone with a warning', (t) => {
  const objects = clone(fixtureObjects('variants/gateway-params-gw-options.yaml'));
  (objects.find((o) => o.kind === 'ConfigMap') as ConfigMapObject).data!['deployment'] =
    '- a\n- b\n';
  const outcome = decide(objects);
  t.deepEqual(
    [outcome.changes, codes(outcome)],
    [
      [],
      ['ISTIO_GATEWAY_API_CLASS_DEFAULTS_NOT_IN_STREAM', 'ISTIO_GATEWAY_API_OVERLAY_NOT_MERGEABLE'],
    ],
  );
});

test('two class-defaults ConfigMaps for the class: read the first, and say istiod takes the oldest', (t) => {
  const objects = [
    ...fixtureObjects('samples/bookinfo-gateway-1.30.3.yaml'),
    ...fixtureObjects('helm/istiod-1.30.3-tuned-gatewayclass.yaml'),
    ...fixtureObjects('helm/istiod-1.26.8-nlb-gatewayclass.yaml'),
  ];
  const outcome = decide(objects);
  t.deepEqual(codes(outcome), [
    'ISTIO_GATEWAY_API_CLASS_DEFAULTS_AMBIGUOUS',
    'LB_DEREGISTRATION_TOO_SHORT',
    'ISTIO_GATEWAY_API_VALUE_KEPT',
  ]);
  t.is(outcome.timing?.plan.graceSeconds.value, 600);
});

test('GKE NEG with a BackendConfig in the stream: its connection draining closes the connections at 30 + 60 s, as for a rendered Service', (t) => {
  const outcome = decide(fixtureObjects('variants/gateway-gke-neg-backendconfig.yaml'), DEFAULTS);
  t.is(outcome.timing?.loadBalancer.provider, 'gke-neg');
  t.is(outcome.timing?.inputs.drainWindow.value, 30);
  const closing = outcome.timing?.inputs.loadBalancer;
  t.is(closing?.deregistrationDelaySeconds?.value, 90);
  t.regex(
    sourceText(closing!.deregistrationDelaySeconds!.source),
    /BackendConfig bookinfo-gateway-drain connectionDraining.drainingTimeoutSec 60 s/,
  );
  t.is(outcome.timing?.loadBalancer.note, undefined, 'the BackendConfig is in the stream');
});
