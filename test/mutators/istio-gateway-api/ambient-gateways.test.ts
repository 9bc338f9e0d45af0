/**
 * Issue #27 item 11: waypoints and ambient east-west gateways, which istiod deploys from its
 * `waypoint` template, are not planned, and a finding says why and what to do, with the
 * template's grace period at the Istio version in play (waypoint.yaml@1.27.9: 2 s; @1.28.10: the
 * Kubernetes default). Inputs: istio/istio's own Gateways at 1.27.9
 * (test/fixtures/gateways/istio-gateway-api/README.md).
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { transform } from '../../../fn/engine/transform.ts';
import { fixturePath } from '../../helpers/fixtures.ts';

const sample = (file: string) =>
  readFileSync(fixturePath('gateways', 'istio-gateway-api', 'samples', file), 'utf8');
const run = (input: string, istio: string) =>
  transform(input, { flags: { 'istio-version': istio } });

test('a waypoint on Istio 1.27: nothing written, a warning names the 2 s grace and the overlay', (t) => {
  const result = run(sample('reviews-waypoint-1.27.9.yaml'), '1.27');
  t.deepEqual(result.changes, []);
  t.deepEqual(
    result.findings.map((f) => [f.code, f.severity, f.resource?.name]),
    [['ISTIO_WAYPOINT_NOT_PLANNED', 'warning', 'bookinfo-reviews']],
  );
  const message = result.findings[0]!.message;
  t.regex(message, /hard-codes terminationGracePeriodSeconds: 2 \(.*waypoint\.yaml@1\.27\.9\)/);
  t.regex(message, /data\.deployment sets spec\.template\.spec\.terminationGracePeriodSeconds/);
});

test('a waypoint on Istio 1.28: an info, the Kubernetes default grace', (t) => {
  const [finding] = run(sample('reviews-waypoint-1.27.9.yaml'), '1.28').findings;
  t.is(finding?.severity, 'info');
  t.regex(finding?.message ?? '', /Kubernetes default, 30 s \(waypoint\.yaml@1\.28\.10\)/);
});

test('a waypoint on Istio 1.25: no overlay to change it with', (t) => {
  const [finding] = run(sample('reviews-waypoint-1.27.9.yaml'), '1.25').findings;
  t.regex(finding?.message ?? '', /Istio 1\.25 reads no parametersRef overlay \(from 1\.26\)/);
});

test('east-west gateways: a warning each, behind a load balancer whatever the version', (t) => {
  for (const istio of ['1.27', '1.30']) {
    const result = run(sample('east-west-ambient-1.27.9.yaml'), istio);
    t.deepEqual(result.changes, []);
    t.deepEqual(
      result.findings.map((f) => [f.code, f.severity, f.resource?.name]),
      [
        ['ISTIO_EAST_WEST_NOT_PLANNED', 'warning', 'eastwestgateway'],
        ['ISTIO_EAST_WEST_NOT_PLANNED', 'warning', 'invalid'],
      ],
    );
  }
});

test('a custom class of the mesh controller is a waypoint too', (t) => {
  const input =
    'apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\n' +
    'metadata:\n  name: my-waypoints\nspec:\n  controllerName: istio.io/mesh-controller\n---\n' +
    sample('reviews-waypoint-1.27.9.yaml').replace('istio-waypoint', 'my-waypoints');
  t.deepEqual(
    run(input, '1.28').findings.map((f) => f.code),
    ['ISTIO_WAYPOINT_NOT_PLANNED'],
  );
});
