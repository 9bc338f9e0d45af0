/**
 * Issue #27 item 3: the ingress-nginx controller behind node targets with externalTrafficPolicy
 * Local. /wait-shutdown signals the controller at once, and /healthz fails from then on
 * (internal/ingress/controller/nginx.go@controller-v1.15.1 Stop, checker.go Check); the node
 * forwards only while the pod is counted ready: (3 − 1) × 10 = 20 s at least with the chart's
 * probe, short of W = 25 s. Input: the chart 4.15.1 render behind an NLB with instance targets
 * (test/fixtures/gateways/ingress-nginx/README.md).
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { transform } from '../../../fn/engine/transform.ts';
import { fixturePath } from '../../helpers/fixtures.ts';
import { verdictsOf } from '../../helpers/verdicts.ts';

const input = readFileSync(
  fixturePath('gateways', 'ingress-nginx', 'chart-4.15.1-daemonset-hostport-nlb-instance.yaml'),
  'utf8',
);
const nodeLocal = (text: string) =>
  transform(text).findings.filter((f) => f.code === 'INGRESS_NGINX_NODE_LOCAL');

test("the chart's probe lets the controller turn unready at 20 s: ✗, and the warning names failureThreshold 4", async (t) => {
  t.deepEqual(await verdictsOf('ingress-nginx-drain', input), {
    asWritten: 'fail',
    patched: 'fail',
  });
  t.regex(
    nodeLocal(input)[0]?.message ?? '',
    /Set readinessProbe\.failureThreshold: 4 on container controller/,
  );
});

test('with that threshold the patched controller is ✓ and the warning goes', async (t) => {
  const tuned = input.replace(
    '          readinessProbe: \n            failureThreshold: 3\n',
    '          readinessProbe: \n            failureThreshold: 4\n',
  );
  t.not(tuned, input);
  t.deepEqual(nodeLocal(tuned), []);
  t.is((await verdictsOf('ingress-nginx-drain', tuned)).patched, 'ok');
});

test('IP targets: no node in between, no warning', (t) => {
  const ip = readFileSync(
    fixturePath('gateways', 'ingress-nginx', 'chart-4.15.1-nlb-ip.yaml'),
    'utf8',
  );
  t.deepEqual(nodeLocal(ip), []);
});
