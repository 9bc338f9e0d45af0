/**
 * gateway-mode holds for Gateway API gateways too (issue #27 item 12), through the real CLI on
 * Istio's own httpbin sample: `off` leaves the Gateway byte for byte, `sleep` writes nothing it was
 * not asked for and names the sleep-mode values, and the default still writes env mode.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { runCliAsync } from '../../helpers/cli.ts';
import { fixturePath } from '../../helpers/fixtures.ts';

const SAMPLE = readFileSync(
  fixturePath('gateways', 'istio-gateway-api', 'samples', 'httpbin-gateway-1.30.3.yaml'),
  'utf8',
);
const NLB = ['--lb-provider', 'aws-nlb-ip'];

test('gateway-mode off: the Gateway is left byte for byte, and no ConfigMap is added', async (t) => {
  const run = await runCliAsync(['--gateway-mode', 'off', ...NLB], SAMPLE);
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, SAMPLE);
});

test('gateway-mode sleep: nothing written, a warning with the sleep-mode values for W = 180', async (t) => {
  const run = await runCliAsync(['--gateway-mode', 'sleep', ...NLB], SAMPLE);
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, SAMPLE);
  t.regex(run.stderr, /ISTIO_GATEWAY_API_SLEEP_MODE/);
  t.regex(run.stderr, /a preStop sleep of 180 s on istio-proxy/);
  t.regex(run.stderr, /terminationGracePeriodSeconds 205/);
  const check = await runCliAsync(
    ['check', '--gateway-mode', 'sleep', '--fail-on', 'warning', ...NLB],
    SAMPLE,
  );
  t.is(check.status, 1);
});

test('the default, env mode, still writes the drain into a parameters ConfigMap', async (t) => {
  const run = await runCliAsync(NLB, SAMPLE);
  t.is(run.status, 0, run.stderr);
  t.regex(run.stdout, /MINIMUM_DRAIN_DURATION/);
  t.regex(run.stdout, /kind: ConfigMap/);
});
