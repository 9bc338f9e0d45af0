/**
 * Issue #31 item 3 (part): the node's own budget when it goes away. A Karpenter NodePool's
 * terminationGracePeriod caps its pods' grace (kubernetes-sigs/karpenter pkg/apis/v1/nodepool.go
 * @v1.0.0 … @v1.14.1), a NodePool of Spot capacity gives the two-minute notice, and
 * --node-shutdown-budget says it for nodes the input does not show. Where G outlasts it,
 * NODE_SHUTDOWN_BUDGET says whether the drain still fits. Inputs: istio/gateway 1.30.3 behind an
 * NLB (G = 205 s), the AWS LBC's L7 example (G = 70 s), and aws/karpenter-provider-aws's NodePool
 * examples (test/fixtures/karpenter/README.md).
 *
 * The rest of item 3: a pod whose nodeSelector asks for a provider's interruptible capacity gets
 * that provider's budget (GKE Spot 15 s, AWS Spot 120 s), and the presets (--node-shutdown-preset
 * aws-spot | gke-spot) name the same for nodes the input does not show. Input: the GKE samples'
 * Falcon 40B Deployment on Spot VMs with its Service (test/fixtures/gke-spot/README.md).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { corpus, fixturePath } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';

const GATEWAY = corpus('istio-gateway-1.30.3-nlb.yaml');
const APP = readFileSync(fixturePath('aws-lbc', 'l7-gateway-echoserver.yaml'), 'utf8');
const SPOT = readFileSync(fixturePath('karpenter', 'spot-v1.yaml'), 'utf8');
const LIFETIME = readFileSync(fixturePath('karpenter', 'max-node-lifetime-v1.yaml'), 'utf8');
const GKE_SPOT = readFileSync(fixturePath('gke-spot', 'falcon-40b-tgi-spot.yaml'), 'utf8');

const join = (...texts: string[]) => texts.map((t) => t.replace(/\n*$/, '\n')).join('---\n');

interface Explained {
  inputs: Array<{ name: string; value: number; source: string }>;
}

async function budgetRow(input: string, args: string[] = []) {
  const run = await runCliAsync(['explain', '--output', 'json', ...args], input);
  if (run.status !== 0) throw new Error(run.stderr);
  const [first] = (JSON.parse(run.stdout) as { workloads: Explained[] }).workloads;
  return first!.inputs.find((i) => i.name === 'node shutdown budget');
}

test('a Spot NodePool: 120 s, and a gateway draining for 200 s loses requests', async (t) => {
  const input = join(GATEWAY, SPOT);
  const [run, row] = await Promise.all([runCliAsync([], input), budgetRow(input)]);
  t.is(run.status, 0, run.stderr);
  t.is(row?.value, 120);
  t.regex(row?.source ?? '', /NodePool spot: Spot capacity/);
  t.regex(
    run.stderr,
    /NODE_SHUTDOWN_BUDGET .*at most 120 s .*G = 205 s: requests still in flight at 120 s are lost/,
  );
});

test('a NodePool is cluster-scoped: named alone when the run fills in a namespace', async (t) => {
  const row = await budgetRow(join(GATEWAY, SPOT), ['--namespace', 'istio-ingress']);
  t.regex(row?.source ?? '', /NodePool spot: Spot capacity/);
});

test("a NodePool's terminationGracePeriod of 24h: no warning; the shortest pool counts", async (t) => {
  const [long, both] = await Promise.all([
    runCliAsync([], join(GATEWAY, LIFETIME)),
    runCliAsync([], join(GATEWAY, LIFETIME, SPOT)),
  ]);
  t.notRegex(long.stderr, /NODE_SHUTDOWN_BUDGET/);
  t.is((await budgetRow(join(GATEWAY, LIFETIME)))?.value, 86_400);
  t.regex(both.stderr, /NODE_SHUTDOWN_BUDGET .*at most 120 s/);
});

/** The gateway fixture with its pod template given a nodeSelector of one `label: value`. */
function withNodeSelector(label: string): string {
  const marker = '    spec:\n      serviceAccountName: istio-public-ingressgateway\n';
  if (!GATEWAY.includes(marker)) throw new Error('the fixture changed');
  return GATEWAY.replace(
    marker,
    `    spec:\n      nodeSelector:\n        ${label}\n` +
      '      serviceAccountName: istio-public-ingressgateway\n',
  );
}

test("a pod pinned to a NodePool by karpenter.sh/nodepool gets that pool's budget", async (t) => {
  const pinned = withNodeSelector('karpenter.sh/nodepool: default');
  const run = await runCliAsync([], join(pinned, LIFETIME, SPOT));
  t.is(run.status, 0, run.stderr);
  t.notRegex(run.stderr, /NODE_SHUTDOWN_BUDGET/);
});

