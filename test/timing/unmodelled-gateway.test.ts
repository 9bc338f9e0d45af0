/**
 * A route sends to the pods from its Gateway: an in-cluster proxy (Istio, Envoy Gateway, Traefik,
 * Contour: their controllerNames, fn/timing/gatewayControllers.ts) follows the endpoints, so the
 * in-cluster window holds; a Gateway of another class, or one whose class or self is not in the
 * input, may be a cloud load balancer sending to the pods directly: explain says unknown and how
 * to tell it, never ✓. Input: Envoy Gateway's quickstart at v1.9.0 (a GatewayClass, a Gateway, an
 * HTTPRoute and its backend Deployment and Service).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';

const QUICKSTART = readFileSync(
  fixturePath('gateways', 'envoy-gateway', 'examples-v1.9.0-quickstart.yaml'),
  'utf8',
);

/** The quickstart without the documents of that kind. */
function without(kind: string): string {
  const docs = QUICKSTART.split('\n---\n');
  const kept = docs.filter((d) => !new RegExp(`^kind: ${kind}$`, 'm').test(d));
  if (kept.length === docs.length) throw new Error(`the fixture changed: no ${kind}`);
  return kept.join('\n---\n');
}

interface Explained {
  resource: { kind: string; name: string };
  inputs: Array<{ symbol?: string; source: string }>;
  timelines: { patched: { verdict: { outcome: string; unknowns: Array<{ what: string }> } } };
}

async function backend(input: string, args: string[] = []): Promise<Explained> {
  const run = await runCliAsync(['explain', '--output', 'json', ...args], input);
  if (run.status !== 0) throw new Error(run.stderr);
  const all = (JSON.parse(run.stdout) as { workloads: Explained[] }).workloads;
  return all.find((w) => w.resource.kind === 'Deployment' && w.resource.name === 'backend')!;
}

test("an in-cluster proxy's Gateway: the in-cluster window, modelled", async (t) => {
  const e = await backend(QUICKSTART);
  t.is(e.timelines.patched.verdict.outcome, 'ok');
});

test('a GatewayClass not in the input: unknown, naming it and the way out', async (t) => {
  const e = await backend(without('GatewayClass'));
  t.is(e.timelines.patched.verdict.outcome, 'unknown');
  t.regex(e.timelines.patched.verdict.unknowns[0]!.what, /GatewayClass eg is not in the input/);
  const told = await backend(without('GatewayClass'), ['--lb-provider', 'in-cluster']);
  t.is(told.timelines.patched.verdict.outcome, 'ok');
  t.regex(told.inputs.find((i) => i.symbol === 'W')!.source, /Gateway eg is not modelled/);
});

test('a Gateway not in the input: unknown', async (t) => {
  const e = await backend(without('Gateway'));
  t.is(e.timelines.patched.verdict.outcome, 'unknown');
  t.regex(
    e.timelines.patched.verdict.unknowns[0]!.what,
    /Gateway eg is and how long .*\(the Gateway is not in the input\)/,
  );
});

test('a controller kube-graceful does not model: unknown, naming it', async (t) => {
  const other = QUICKSTART.replace(
    'controllerName: gateway.envoyproxy.io/gatewayclass-controller',
    'controllerName: example.net/gateway-controller',
  );
  const e = await backend(other);
  t.is(e.timelines.patched.verdict.outcome, 'unknown');
  t.regex(
    e.timelines.patched.verdict.unknowns[0]!.what,
    /controller example.net\/gateway-controller/,
  );
});

test("Istio's built-in class needs no GatewayClass in the input", async (t) => {
  const istio = without('GatewayClass').replace('gatewayClassName: eg', 'gatewayClassName: istio');
  const e = await backend(istio);
  t.is(e.timelines.patched.verdict.outcome, 'ok');
});
