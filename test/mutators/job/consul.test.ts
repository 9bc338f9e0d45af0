/**
 * Issue #30 item 2: a Job whose pod asks Consul's connect injector for consul-dataplane
 * (`consul.hashicorp.com/connect-inject`) is wrapped so that the dataplane's graceful-shutdown
 * endpoint (`POST 127.0.0.1:20600/graceful_shutdown`, consul-dataplane
 * pkg/consuldp/lifecycle.go@v1.9.9) is called when the program exits; a pod that asks for a
 * native dataplane (`consul.hashicorp.com/enable-consul-dataplane-as-sidecar`, consul-k8s
 * v1.9.0+) is left alone; one whose endpoint is not known is left alone with a warning. Input:
 * consul-k8s's own Job acceptance case at v1.9.11, built with kubectl kustomize
 * (test/fixtures/jobs/consul/README.md).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../../helpers/fixtures.ts';
import { runCliAsync } from '../../helpers/cli.ts';
import { verdictsOf } from '../../helpers/verdicts.ts';

const input = readFileSync(
  fixturePath('jobs', 'consul', 'consul-k8s-v1.9.11-job-client-inject.yaml'),
  'utf8',
);
const QUIT = 'quit consul http://127.0.0.1:20600/graceful_shutdown';
const INJECT = '        consul.hashicorp.com/connect-inject: "true"\n';
const withAnnotation = (line: string) => input.replace(INJECT, `${INJECT}        ${line}\n`);

test("consul-k8s's Job case: wrapped to call the dataplane's graceful shutdown; check passes; idempotent; ✓", async (t) => {
  t.is((await runCliAsync(['check'], input)).status, 1, 'check fails as written');
  const out = await runCliAsync([], input);
  t.is(out.status, 0, out.stderr);
  t.true(out.stdout.includes(QUIT));
  t.is((await runCliAsync(['check'], out.stdout)).status, 0);
  t.is((await runCliAsync([], out.stdout)).stdout, out.stdout);
  // alpine/curl is not in the list of images known to have curl: said, and then ✓.
  t.deepEqual(await verdictsOf('job-sidecar-quit', input), { asWritten: 'fail', patched: 'risk' });
  const said = ['--job-image-has-http-client', 'true'];
  t.is((await verdictsOf('job-sidecar-quit', input, said)).patched, 'ok');
});

test('a graceful port the pod names is the one called', async (t) => {
  const out = await runCliAsync(
    [],
    withAnnotation('consul.hashicorp.com/sidecar-proxy-lifecycle-graceful-port: "21000"'),
  );
  t.true(out.stdout.includes('quit consul http://127.0.0.1:21000/graceful_shutdown'));
});

test('a pod that asks for a native dataplane is left alone, and said so', async (t) => {
  const native = withAnnotation('consul.hashicorp.com/enable-consul-dataplane-as-sidecar: "true"');
  const out = await runCliAsync([], native);
  t.is(out.stdout, native);
  t.regex((await runCliAsync(['explain'], native)).stdout, /JOB_CONSUL_NATIVE/);
});

test('a shutdown path the injector may or may not use: nothing written, a warning says why', async (t) => {
  const custom = withAnnotation(
    'consul.hashicorp.com/sidecar-proxy-lifecycle-graceful-shutdown-path: "/stop"',
  );
  const out = await runCliAsync([], custom);
  t.is(out.stdout, custom);
  t.regex(out.stderr, /JOB_CONSUL_NOT_STOPPED/);
});

test("connect-inject is read as the injector reads it (Go's ParseBool)", async (t) => {
  const as = (value: string) =>
    input.replace(INJECT, `        consul.hashicorp.com/connect-inject: "${value}"\n`);
  for (const yes of ['1', 'T', 'True'])
    t.true((await runCliAsync([], as(yes))).stdout.includes(QUIT), yes);
  for (const no of ['yes', 'on'])
    t.false((await runCliAsync([], as(no))).stdout.includes(QUIT), no);
});

test("explain draws the dataplane's shutdown grace: the case's 5 s, else the chart's 30 s", async (t) => {
  const text = (await runCliAsync(['explain'], input)).stdout;
  t.regex(text, /5 s {2}consul-dataplane {2}exits\n/);
  const grace =
    '        consul.hashicorp.com/sidecar-proxy-lifecycle-shutdown-grace-period-seconds: "5"\n';
  t.true(input.includes(grace));
  const byDefault = (await runCliAsync(['explain'], input.replace(grace, ''))).stdout;
  t.regex(byDefault, /30 s {2}consul-dataplane {2}exits\n/);
});
