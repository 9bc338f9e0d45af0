// kong-drain as users run it, on real renders of Kong's chart 3.4.1
// (test/fixtures/gateways/kong/README.md): `check` fails on the input and passes on the output, the
// output is a fixed point, explain's patched timeline has no failure window where the pod is fully
// modelled (and says "unknown" where a mesh sidecar is not), the ingress-controller container gets
// no preStop, `kong quit`'s options are read in lapp's forms and never lowered, and what is not
// modelled is left alone with a warning.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { runCliAsync } from '../../helpers/cli.ts';
import { fixturePath } from '../../helpers/fixtures.ts';

/** What this test reads of explain's JSON (docs/explain-schema.md). */
interface ExplainedWorkload {
  readonly mutator: string;
  readonly timelines: Record<string, { verdict: { outcome: string } }>;
}

const read = (file: string) => readFileSync(fixturePath('gateways', 'kong', file), 'utf8');
const WAIT_15 = '              - --wait=15\n';
const CONTROLLER_PORTS = '      - name: ingress-controller\n';

const RENDERS = [
  // AWS's default 300 s deregistration delay outlives the pod: a modelled risk, no failure.
  { file: 'chart-3.4.1-nlb-ip.yaml', patched: 'risk' },
  { file: 'chart-3.4.1-nlb-ip-istio.yaml', patched: 'unknown' },
] as const;

for (const { file, patched } of RENDERS) {
  test(`${file}: check fails as written, passes patched; idempotent; explain agrees`, async (t) => {
    const input = read(file);
    t.is((await runCliAsync(['check'], input)).status, 1);
    const out = await runCliAsync([], input);
    t.is(out.status, 0, out.stderr);
    t.true(out.stdout.includes('              - --wait=180\n              - --timeout=20\n'));
    t.true(out.stdout.includes('terminationGracePeriodSeconds: 205\n'));
    // The ingress controller is not behind the load balancer: no preStop for it.
    const controller = out.stdout.split(CONTROLLER_PORTS)[1]!.split('\n      - name: ')[0]!;
    t.false(controller.includes('lifecycle'));
    t.is((await runCliAsync(['check'], out.stdout)).status, 0);
    t.is((await runCliAsync([], out.stdout)).stdout, out.stdout);
    const explained = JSON.parse(
      (await runCliAsync(['explain', '--format', 'json'], input)).stdout,
    ) as { workloads: ExplainedWorkload[] };
    const kong = explained.workloads.find((w) => w.mutator === 'kong-drain');
    t.truthy(kong);
    t.is(kong!.timelines['patched']!.verdict.outcome, patched);
    t.not(kong!.timelines['asWritten']!.verdict.outcome, 'ok');
  });
}

test('"-w 300" is kept (never lowered) and a larger grace period covers it', async (t) => {
  const input = read('chart-3.4.1-nlb-ip.yaml').replace(
    WAIT_15,
    '              - -w\n              - "300"\n              - --timeout\n              - "60"\n',
  );
  const out = await runCliAsync([], input);
  t.true(out.stdout.includes('              - -w\n              - "300"\n'));
  t.true(out.stdout.includes('              - --timeout\n              - "60"\n'));
  // G = P + R + B = 300 + 20 + 5.
  t.true(out.stdout.includes('terminationGracePeriodSeconds: 325\n'));
});

test('a Kong container without a preStop gets kong quit from the model', async (t) => {
  const input = read('chart-3.4.1-nlb-ip.yaml').replace(
    [
      '        lifecycle:',
      '          preStop:',
      '            exec:',
      '              command:',
      '              - kong',
      '              - quit',
      '              - --wait=15\n',
    ].join('\n'),
    '',
  );
  t.false(input.includes('kong quit'));
  const out = await runCliAsync([], input);
  t.true(out.stdout.includes('- quit\n'));
  t.true(out.stdout.includes('- --wait=180\n'));
  t.is((await runCliAsync(['check'], out.stdout)).status, 0);
});

test('an unreadable --wait and an image past 3.9 are left alone, with warnings', async (t) => {
  const unreadable = read('chart-3.4.1-nlb-ip.yaml').replace(
    WAIT_15,
    '              - --wait=15s\n',
  );
  const a = await runCliAsync(['check', '--fail-on', 'warning'], unreadable);
  t.true(a.stdout.includes('KONG_OPTION_UNREADABLE'), a.stdout);
  t.false((await runCliAsync([], unreadable)).stdout.includes('--wait=180'));
  const enterprise = read('chart-3.4.1-nlb-ip.yaml').replaceAll(
    'image: kong:3.9',
    'image: kong/kong-gateway:3.11',
  );
  const b = await runCliAsync(['check', '--fail-on', 'warning'], enterprise);
  t.true(b.stdout.includes('KONG_VERSION_UNKNOWN'), b.stdout);
  t.false((await runCliAsync([], enterprise)).stdout.includes('--wait=180'));
});

test('with kong-mode off no kong quit timeout is written (nothing touches the pod: test/engine/claims.test.ts)', async (t) => {
  const out = await runCliAsync(['--kong-mode', 'off'], read('chart-3.4.1-nlb-ip.yaml'));
  t.false(out.stdout.includes('--timeout=20'));
});
