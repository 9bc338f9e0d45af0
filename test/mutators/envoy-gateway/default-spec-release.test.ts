/**
 * The default EnvoyProxy spec in Envoy Gateway's config is read from v1.7.0 only (issue #27 item
 * 9): on the real gateway-helm v1.6.7 render with the same values as v1.9.0's, the chart renders
 * `envoyProxy` into the config, the v1.6 controller ignores it, and kube-graceful neither sets it
 * nor claims it; on v1.9.0 it sets it.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { runCliAsync } from '../../helpers/cli.ts';
import { fixturePath } from '../../helpers/fixtures.ts';

const read = (file: string) => readFileSync(fixturePath('gateways', 'envoy-gateway', file), 'utf8');
/** The ConfigMap that holds the EnvoyGateway config, as a text slice of a stream. */
const configMap = (stream: string) =>
  stream.split('\n---\n').find((doc) => doc.includes('name: envoy-gateway-config'))!;

test('v1.6.7: the default spec the controller ignores is left alone, with a warning', async (t) => {
  const input = read('gateway-helm-v1.6.7-nlb.yaml');
  t.true(configMap(input).includes('    envoyProxy:\n'), 'the chart renders it');
  const run = await runCliAsync([], input);
  t.is(run.status, 0, run.stderr);
  t.is(configMap(run.stdout), configMap(input));
  t.regex(run.stderr, /EG_DEFAULT_SPEC_IGNORED/);
  t.regex(run.stderr, /Envoy Gateway v1\.6\.7, whose controller has no such field before v1\.7\.0/);
});

test('v1.9.0, the same values: the default spec gets its shutdown', async (t) => {
  const input = read('gateway-helm-v1.9.0-nlb.yaml');
  const run = await runCliAsync([], input);
  t.is(run.status, 0, run.stderr);
  t.regex(configMap(run.stdout), /shutdown:\n\s+minDrainDuration: 180s/);
  t.notRegex(run.stderr, /EG_DEFAULT_SPEC_IGNORED/);
});
