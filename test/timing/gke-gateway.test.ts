/**
 * Issue #31 item 2: a GKE Gateway (a gke-l7-* GatewayClass, or a class whose controllerName is
 * networking.gke.io/gateway) sends to a route's Service pods through NEGs; the GCPBackendPolicy
 * that targets the Service gives the connection draining, 0 s when it sets none
 * (gke-networking-recipes gateway-api/config/servicepolicies/crd/standard/gcpbackendpolicies.yaml).
 * Input: GKE's store-autoscale example (gke-networking-recipes gateway/docs/store-autoscale.yaml).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';

const STORE = readFileSync(fixturePath('gateways', 'gke-gateway', 'store-autoscale.yaml'), 'utf8');

function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the fixture changed: ${from}`);
  return text.replace(from, to);
}

interface Explained {
  inputs: Array<{ symbol?: string; name: string; value: number; source: string }>;
  timelines: { patched: { verdict: { outcome: string } } };
}

async function explainJson(input: string): Promise<Explained> {
  const run = await runCliAsync(['explain', '--output', 'json'], input);
  if (run.status !== 0) throw new Error(run.stderr);
  return (JSON.parse(run.stdout) as { workloads: Explained[] }).workloads[0]!;
}

const w = (e: Explained) => e.inputs.find((i) => i.symbol === 'W')!;
const WITH_DRAINING = edit(
  STORE,
  '    maxRatePerEndpoint: 10\n',
  '    maxRatePerEndpoint: 10\n    connectionDraining:\n      drainingTimeoutSec: 60\n',
);

test('a gke-l7 Gateway: NEG window, and a policy without draining cuts the drain', async (t) => {
  const [run, e] = await Promise.all([runCliAsync([], STORE), explainJson(STORE)]);
  t.is(run.status, 0, run.stderr);
  t.is(w(e).value, 30);
  t.regex(w(e).source, /^Gateway store-autoscale: GKE Gateway, .*gke-l7-gxlb/);
  t.regex(
    run.stderr,
    /LB_DEREGISTRATION_TOO_SHORT .*no GCPBackendPolicy sets .* in a GCPBackendPolicy whose/,
  );
  t.is(e.timelines.patched.verdict.outcome, 'fail');
});

test("the policy's connection draining covers the drain", async (t) => {
  const [run, e] = await Promise.all([runCliAsync([], WITH_DRAINING), explainJson(WITH_DRAINING)]);
  t.notRegex(run.stderr, /LB_DEREGISTRATION_TOO_SHORT/);
  const closes = e.inputs.find((i) => i.name === 'LB closes connections')!;
  t.is(closes.value, 90);
  t.regex(
    closes.source,
    /GCPBackendPolicy store-autoscale connectionDraining.drainingTimeoutSec 60 s/,
  );
  t.is(e.timelines.patched.verdict.outcome, 'ok');
});

test('a policy for another Service, or in another namespace, drains nothing here', async (t) => {
  const other = await explainJson(
    edit(
      WITH_DRAINING,
      '    kind: Service\n    name: store-autoscale\n',
      '    kind: Service\n    name: other\n',
    ),
  );
  t.is(other.timelines.patched.verdict.outcome, 'fail');
  const elsewhere = await explainJson(
    edit(
      WITH_DRAINING,
      'kind: GCPBackendPolicy\nmetadata:\n',
      'kind: GCPBackendPolicy\nmetadata:\n  namespace: other\n',
    ),
  );
  t.is(elsewhere.timelines.patched.verdict.outcome, 'fail');
});

test("a GatewayClass in the input decides by its controllerName, not by GKE's class names", async (t) => {
  const withClass = (name: string, controller: string) =>
    edit(STORE, 'gatewayClassName: gke-l7-gxlb', `gatewayClassName: ${name}`) +
    '---\napiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\n' +
    `metadata:\n  name: ${name}\nspec:\n  controllerName: ${controller}\n`;
  const own = await explainJson(withClass('private', 'networking.gke.io/gateway'));
  t.regex(w(own).source, /GatewayClass private: controllerName networking.gke.io\/gateway/);
  const other = await explainJson(withClass('gke-l7-gxlb', 'example.com/gateway-controller'));
  t.regex(w(other).source, /names controller example.com\/gateway-controller, which kube-graceful/);
  t.is(other.timelines.patched.verdict.outcome, 'unknown');
});

test('a multi-cluster class is not a single-cluster one: not modelled', async (t) => {
  const e = await explainJson(
    edit(STORE, 'gatewayClassName: gke-l7-gxlb', 'gatewayClassName: gke-l7-gxlb-mc'),
  );
  t.regex(w(e).source, /its GatewayClass gke-l7-gxlb-mc is not in the input/);
  t.is(e.timelines.patched.verdict.outcome, 'unknown');
});
