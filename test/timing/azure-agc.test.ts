/**
 * Issue #31 item 2: Azure Application Gateway for Containers sends to the pods' IPs from outside
 * the cluster (GatewayClass or IngressClass azure-alb-external, controller
 * alb.networking.azure.io/alb-controller). kube-graceful does not model how soon it drops a
 * terminating pod, so the pods behind it are "unknown" until the user gives the window, never ✓:
 * an Ingress of that class was planned as if an in-cluster controller stood in front.
 * Inputs: the traffic-splitting example of MicrosoftDocs/azure-docs
 * (articles/application-gateway/for-containers/examples/traffic-split-scenario/deployment.yaml,
 * with the Gateway and HTTPRoute of how-to-traffic-splitting-gateway-api.md, or the Ingress of
 * how-to-header-rewrite-ingress-api.md).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';

const read = (name: string) =>
  readFileSync(fixturePath('gateways', 'azure-agc', `${name}.yaml`), 'utf8');
const GATEWAY_API = read('traffic-split-gateway-api');
const INGRESS = read('header-rewrite-ingress-api');

interface Explained {
  resource: { name: string };
  inputs: Array<{ symbol?: string; source: string }>;
  timelines: { patched: { verdict: { outcome: string; text: string } } };
}

async function explained(input: string, flags: string[] = []): Promise<Map<string, Explained>> {
  const run = await runCliAsync(['explain', '--output', 'json', ...flags], input);
  if (run.status !== 0) throw new Error(run.stderr);
  const { workloads } = JSON.parse(run.stdout) as { workloads: Explained[] };
  return new Map(workloads.map((w) => [w.resource.name, w]));
}

const verdict = (w: Explained | undefined) => w?.timelines.patched.verdict;

test('pods an HTTPRoute sends to from an azure-alb-external Gateway: unknown, naming AGC', async (t) => {
  const workloads = await explained(GATEWAY_API);
  t.is(workloads.size, 2);
  for (const name of ['backend-v1', 'backend-v2']) {
    t.is(verdict(workloads.get(name))?.outcome, 'unknown', name);
    t.regex(verdict(workloads.get(name))!.text, /Azure Application Gateway for Containers/);
    t.regex(
      workloads.get(name)!.inputs.find((i) => i.symbol === 'W')!.source,
      /^HTTPRoute test-infra\/traffic-split-route through Gateway test-infra\/gateway-01: Azure/,
    );
  }
});

test('pods behind an Ingress of class azure-alb-external: unknown, not the in-cluster ✓', async (t) => {
  const workloads = await explained(INGRESS);
  t.is(verdict(workloads.get('backend-v1'))?.outcome, 'unknown');
  t.regex(
    verdict(workloads.get('backend-v1'))!.text,
    /Ingress test-infra\/ingress-01's Azure Application Gateway for Containers/,
  );
  // backend-v2 is behind no Ingress: its in-cluster window is modelled.
  t.is(verdict(workloads.get('backend-v2'))?.outcome, 'ok');
});

test('the window the user gives for it is planned with, and the verdict is known', async (t) => {
  const workloads = await explained(INGRESS, ['--drain-window', '30']);
  const w = workloads.get('backend-v1')!;
  t.not(verdict(w)?.outcome, 'unknown');
  t.regex(w.inputs.find((i) => i.symbol === 'W')!.source, /drain-window/);
});
