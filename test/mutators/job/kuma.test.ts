/**
 * Issue #30 item 2: Kuma's sidecar in a Job is said, not planned. A pod labelled
 * `kuma.io/sidecar-injection` (true, yes or enabled: Kuma's precheck.go and GetEnabled @2.12.3)
 * gets `kuma-sidecar`, which kube-graceful does not end (fn/mutators/job/kuma.ts): nothing is
 * written, and a warning names the way Kuma itself offers (native sidecars, 2.7.0+). Input:
 * consul-k8s's Job acceptance case (test/fixtures/jobs/consul/README.md) with Kuma's label in
 * place of Consul's annotation, as Kuma's own injector test labels its pod
 * (pkg/plugins/runtime/k8s/webhooks/injector/testdata/inject.10.input.yaml@2.12.3).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../../helpers/fixtures.ts';
import { runCliAsync } from '../../helpers/cli.ts';

const consul = readFileSync(
  fixturePath('jobs', 'consul', 'consul-k8s-v1.9.11-job-client-inject.yaml'),
  'utf8',
);
const kuma = (value: string) =>
  consul
    .replace('        consul.hashicorp.com/connect-inject: "true"\n', '')
    .replace(
      '      labels:\n        app: job-client\n',
      `      labels:\n        app: job-client\n        kuma.io/sidecar-injection: "${value}"\n`,
    );

test('a Job with Kuma’s sidecar: nothing written, a warning says why and what Kuma offers', async (t) => {
  const input = kuma('enabled');
  t.not(input, consul);
  const out = await runCliAsync([], input);
  t.is(out.status, 0, out.stderr);
  t.is(out.stdout, input);
  t.regex(out.stderr, /JOB_KUMA_NOT_STOPPED/);
  t.regex(out.stderr, /experimental\.sidecarContainers, Kuma 2\.7\.0\+/);
});

test('the label is read as Kuma reads it: true, yes, enabled; not disabled', async (t) => {
  for (const yes of ['true', 'yes', 'enabled'])
    t.regex((await runCliAsync([], kuma(yes))).stderr, /JOB_KUMA_NOT_STOPPED/, yes);
  t.notRegex((await runCliAsync([], kuma('disabled'))).stderr, /JOB_KUMA_NOT_STOPPED/);
});

test("a Namespace in the stream labelled for Kuma counts; the pod's own label wins", async (t) => {
  const plain = kuma('x').replace('        kuma.io/sidecar-injection: "x"\n', '');
  const namespace =
    'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: default\n  labels:\n' +
    '    kuma.io/sidecar-injection: enabled\n---\n';
  t.regex((await runCliAsync([], namespace + plain)).stderr, /JOB_KUMA_NOT_STOPPED/);
  t.notRegex((await runCliAsync([], namespace + kuma('disabled'))).stderr, /JOB_KUMA_NOT_STOPPED/);
  t.notRegex((await runCliAsync([], plain)).stderr, /JOB_KUMA_NOT_STOPPED/);
});
