/**
 * `patches` never carries Envoy Gateway's config string (issue #27 item 10): a patch would replace
 * `data["envoy-gateway.yaml"]` whole, image tags included, and undo the chart's next upgrade. On
 * the real gateway-helm v1.9.0 render it writes nothing, exits 1, and names Helm values; those
 * values, set into the chart's config document as the chart merges `config.envoyGateway`, give
 * exactly the document the transform writes.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { parse } from 'yaml';
import { setAt } from '../../fn/core/fieldPath.ts';
import { runCliAsync } from '../helpers/cli.ts';
import { fixturePath } from '../helpers/fixtures.ts';

const INPUT = readFileSync(
  fixturePath('gateways', 'envoy-gateway', 'gateway-helm-v1.9.0-nlb.yaml'),
  'utf8',
);

/** The EnvoyGateway document of a stream's envoy-gateway-config ConfigMap, parsed. */
function configDocument(stream: string): unknown {
  const doc = stream.split('\n---\n').find((d) => d.includes('name: envoy-gateway-config'))!;
  const configMap = parse(doc, { version: '1.1' }) as { data: Record<string, string> };
  return parse(configMap.data['envoy-gateway.yaml']!, { version: '1.1' });
}

test('patches writes no patch for the config string and names the Helm values that set it', async (t) => {
  const run = await runCliAsync(['patches'], INPUT);
  t.is(run.status, 1);
  t.is(run.stdout, '');
  t.regex(run.stderr, /undo the chart's next upgrade/);
  const values = [...run.stderr.matchAll(/--set-string config\.envoyGateway\.(\S+)=(\S+)/g)];
  t.true(values.length >= 2, run.stderr);
  let document = configDocument(INPUT);
  for (const [, path, value] of values) document = setAt(document, path!.split('.'), value);
  const transformed = await runCliAsync([], INPUT);
  t.deepEqual(document, configDocument(transformed.stdout));
});

test('with envoy-gateway-mode off the other objects get their patches', async (t) => {
  const run = await runCliAsync(['patches', '--envoy-gateway-mode', 'off'], INPUT);
  t.is(run.status, 0, run.stderr);
  t.regex(run.stdout, /^# kube-graceful patches/);
});
