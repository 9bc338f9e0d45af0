// EnvoyProxy mergeType (issue #27 item 7): the spec planned is the one Envoy Gateway merges, so a
// Gateway's EnvoyProxy never undercuts its class's. The levels are checked against the cases of
// internal/gatewayapi/envoyproxy_merge_test.go@v1.9.0; the plan on inputs derived from the
// repository's own examples (test/fixtures/gateways/envoy-gateway/README.md).
import test from 'ava';
import { stringify } from 'yaml';
import type { KubeObject } from '../../../fn/core/kubeObject.ts';
import { transform } from '../../../fn/engine/transform.ts';
import { effectiveSpec } from '../../../fn/mutators/envoy-gateway/effective.ts';
import type { EnvoyProxySpec } from '../../../fn/mutators/envoy-gateway/objects.ts';
import { fixture } from './fixtures.ts';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../../helpers/fixtures.ts';

const read = (file: string) => readFileSync(fixturePath('gateways', 'envoy-gateway', file), 'utf8');
const GATEWAY_API = 'gateway.networking.k8s.io/v1';
const EG = 'gateway.envoyproxy.io/v1alpha1';

const proxy = (name: string, spec: EnvoyProxySpec): KubeObject => ({
  apiVersion: EG,
  kind: 'EnvoyProxy',
  metadata: { name, namespace: 'ns' },
  spec,
});

/** The objects of one case: the default spec in the controller's config, a class, a Gateway. */
function levels(defaultSpec?: object, classSpec?: object, gatewaySpec?: object): KubeObject[] {
  const ref = (name: string) => ({ group: 'gateway.envoyproxy.io', kind: 'EnvoyProxy', name });
  const objects: KubeObject[] = [
    {
      apiVersion: GATEWAY_API,
      kind: 'GatewayClass',
      metadata: { name: 'eg' },
      spec: {
        controllerName: 'gateway.envoyproxy.io/gatewayclass-controller',
        ...(classSpec ? { parametersRef: { ...ref('class'), namespace: 'ns' } } : {}),
      },
    },
    {
      apiVersion: GATEWAY_API,
      kind: 'Gateway',
      metadata: { name: 'gw', namespace: 'ns' },
      spec: {
        gatewayClassName: 'eg',
        ...(gatewaySpec ? { infrastructure: { parametersRef: ref('gateway') } } : {}),
      },
    },
  ];
  if (classSpec) objects.push(proxy('class', classSpec));
  if (gatewaySpec) objects.push(proxy('gateway', gatewaySpec));
  if (defaultSpec)
    objects.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'envoy-gateway-config', namespace: 'envoy-gateway-system' },
      data: { 'envoy-gateway.yaml': stringify({ kind: 'EnvoyGateway', envoyProxy: defaultSpec }) },
    } as KubeObject);
  return objects;
}

/** The spec the most specific EnvoyProxy of the case is planned on, nothing patched below it. */
function planned(objects: KubeObject[]): unknown {
  const target =
    objects.find((o) => o.metadata?.name === 'gateway') ??
    objects.find((o) => o.metadata?.name === 'class')!;
  const effective = effectiveSpec(target, objects, () => []);
  if (effective.kind === 'base-unknown') throw new Error(effective.finding.message);
  return effective.location.spec;
}

const SM = 'StrategicMerge';
const info = { level: { default: 'info' } };
// [name in envoyproxy_merge_test.go@v1.9.0, default spec, class's, Gateway's, merged]
const CASES: Array<[string, object | undefined, object | undefined, object | undefined, object]> = [
  [
    'replace mode - gatewayclass overrides default',
    { concurrency: 4 },
    { concurrency: 8 },
    undefined,
    { concurrency: 8 },
  ],
  [
    'replace mode - gateway overrides all',
    { concurrency: 4 },
    { concurrency: 8 },
    { concurrency: 16 },
    { concurrency: 16 },
  ],
  [
    'gateway mergeType controls gateway-over-gatewayclass step',
    { concurrency: 4 },
    { concurrency: 8 },
    { mergeType: SM, concurrency: 16 },
    { mergeType: SM, concurrency: 16 },
  ],
  [
    'gateway nil mergeType - step1 Replace discards gatewayclass fields',
    { concurrency: 4 },
    { concurrency: 8, logging: info },
    { concurrency: 16 },
    { concurrency: 16 },
  ],
  [
    '(unnamed) a class without mergeType replaces the default spec',
    { concurrency: 4, logging: info },
    { concurrency: 8 },
    undefined,
    { concurrency: 8 },
  ],
  [
    'gateway StrategicMerge - merges gateway+gatewayclass and defaults',
    { concurrency: 4 },
    { concurrency: 8, logging: info },
    { mergeType: SM, concurrency: 16 },
    { mergeType: SM, concurrency: 16, logging: info },
  ],
  [
    'gateway StrategicMerge propagates to defaults merge - preserves default-only fields',
    { concurrency: 4, logging: info },
    { concurrency: 8 },
    { mergeType: SM, concurrency: 16 },
    { mergeType: SM, concurrency: 16, logging: info },
  ],
  [
    'gatewayclass StrategicMerge - merges result with defaults',
    { concurrency: 4, logging: info },
    { mergeType: SM, logging: { level: { admin: 'debug' } } },
    undefined,
    { mergeType: SM, concurrency: 4, logging: { level: { default: 'info', admin: 'debug' } } },
  ],
  [
    'defaultSpec mergeType has no effect on merge strategy',
    { mergeType: SM, concurrency: 4, logging: info },
    { concurrency: 8 },
    undefined,
    { concurrency: 8 },
  ],
];