test('--node-shutdown-budget: the setting wins; a drain that fits loses only the buffer', async (t) => {
  const flagged = await runCliAsync(['--node-shutdown-budget', '300'], join(GATEWAY, SPOT));
  t.notRegex(flagged.stderr, /NODE_SHUTDOWN_BUDGET/);
  const row = await budgetRow(APP, ['--node-shutdown-budget', '66']);
  t.regex(row?.source ?? '', /--node-shutdown-budget/);
  const fits = await runCliAsync(['--node-shutdown-budget', '66'], APP);
  t.regex(fits.stderr, /NODE_SHUTDOWN_BUDGET .*G = 70 s: its drain S \+ R = 65 s still fits/);
});

test('no NodePool and no setting: no budget row', async (t) => {
  t.is(await budgetRow(GATEWAY), undefined);
});

test('a Deployment on GKE Spot VMs: 15 s of the 30 s shutdown, below its G = 30 s', async (t) => {
  const [run, row] = await Promise.all([runCliAsync([], GKE_SPOT), budgetRow(GKE_SPOT)]);
  t.is(run.status, 0, run.stderr);
  t.is(row?.value, 15);
  t.regex(row?.source ?? '', /^nodeSelector cloud\.google\.com\/gke-spot: "true": GKE's 15 s/);
  t.regex(run.stderr, /NODE_SHUTDOWN_BUDGET Deployment llm: .*at most 15 s .*G = 30 s/);
  // Autopilot's Spot Pods get 25 s: said with the setting, which wins over the label.
  const autopilot = await budgetRow(GKE_SPOT, ['--node-shutdown-budget', '25']);
  t.is(autopilot?.value, 25);
});

test("an EKS managed node group's Spot label gives the two-minute notice", async (t) => {
  const onSpot = withNodeSelector('eks.amazonaws.com/capacityType: SPOT');
  const row = await budgetRow(onSpot);
  t.is(row?.value, 120);
  t.regex(row?.source ?? '', /eks\.amazonaws\.com\/capacityType: "SPOT": the two-minute EC2 Spot/);
  const onDemand = withNodeSelector('eks.amazonaws.com/capacityType: ON_DEMAND');
  t.is(await budgetRow(onDemand), undefined);
});

test('--node-shutdown-preset names a budget the input does not show; seconds win over it', async (t) => {
  const aws = await budgetRow(GATEWAY, ['--node-shutdown-preset', 'aws-spot']);
  t.is(aws?.value, 120);
  t.regex(
    aws?.source ?? '',
    /^aws-spot: the two-minute EC2 Spot interruption notice .*--node-shutdown-preset/,
  );
  t.is((await budgetRow(APP, ['--node-shutdown-preset', 'gke-spot']))?.value, 15);
  const both = await budgetRow(GATEWAY, [
    '--node-shutdown-preset',
    'aws-spot',
    '--node-shutdown-budget',
    '300',
  ]);
  t.is(both?.value, 300);
  const bad = await runCliAsync(['--node-shutdown-preset', 'azure-spot'], GATEWAY);
  t.not(bad.status, 0);
  t.is(bad.stdout, '');
  t.regex(bad.stderr, /aws-spot.*gke-spot/);
});

interface Timelines {
  resource: { name: string };
  timelines: Record<
    string,
    | {
        verdict: { outcome: string };
        events: Array<{ at: number | null; actor: string; text: string }>;
      }
    | undefined
  >;
}

async function timelinesOf(input: string, args: string[] = []): Promise<Timelines> {
  const run = await runCliAsync(['explain', '--output', 'json', ...args], input);
  if (run.status !== 0) throw new Error(run.stderr);
  return (JSON.parse(run.stdout) as { workloads: Timelines[] }).workloads[0]!;
}

test('explain draws the node going away beside the rollout: the kubelet kills at the budget', async (t) => {
  const app = await timelinesOf(GKE_SPOT);
  t.is(app.timelines['patched']?.verdict.outcome, 'ok');
  const node = app.timelines['nodeShutdown'];
  t.is(node?.verdict.outcome, 'fail');
  t.true(
    node?.events.some((e) => e.actor === 'kubelet' && e.at === 15) ?? false,
    'the deadline at the budget',
  );
  const gateway = await timelinesOf(join(GATEWAY, SPOT));
  t.is(gateway.timelines['nodeShutdown']?.verdict.outcome, 'fail');
  // A budget the grace period fits in, or none: no third timeline.
  t.is(
    (await timelinesOf(GKE_SPOT, ['--node-shutdown-budget', '60'])).timelines['nodeShutdown'],
    undefined,
  );
  t.is((await timelinesOf(GATEWAY)).timelines['nodeShutdown'], undefined);
  const [text, markdown, svg] = await Promise.all(
    ['text', 'markdown', 'svg'].map((format) =>
      runCliAsync(['explain', '--output', format], GKE_SPOT),
    ),
  );
  for (const out of [text, markdown, svg])
    t.regex(out?.stdout ?? '', /Patched, when the node goes away/);
});
