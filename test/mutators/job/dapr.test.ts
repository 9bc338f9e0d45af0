/**
 * Issue #30 items 2 and 3: a Job whose pod asks Dapr's injector for daprd (`dapr.io/enabled`) is
 * wrapped so that daprd's shutdown API (`POST 127.0.0.1:3500/v1.0/shutdown`, dapr/dapr
 * pkg/api/http/shutdown.go@v1.18.3) is called when the program exits, beside a mesh proxy's quit;
 * a pod that asks for a native daprd (`dapr.io/enable-native-sidecar`, Dapr 1.18+) is left alone.
 * Inputs: Dapr's own Job example (test/fixtures/jobs/dapr/README.md) and variants.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../../helpers/fixtures.ts';
import { runCliAsync } from '../../helpers/cli.ts';
import { verdictsOf } from '../../helpers/verdicts.ts';

const read = (file: string) => readFileSync(fixturePath('jobs', 'dapr', file), 'utf8');
const SHUTDOWN = 'quit dapr http://127.0.0.1:3500/v1.0/shutdown';

/** The job-sidecar-quit verdicts explain gives `input`. */
const verdicts = (input: string) => verdictsOf('job-sidecar-quit', input);

for (const file of [
  'job-with-shutdown.yaml',
  'job-without-shutdown.yaml',
  'cronjob-dapr-istio.yaml',
])
  test(`${file}: wrapped to call daprd's shutdown API; check passes on it; idempotent; the Job completes`, async (t) => {
    const input = read(file);
    t.is((await runCliAsync(['check'], input)).status, 1, 'check fails as written');
    const out = await runCliAsync([], input);
    t.is(out.status, 0, out.stderr);
    t.true(out.stdout.includes(SHUTDOWN));
    t.is((await runCliAsync(['check'], out.stdout)).status, 0);
    t.is((await runCliAsync([], out.stdout)).stdout, out.stdout);
    t.is((await verdicts(input)).patched, 'ok');
    t.deepEqual(await verdicts(out.stdout), { asWritten: 'ok', patched: 'ok' });
  });

test("Dapr's example calls the shutdown API itself: unknown as written (is the call reached?), not a failure", async (t) => {
  t.is((await verdicts(read('job-with-shutdown.yaml'))).asWritten, 'unknown');
  t.is((await verdicts(read('job-without-shutdown.yaml'))).asWritten, 'fail');
});

test('Dapr with Istio: one wrapper asks both, and wrap mode is taken over native (no Dapr version)', async (t) => {
  const input = read('cronjob-dapr-istio.yaml');
  const out = await runCliAsync([], input);
  t.true(out.stdout.includes('quit istio http://127.0.0.1:15020/quitquitquit'));
  t.true(out.stdout.includes(SHUTDOWN));
  t.false(out.stdout.includes('nativeSidecar: "true"'));
  const text = (await runCliAsync(['explain'], input)).stdout;
  t.regex(text, /but daprd \(dapr\.io\/enabled\) is a native sidecar only with/);
});

test('a pod that asks for a native daprd is left alone, and said so', async (t) => {
  const input = read('job-without-shutdown.yaml').replace(
    '        dapr.io/enabled: "true"\n',
    '        dapr.io/enabled: "true"\n        dapr.io/enable-native-sidecar: "true"\n',
  );
  const out = await runCliAsync([], input);
  t.is(out.stdout, input);
  const text = (await runCliAsync(['explain'], input)).stdout;
  t.regex(text, /JOB_DAPR_NATIVE/);
});

test("dapr.io/enabled is read as Dapr's injector reads it (IsTruthy)", async (t) => {
  const as = (value: string) =>
    read('job-without-shutdown.yaml').replace(
      'dapr.io/enabled: "true"',
      `dapr.io/enabled: "${value}"`,
    );
  for (const truthy of ['on', 'Y', '1', ' yes '])
    t.true((await runCliAsync([], as(truthy))).stdout.includes(SHUTDOWN), truthy);
  for (const falsy of ['false', 'enabled', ''])
    t.false((await runCliAsync([], as(falsy))).stdout.includes(SHUTDOWN), falsy);
});