for (const [name, defaultSpec, classSpec, gatewaySpec, expected] of CASES)
  test(`levels as Envoy Gateway merges them: ${name}`, (t) => {
    t.deepEqual(planned(levels(defaultSpec, classSpec, gatewaySpec)), expected);
  });

const changesOn = (input: string, name: string) =>
  transform(input)
    .changes.filter((c) => c.resource?.name === name)
    .map((c) => `${c.path.join('.')}=${String(c.after)}`);

test('a Gateway EnvoyProxy merged over its class behind an NLB: its own values are raised for the NLB the class names', (t) => {
  const input = read('derived-v1.9.0-gateway-merge.yaml');
  // The class's envoyService (NLB, IP targets: W = 180 s) is the merged proxy's; H = 40 s.
  t.deepEqual(changesOn(input, 'graceful-shutdown-config'), [
    'spec.shutdown.minDrainDuration=220s',
    'spec.shutdown.drainTimeout=245s',
  ]);
  t.deepEqual(changesOn(input, 'config'), [
    'spec.shutdown.minDrainDuration=180s',
    'spec.shutdown.drainTimeout=205s',
  ]);
});

test('a Gateway EnvoyProxy merged over its class with no shutdown of its own: nothing written on it, the class values it inherits cover it', (t) => {
  const input = read('derived-v1.9.0-gateway-merge-no-shutdown.yaml');
  // Before #27 item 7 it got 15s/40s (a generic load balancer), which won over the class's.
  t.deepEqual(changesOn(input, 'graceful-shutdown-config'), []);
  t.deepEqual(changesOn(input, 'config'), [
    'spec.shutdown.minDrainDuration=180s',
    'spec.shutdown.drainTimeout=205s',
  ]);
});

test('merged over a class EnvoyProxy that is not in the input: nothing written, a warning says why', (t) => {
  const input = fixture('derived-v1.9.0-gateway-merge-no-shutdown.yaml')
    .filter((o) => !(o.kind === 'EnvoyProxy' && o.metadata?.name === 'config'))
    .map((o) => stringify(o))
    .join('---\n');
  const result = transform(input);
  t.deepEqual(result.changes, []);
  const finding = result.findings.find((f) => f.code === 'EG_MERGE_BASE_NOT_IN_STREAM');
  t.is(finding?.severity, 'warning');
  t.regex(finding?.message ?? '', /EnvoyProxy envoy-gateway-system\/config .* not in this input/);
});

test('a release before v1.8.0 has no mergeType: the Gateway EnvoyProxy replaces the class one and is planned alone', (t) => {
  const input = [
    read('gateway-helm-v1.6.7-nlb.yaml'),
    read('derived-v1.9.0-gateway-merge-no-shutdown.yaml'),
  ].join('---\n');
  const result = transform(input);
  // Planned on its own envoyService (none: a generic load balancer) rather than the class's NLB.
  t.deepEqual(changesOn(input, 'graceful-shutdown-config'), ['spec.shutdown.minDrainDuration=15s']);
  t.true(result.findings.some((f) => f.code === 'EG_GATEWAY_PROXY_REPLACES_CLASS'));
});

test('merged over the default spec of the controller config: the NLB there decides, nothing is written on the Gateway EnvoyProxy', (t) => {
  const gatewayLevel = fixture('derived-v1.9.0-gateway-merge-no-shutdown.yaml').filter(
    (o) => o.metadata?.name === 'graceful-shutdown-config' || o.kind === 'Gateway',
  );
  const quickstartClass = fixture('examples-v1.9.0-quickstart.yaml').filter(
    (o) => o.kind === 'GatewayClass',
  );
  const input = [
    read('gateway-helm-v1.9.0-nlb.yaml'),
    ...[...quickstartClass, ...gatewayLevel].map((o) => stringify(o)),
  ].join('---\n');
  t.deepEqual(changesOn(input, 'graceful-shutdown-config'), []);
  const config = transform(input).changes.filter(
    (c) => c.resource?.name === 'envoy-gateway-config',
  );
  t.is(config.length, 1);
  t.regex(String(config[0]?.after), /minDrainDuration: 180s\n\s+drainTimeout: 205s/);
});
