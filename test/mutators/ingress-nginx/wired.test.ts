// ingress-nginx-drain as users run it, on the real renders of the chart 4.15.1
// (test/fixtures/gateways/ingress-nginx/README.md): `check` fails on the input and passes on the
// output, the output is a fixed point, explain's patched timeline agrees (a failure window only
// where the node behind the load balancer drops connections, "unknown" where a mesh sidecar is
// not modelled), a user's larger --shutdown-grace-period is never lowered, and the off switch
// leaves the controller alone.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { runCliAsync } from '../../helpers/cli.ts';
import { fixturePath } from '../../helpers/fixtures.ts';

/** What this test reads of explain's JSON (docs/explain-schema.md). */
interface ExplainedWorkload {
  readonly mutator: string;
  readonly timelines: Record<string, { verdict: { outcome: string } }>;
}

const read = (file: string) => readFileSync(fixturePath('gateways', 'ingress-nginx', file), 'utf8');

const RENDERS = [
  // AWS's default 300 s deregistration delay outlives the pod (gone at 210 s), connection
  // termination off: a modelled risk, as for Traefik; no failure window.
  { file: 'chart-4.15.1-nlb-ip.yaml', patched: 'risk', W: 180 },
  // Instance targets with externalTrafficPolicy Local: a node forwards to the terminating pod
  // only while it passes readiness; /healthz fails from SIGTERM on and the chart's probe counts it
  // ready 20 s at least, short of W (./node-local.test.ts): a modelled failure, with a warning.
  { file: 'chart-4.15.1-daemonset-hostport-nlb-instance.yaml', patched: 'fail', W: 25 },
  { file: 'chart-4.15.1-nlb-ip-istio.yaml', patched: 'unknown', W: 180 },
] as const;

for (const { file, patched, W } of RENDERS) {
  test(`${file}: check fails as written, passes patched; idempotent; explain agrees`, async (t) => {
    const input = read(file);
    t.is((await runCliAsync(['check'], input)).status, 1);
    const out = await runCliAsync([], input);
    t.is(out.status, 0, out.stderr);
    t.true(out.stdout.includes(`- --shutdown-grace-period=${W}\n`));
    t.is((await runCliAsync(['check'], out.stdout)).status, 0);
    t.is((await runCliAsync([], out.stdout)).stdout, out.stdout);
    const explained = JSON.parse(
      (await runCliAsync(['explain', '--format', 'json'], input)).stdout,
    ) as { workloads: ExplainedWorkload[] };
    const controller = explained.workloads.find((w) => w.mutator === 'ingress-nginx-drain');
    t.truthy(controller);
    t.is(controller!.timelines['patched']!.verdict.outcome, patched);
    t.not(controller!.timelines['asWritten']!.verdict.outcome, 'ok');
  });
}

test('a larger --shutdown-grace-period the user wrote is kept, never lowered', async (t) => {
  const input = read('chart-4.15.1-nlb-ip.yaml').replace(
    '- --validating-webhook-key=/usr/local/certificates/key\n',
    '- --validating-webhook-key=/usr/local/certificates/key\n' +
      '            - --shutdown-grace-period=400\n',
  );
  const out = await runCliAsync([], input);
  t.true(out.stdout.includes('- --shutdown-grace-period=400\n'));
  t.false(out.stdout.includes('--shutdown-grace-period=180'));
  // G covers the kept 400 s: 400 + 20 + 10 + 5.
  t.true(out.stdout.includes('terminationGracePeriodSeconds: 435'));
});

test('with ingress-nginx-mode off nothing touches the controller, app-graceful included', async (t) => {
  const input = read('chart-4.15.1-nlb-ip.yaml');
  const out = await runCliAsync(['--ingress-nginx-mode', 'off'], input);
  t.false(out.stdout.includes('--shutdown-grace-period'));
});
