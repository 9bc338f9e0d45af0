/**
 * envoy-gateway as the engine runs it on real inputs (issue #19 item 1): the default EnvoyProxy
 * spec in Envoy Gateway's own config (the gateway-helm chart's `envoy-gateway-config` ConfigMap,
 * key `envoy-gateway.yaml`) is planned and edited inside the text, losslessly; and a Gateway of an
 * Envoy Gateway class that gets no EnvoyProxy is told so whether or not any EnvoyProxy is in the
 * stream, while Gateways of other controllers are left alone.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../fn/core/kubeObject.ts';
import { transform } from '../../../fn/engine/transform.ts';
import { fixturePath } from '../../helpers/fixtures.ts';

const read = (file: string) => readFileSync(fixturePath('gateways', 'envoy-gateway', file), 'utf8');
/** The files as one stream, a `---` line between them. */
const stream = (...files: string[]) => files.map(read).join('---\n');
const findings = (input: string, code: string) =>
  transform(input).findings.filter((f) => f.code === code);
const configText = (output: string): string => {
  const configMap = parseAllDocuments(output, { version: '1.1' })
    .map((d) => d.toJS() as KubeObject | null)
    .find((o) => o?.kind === 'ConfigMap' && o.metadata?.name === 'envoy-gateway-config');
  return (configMap as unknown as { data: Record<string, string> }).data['envoy-gateway.yaml']!;
};

test('gateway-helm v1.9.0 with an NLB in the default EnvoyProxy spec: the shutdown fields go into the embedded config text, nothing else changes', (t) => {
  const input = stream('gateway-helm-v1.9.0-nlb.yaml', 'examples-v1.9.0-quickstart.yaml');
  const result = transform(input);
  const changes = result.changes.filter((c) => c.mutator === 'envoy-gateway');
  t.deepEqual(
    changes.map((c) => [c.resource?.kind, c.path.join('.')]),
    [['ConfigMap', 'data.envoy-gateway.yaml']],
  );
  t.regex(
    changes[0]!.reason,
    /^envoyProxy\.shutdown\.minDrainDuration in data\.envoy-gateway\.yaml: /,
  );
  // The text gains exactly the three lines under envoyProxy, at the config's own indentation.
  const under = '\n    type: Kubernetes\n'; // envoyProxy.provider.type, the first of two
  t.is(
    configText(result.output),
    configText(input).replace(
      under,
      `${under}  shutdown:\n    minDrainDuration: 180s\n    drainTimeout: 205s\n`,
    ),
  );
  // The output's ConfigMap keeps its block literal, and the Gateway needs no finding: the default
  // spec covers it.
  t.true(
    result.output.includes(
      '  envoy-gateway.yaml: |\n    apiVersion: gateway.envoyproxy.io/v1alpha1\n',
    ),
  );
  t.deepEqual(findings(input, 'EG_NO_ENVOYPROXY'), []);
  // A second run changes nothing.
  t.deepEqual(
    transform(result.output).changes.filter((c) => c.mutator === 'envoy-gateway'),
    [],
  );
});

test('a comment inside the embedded config survives the edit', (t) => {
  const input = stream('gateway-helm-v1.9.0-nlb.yaml').replace(
    '    envoyProxy:\n',
    '    # the proxies of every Gateway without an EnvoyProxy\n    envoyProxy:\n',
  );
  const text = configText(transform(input).output);
  t.true(text.includes('# the proxies of every Gateway without an EnvoyProxy\nenvoyProxy:\n'));
  t.true(text.includes('  shutdown:\n    minDrainDuration: 180s\n    drainTimeout: 205s\n'));
});

test('gateway-helm v1.9.0 and v1.5.9 defaults have no default EnvoyProxy spec: the config is left as written, and the quickstart Gateway is told what to add', (t) => {
  for (const chart of ['gateway-helm-v1.9.0-default.yaml', 'gateway-helm-v1.5.9-default.yaml']) {
    const input = stream(chart, 'examples-v1.9.0-quickstart.yaml');
    const result = transform(input);
    t.deepEqual(
      result.changes.filter((c) => c.mutator === 'envoy-gateway'),
      [],
      chart,
    );
    const [finding, ...more] = findings(input, 'EG_NO_ENVOYPROXY');
    t.is(more.length, 0, chart);
    t.is(finding?.resource?.kind, 'Gateway', chart);
    t.is(finding?.resource?.name, 'eg', chart);
    t.regex(
      finding!.message,
      /Envoy Gateway's config in this input has no default EnvoyProxy spec/,
      chart,
    );
  }
});

test('the quickstart alone (no EnvoyProxy, no config in the stream): the Gateway gets EG_NO_ENVOYPROXY, hedged for a default spec kept elsewhere', (t) => {
  const [finding, ...more] = findings(read('examples-v1.9.0-quickstart.yaml'), 'EG_NO_ENVOYPROXY');
  t.is(more.length, 0);
  t.is(finding?.resource?.kind, 'Gateway');
  t.is(finding?.severity, 'warning');
  t.deepEqual(finding?.path, ['spec', 'gatewayClassName']);
  t.regex(
    finding!.message,
    /unless Envoy Gateway's own config \(not in this input\) sets a default/,
  );
});

test("a Gateway of Traefik's class next to Envoy Gateway's: only the Envoy Gateway one gets a finding", (t) => {
  const input = stream(
    'examples-v1.9.0-quickstart.yaml',
    'traefik-docs-gateway-simple-https-v3.7.9.yaml',
  );
  const gatewayFindings = transform(input).findings.filter((f) => f.resource?.kind === 'Gateway');
  t.deepEqual(
    gatewayFindings.map((f) => [f.code, f.resource?.name]),
    [['EG_NO_ENVOYPROXY', 'eg']],
  );
  t.deepEqual(
    transform(read('traefik-docs-gateway-simple-https-v3.7.9.yaml')).findings.filter(
      (f) => f.mutator === 'envoy-gateway',
    ),
    [],
  );
});

test('an unreadable config text is a warning on the ConfigMap, left as written', (t) => {
  const input = stream('gateway-helm-v1.9.0-nlb.yaml').replace(
    '    extensionApis: {}\n',
    '    extensionApis: {\n',
  );
  const result = transform(input);
  t.deepEqual(
    result.findings.filter((f) => f.mutator === 'envoy-gateway').map((f) => f.code),
    ['EG_CONTROLLER_CONFIG_UNREADABLE'],
  );
  t.deepEqual(
    result.changes.filter((c) => c.mutator === 'envoy-gateway'),
    [],
  );
});
