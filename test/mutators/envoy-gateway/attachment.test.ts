// Which EnvoyProxy a Gateway of an Envoy Gateway class gets, on the real inputs of
// test/fixtures/gateways/envoy-gateway: the chart's default spec, GatewayClass and Gateway refs.
import test from 'ava';
import {
  defaultSpecLocation,
  resolveAttachments,
} from '../../../fn/mutators/envoy-gateway/attachment.ts';
import { planEnvoyGateway } from '../../../fn/mutators/envoy-gateway/index.ts';
import { formatPath } from '../../../fn/core/fieldPath.ts';
import { envoyGatewayConfig, fixture, only } from './fixtures.ts';
import { fromDefault } from '../../helpers/sources.ts';

const DEFAULTS = {
  maxRequest: { value: 20, source: fromDefault('max-request') },
  buffer: { value: 5, source: fromDefault('buffer') },
};

test('quickstart: a Gateway whose class points at no EnvoyProxy gets EG_NO_ENVOYPROXY saying what to add', (t) => {
  const { targets, findings } = resolveAttachments(fixture('examples-v1.9.0-quickstart.yaml'));
  t.deepEqual(targets, []);
  const { gateway, finding } = only(findings);
  t.is(gateway.metadata?.name, 'eg');
  t.is(finding.code, 'EG_NO_ENVOYPROXY');
  t.is(finding.severity, 'warning');
  t.regex(
    finding.message,
    /^Gateway eg \(class eg\): neither .* point the GatewayClass's spec\.parametersRef/,
  );
});

test('a GatewayClass whose EnvoyProxy is in the stream: no finding, the EnvoyProxy is planned', (t) => {
  const objects = [
    ...fixture('examples-v1.9.0-envoy-proxy-config-nlb.yaml'),
    ...fixture('examples-v1.9.0-quickstart.yaml').filter((o) => o.kind === 'Gateway'),
  ];
  const { targets, findings } = resolveAttachments(objects);
  t.deepEqual(findings, []);
  t.deepEqual(
    targets.map((target) => target.location.label),
    ['EnvoyProxy envoy-gateway-system/config'],
  );
});

test('a GatewayClass whose EnvoyProxy is not in the stream: EG_ENVOYPROXY_NOT_IN_STREAM', (t) => {
  const objects = [
    ...fixture('examples-v1.9.0-envoy-proxy-config.yaml').filter((o) => o.kind !== 'EnvoyProxy'),
    ...fixture('examples-v1.9.0-quickstart.yaml').filter((o) => o.kind === 'Gateway'),
  ];
  const { finding } = only(resolveAttachments(objects).findings);
  t.is(finding.code, 'EG_ENVOYPROXY_NOT_IN_STREAM');
  t.regex(
    finding.message,
    new RegExp(
      String.raw`its GatewayClass's spec\.parametersRef names EnvoyProxy ` +
        String.raw`envoy-gateway-system\/config, which is not in this input`,
    ),
  );
});

test('a Gateway-level EnvoyProxy replaces the class one: both planned, an info finding says the class settings do not apply', (t) => {
  const objects = [
    ...fixture('examples-v1.9.0-envoy-proxy-config.yaml'),
    ...fixture('docs-v1.9.0-graceful-shutdown-gateway-level.yaml'),
  ];
  const plan = planEnvoyGateway(objects, DEFAULTS);
  t.deepEqual(
    plan.outcomes.map((o) => o.target.location.label),
    ['EnvoyProxy envoy-gateway-system/config', 'EnvoyProxy graceful-shutdown-config'],
  );
  const { finding } = only(plan.gatewayFindings);
  t.is(finding.code, 'EG_GATEWAY_PROXY_REPLACES_CLASS');
  t.regex(
    finding.message,
    new RegExp(
      String.raw`uses EnvoyProxy graceful-shutdown-config .* ` +
        String.raw`replaces the class's EnvoyProxy envoy-gateway-system\/config entirely`,
    ),
  );
});

test('a Gateway-level ref to a missing EnvoyProxy: warned, and the class EnvoyProxy still serves it', (t) => {
  const objects = [
    ...fixture('examples-v1.9.0-envoy-proxy-config.yaml'),
    ...fixture('docs-v1.9.0-graceful-shutdown-gateway-level.yaml').filter(
      (o) => o.kind === 'Gateway',
    ),
  ];
  const { finding } = only(resolveAttachments(objects).findings);
  t.is(finding.code, 'EG_ENVOYPROXY_NOT_IN_STREAM');
  t.is(formatPath(finding.path ?? []), 'spec.infrastructure.parametersRef');
});

test('gateway-helm v1.9.0 with the NLB in the default EnvoyProxy spec: the config document gets the shutdown fields, and the quickstart Gateway is covered', (t) => {
  const { configMap, config } = envoyGatewayConfig('gateway-helm-v1.9.0-nlb.yaml');
  const location = defaultSpecLocation(configMap, config);
  t.truthy(location);
  const objects = [
    ...fixture('gateway-helm-v1.9.0-nlb.yaml'),
    ...fixture('examples-v1.9.0-quickstart.yaml'),
  ];
  const plan = planEnvoyGateway(objects, DEFAULTS, { location: location!, object: configMap });
  t.deepEqual(plan.gatewayFindings, []);
  const { outcome } = only(plan.outcomes);
  t.deepEqual(
    outcome.changes.map((c) => [formatPath(c.path), c.value]),
    [
      ['envoyProxy.shutdown.minDrainDuration', '180s'],
      ['envoyProxy.shutdown.drainTimeout', '205s'],
    ],
  );
  t.true(
    outcome.changes[0]!.reason.includes(
      'Service generated from the default EnvoyProxy spec (envoyProxy) of ' +
        'the EnvoyGateway config in ConfigMap ' +
        'envoy-gateway-system/envoy-gateway-config envoyService: AWS NLB with ' +
        'IP targets',
    ),
  );
});

test('gateway-helm v1.9.0 and v1.5.9 defaults carry no default EnvoyProxy spec: nothing to plan, the quickstart Gateway is told what to add', (t) => {
  for (const name of ['gateway-helm-v1.9.0-default.yaml', 'gateway-helm-v1.5.9-default.yaml']) {
    const { configMap, config } = envoyGatewayConfig(name);
    t.is(defaultSpecLocation(configMap, config), undefined, name);
    const plan = planEnvoyGateway(
      [...fixture(name), ...fixture('examples-v1.9.0-quickstart.yaml')],
      DEFAULTS,
    );
    t.deepEqual(plan.outcomes, [], name);
    t.deepEqual(
      plan.gatewayFindings.map((f) => f.finding.code),
      ['EG_NO_ENVOYPROXY'],
      name,
    );
  }
});

test('a GatewayClass ref without a namespace means `default` (v1.7.0+): the example EnvoyProxy in envoy-gateway-system is not it', (t) => {
  const objects = [
    ...fixture('examples-v1.9.0-envoy-proxy-config.yaml'),
    ...fixture('examples-v1.9.0-quickstart.yaml').filter((o) => o.kind === 'Gateway'),
  ];
  const gatewayClass = objects.find((o) => o.kind === 'GatewayClass')!;
  delete gatewayClass.spec.parametersRef.namespace;
  const { finding } = only(resolveAttachments(objects).findings);
  t.is(finding.code, 'EG_ENVOYPROXY_NOT_IN_STREAM');
  t.regex(finding.message, /names EnvoyProxy config, which is not in this input/);
  gatewayClass.spec.parametersRef.namespace = 'envoy-gateway-system';
  t.deepEqual(resolveAttachments(objects).findings, []);
});
