/**
 * Issue #27 item 3: an Envoy Gateway proxy behind node targets with externalTrafficPolicy Local
 * (the policy Envoy Gateway gives its generated Service). The node forwards to a terminating proxy
 * only while it passes readiness, and the shutdown manager fails it as the drain starts, or
 * healthCheckFailureDelay later (v1.9.0+: internal/cmd/envoy/shutdown_manager.go@v1.9.0). Inputs:
 * the gateway-helm v1.9.0 and v1.8.3 renders with an NLB with instance targets in the default
 * EnvoyProxy spec, and the repository's EnvoyProxy example behind it
 * (test/fixtures/gateways/envoy-gateway/README.md).
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { transform } from '../../../fn/engine/transform.ts';
import { runCliAsync } from '../../helpers/cli.ts';
import { fixturePath } from '../../helpers/fixtures.ts';
import { verdictsOf } from '../../helpers/verdicts.ts';

const read = (file: string) => readFileSync(fixturePath('gateways', 'envoy-gateway', file), 'utf8');
const egChanges = (input: string) =>
  transform(input).changes.filter((c) => c.mutator === 'envoy-gateway');
const codes = (input: string, args: { kubernetesVersion?: string } = {}) =>
  transform(
    input,
    args.kubernetesVersion ? { flags: { 'kube-version': args.kubernetesVersion } } : {},
  ).findings.filter((f) => f.code === 'EG_NODE_LOCAL_READINESS');

test('v1.9.0 config: healthCheckFailureDelay = W keeps Envoy ready until the NLB stops; patched ✓', async (t) => {
  const input = read('gateway-helm-v1.9.0-nlb-instance.yaml');
  const [change] = egChanges(input);
  // W = 5 + 10 × 2 = 25 s (the LBC's defaults for Local); M = H + W, D = M + R + B.
  const shutdown = ['healthCheckFailureDelay: 25s', 'minDrainDuration: 50s', 'drainTimeout: 75s'];
  t.true(String(change?.after).includes(['shutdown:', ...shutdown].join('\n    ') + '\n'));
  t.deepEqual(codes(input), []);
  t.deepEqual(await verdictsOf('envoy-gateway', input), { asWritten: 'fail', patched: 'ok' });
});

test('as written, Envoy fails readiness at t=0: the node drops what the NLB sends until W', async (t) => {
  const text = (await runCliAsync(['explain'], read('gateway-helm-v1.9.0-nlb-instance.yaml')))
    .stdout;
  t.regex(text, /✗ {3}0–25 s {2}new connections still arrive from the load balancer at the node/);
  t.regex(text, /but Envoy fails readiness from t=0 \(the shutdown manager's \/healthcheck\/fail;/);
});

test('v1.8.3 has no healthCheckFailureDelay: nothing written for it, ✗ with the fix in a warning', async (t) => {
  const input = read('gateway-helm-v1.8.3-nlb-instance.yaml');
  t.false(String(egChanges(input)[0]?.after).includes('healthCheckFailureDelay'));
  const [finding] = codes(input);
  t.is(finding?.severity, 'warning');
  t.regex(
    finding?.message ?? '',
    /Envoy Gateway v1\.8\.3 has no shutdown\.healthCheckFailureDelay: upgrade to v1\.9\.0\+ and /,
  );
  t.deepEqual(await verdictsOf('envoy-gateway', input), { asWritten: 'fail', patched: 'fail' });
});

test('an EnvoyProxy whose release the input does not name: nothing written for it, the warning says what to set', (t) => {
  const input = read('derived-v1.9.0-envoy-proxy-config-nlb-instance.yaml');
  t.deepEqual(
    egChanges(input).map((c) => c.path.join('.')),
    ['spec.shutdown.minDrainDuration'],
  );
  t.regex(
    codes(input)[0]?.message ?? '',
    /Set shutdown\.healthCheckFailureDelay: "25s" \(Envoy Gateway v1\.9\.0\+;/,
  );
});

test('a healthCheckFailureDelay already ≥ W is kept, and no warning', async (t) => {
  const input = read('derived-v1.9.0-envoy-proxy-config-nlb-instance.yaml').replace(
    '  provider:\n',
    '  shutdown:\n    healthCheckFailureDelay: 30s\n  provider:\n',
  );
  t.deepEqual(codes(input), []);
  t.false(egChanges(input).some((c) => c.path.includes('healthCheckFailureDelay')));
  t.is((await verdictsOf('envoy-gateway', input)).patched, 'ok');
});

test('before Kubernetes 1.26 a node forwards nothing to a terminating pod: the warning says only Cluster or IP targets help', (t) => {
  const [finding] = codes(read('gateway-helm-v1.9.0-nlb-instance.yaml'), {
    kubernetesVersion: '1.25',
  });
  t.regex(
    finding?.message ?? '',
    /before Kubernetes 1\.26 a node forwards nothing .* externalTrafficPolicy: Cluster, or IP/,
  );
});
