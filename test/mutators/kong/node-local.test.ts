/**
 * Issue #27 item 3: Kong behind node targets with externalTrafficPolicy Local. `kong quit --wait`
 * leaves nginx alone while it waits (kong/cmd/quit.lua@3.9.3), /status/ready fails only on a POST
 * of status "draining" (kong/status/ready.lua@3.9.3), and its listeners close together, so the
 * proxy stays ready as long as it accepts. A pod is ready only while every container is, and the
 * chart's ingress-controller in the same pod stops at SIGTERM after a time not modelled: unknown.
 * Inputs: the chart 3.4.1 renders (test/fixtures/gateways/kong/README.md).
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { runCliAsync } from '../../helpers/cli.ts';
import { fixturePath } from '../../helpers/fixtures.ts';
import { verdictsOf } from '../../helpers/verdicts.ts';

const read = (file: string) => readFileSync(fixturePath('gateways', 'kong', file), 'utf8');

test('the proxy alone in its pod: it stays ready while it accepts, so the patched pod is ✓', async (t) => {
  const input = read('chart-3.4.1-nlb-instance-local-no-controller.yaml');
  t.deepEqual(await verdictsOf('kong-drain', input), { asWritten: 'fail', patched: 'ok' });
});

test('with the ingress controller in the same pod: unknown, naming the container and the way out', async (t) => {
  const input = read('chart-3.4.1-nlb-instance-local.yaml');
  t.is((await verdictsOf('kong-drain', input)).patched, 'unknown');
  const text = (await runCliAsync(['explain'], input)).stdout;
  t.regex(text, /when ingress-controller stops passing readiness after SIGTERM/);
  t.regex(text, /run ingress-controller in a pod of its own, or use IP targets/);
});

test('before Kubernetes 1.26 the node forwards nothing to a terminating pod: ✗', async (t) => {
  const input = read('chart-3.4.1-nlb-instance-local-no-controller.yaml');
  const verdicts = await verdictsOf('kong-drain', input, ['--kube-version', '1.25']);
  t.is(verdicts.patched, 'fail');
});
