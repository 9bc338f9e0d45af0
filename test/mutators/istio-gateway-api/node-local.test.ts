/**
 * Issue #27 item 3: a Gateway istiod deploys, behind node targets with externalTrafficPolicy
 * Local. The node forwards to the terminating pod only while it passes readiness; pilot-agent
 * fails the probe at SIGTERM (pilot/cmd/pilot-agent/status/ready/probe.go@1.26.8), and the
 * kube-gateway template's probe (every 15 s, threshold 4: kube-gateway.yaml@1.26.8) keeps it
 * counted ready for 45 s at least. Inputs: the bookinfo sample Gateway behind an NLB with instance
 * targets (W = 25 s) and behind the in-tree Classic ELB (W = 65 s)
 * (test/fixtures/gateways/istio-gateway-api/README.md).
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { transform } from '../../../fn/engine/transform.ts';
import { runCliAsync } from '../../helpers/cli.ts';
import { fixturePath } from '../../helpers/fixtures.ts';
import { verdictsOf } from '../../helpers/verdicts.ts';

const variant = (file: string) =>
  readFileSync(fixturePath('gateways', 'istio-gateway-api', 'variants', file), 'utf8');
const nodeLocal = (input: string, flags: Record<string, string> = {}) =>
  transform(input, { flags }).findings.filter((f) => f.code === 'ISTIO_GATEWAY_API_NODE_LOCAL');

test('NLB with instance targets (W = 25 s): the template probe holds 45 s, so the patched gateway is ✓', async (t) => {
  const input = variant('gateway-nlb-instance-local.yaml');
  t.deepEqual(nodeLocal(input), []);
  t.deepEqual(await verdictsOf('istio-gateway-api', input), { asWritten: 'fail', patched: 'ok' });
  const text = (await runCliAsync(['explain'], input)).stdout;
  t.regex(text, /ready until t=45 at least \(readinessProbe \(failureThreshold 4 − 1\) × /);
  t.false(text.includes('? unknown'));
});

test('Classic ELB (W = 65 s): unready from 45 s, ✗ patched, and a warning names the threshold that holds', async (t) => {
  const input = variant('gateway-clb-local.yaml');
  t.deepEqual(await verdictsOf('istio-gateway-api', input), { asWritten: 'fail', patched: 'fail' });
  const [finding] = nodeLocal(input);
  t.regex(
    finding?.message ?? '',
    /Set readinessProbe\.failureThreshold: 6 on container istio-proxy/,
  );
  const text = (await runCliAsync(['explain'], input)).stdout;
  t.regex(text, /✗ {2}45–65 s {2}new connections still arrive .* at the node, but istio-proxy is /);
});

test('with the advised threshold in the deployment overlay the same gateway is ✓ and the warning goes', async (t) => {
  const input = variant('gateway-clb-local.yaml').replace(
    '  service: |\n',
    '  deployment: |\n' +
      '    spec:\n      template:\n        spec:\n          containers:\n' +
      '          - name: istio-proxy\n            readinessProbe:\n' +
      '              failureThreshold: 6\n' +
      '  service: |\n',
  );
  t.deepEqual(nodeLocal(input), []);
  t.is((await verdictsOf('istio-gateway-api', input)).patched, 'ok');
});

test('before Kubernetes 1.26 no probe helps: the warning says so', (t) => {
  const [finding] = nodeLocal(variant('gateway-nlb-instance-local.yaml'), {
    'kube-version': '1.25',
  });
  t.regex(finding?.message ?? '', /before Kubernetes 1\.26 a node forwards nothing/);
});
