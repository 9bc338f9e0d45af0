/**
 * Issue #30 item 1, 3, 4: a Job whose pod declares a sidecar in `containers` (the Cloud SQL Auth
 * Proxy by image, any container named in job.sidecars) completes: the sidecar becomes a native
 * one where the oldest kubelet has them, every field kept; elsewhere a warning says the Job still
 * hangs and what would end it; a pod of sidecars only is left alone. Inputs: the Cloud SQL Auth
 * Proxy's own Job examples (examples/k8s-sidecar@v2.25.3, as published) and a CronJob with
 * istio-proxy, the proxy and a named log shipper (test/golden/job-cloud-sql-proxy-istio-cronjob).
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { isWrapped, wrappedQuitUrls } from '../../../fn/mutators/job/wrapper.ts';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { fixturePath, ROOT } from '../../helpers/fixtures.ts';
import { runCliAsync } from '../../helpers/cli.ts';
import { verdictsOf } from '../../helpers/verdicts.ts';
import { requireTool } from '../../helpers/tools.ts';

const SHUTDOWN_HOOK = readFileSync(
  fixturePath('jobs', 'cloud-sql-proxy-v2.25.3-job_with_shutdown_hook.yaml'),
  'utf8',
);
const NATIVE_EXAMPLE = readFileSync(
  fixturePath('jobs', 'cloud-sql-proxy-v2.25.3-job_with_sidecar.yaml'),
  'utf8',
);
const CRONJOB = readFileSync(
  join(ROOT, 'test', 'golden', 'job-cloud-sql-proxy-istio-cronjob', 'input.yaml'),
  'utf8',
);

interface Container {
  name: string;
  restartPolicy?: string;
  [field: string]: unknown;
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
}

/** The pod spec of the (first) Job or CronJob of a stream. */
function podSpec(stream: string): PodSpec {
  for (const doc of parseAllDocuments(stream)) {
    const o = doc.toJS() as { kind?: string; spec?: unknown } | null;
    if (o?.kind === 'Job') return (o.spec as { template: { spec: PodSpec } }).template.spec;
    if (o?.kind === 'CronJob')
      return (o.spec as { jobTemplate: { spec: { template: { spec: PodSpec } } } }).jobTemplate.spec
        .template.spec;
  }
  throw new Error('no Job in the stream');
}

/**
 * What the API server checks of the move (pkg/apis/core/validation, KEP-753): one name per
 * container across both lists, `restartPolicy` only on init containers and only `Always`.
 */
function assertValidPod(t: ExecutionContext, spec: PodSpec): void {
  const names = [...spec.containers, ...(spec.initContainers ?? [])].map((c) => c.name);
  t.is(new Set(names).size, names.length, `unique names: ${names.join(', ')}`);
  t.true(spec.containers.every((c) => c.restartPolicy === undefined));
  t.true((spec.initContainers ?? []).every((c) => [undefined, 'Always'].includes(c.restartPolicy)));
}

/** The job-sidecar-quit verdicts explain gives `input`. */
const verdicts = (input: string, args: string[] = []) =>
  verdictsOf('job-sidecar-quit', input, args);

test('the Cloud SQL Auth Proxy example Job: the proxy becomes a native sidecar, every field kept; check passes; idempotent; explain agrees', async (t) => {
  t.is((await runCliAsync(['check'], SHUTDOWN_HOOK)).status, 1, 'check fails as written');
  const out = await runCliAsync([], SHUTDOWN_HOOK);
  t.is(out.status, 0, out.stderr);
  const before = podSpec(SHUTDOWN_HOOK);
  const after = podSpec(out.stdout);
  assertValidPod(t, after);
  t.deepEqual(
    after.containers.map((c) => c.name),
    ['my-application'],
  );
  const proxy = after.initContainers?.find((c) => c.name === 'cloud-sql-proxy');
  const { restartPolicy, ...fields } = proxy ?? ({} as Container);
  t.is(restartPolicy, 'Always');
  t.deepEqual(
    fields,
    before.containers.find((c) => c.name === 'cloud-sql-proxy'),
  );
  t.deepEqual(after.containers[0], before.containers[0], 'the main container as it was');
  t.is((await runCliAsync(['check'], out.stdout)).status, 0, 'nothing left to change');
  t.is((await runCliAsync([], out.stdout)).stdout, out.stdout, 'a second run changes nothing');
  // As written, the program's command calls /quitquitquit itself: not modelled, so unknown.
  t.deepEqual(await verdicts(SHUTDOWN_HOOK), { asWritten: 'unknown', patched: 'ok' });
  const silent = SHUTDOWN_HOOK.replace(
    '              curl http://localhost:9091/quitquitquit\n',
    '',
  );
  t.not(silent, SHUTDOWN_HOOK);
  t.deepEqual(await verdicts(silent), { asWritten: 'fail', patched: 'ok' });
});

test('the example that already runs the proxy as a native sidecar is left byte for byte', async (t) => {
  const out = await runCliAsync([], NATIVE_EXAMPLE);
  t.is(out.status, 0, out.stderr);
  t.is(out.stdout, NATIVE_EXAMPLE);
  const explain = await runCliAsync(['explain', '--summary'], NATIVE_EXAMPLE);
  t.is(explain.status, 0, explain.stderr);
});

test('an oldest kubelet without native sidecars, or job.mode wrap: the wrapper ends the proxy through its /quitquitquit; check passes; explain agrees', async (t) => {
  for (const args of [
    ['--kube-version', '1.28'],
    ['--job-mode', 'wrap'],
  ]) {
    const out = await runCliAsync(args, SHUTDOWN_HOOK);
    t.is(out.status, 0, out.stderr);
    const spec = podSpec(out.stdout);
    const [work, proxy] = spec.containers;
    t.is(work?.name, 'my-application');
    t.true(isWrapped(work?.command as string[]), args.join(' '));
    t.deepEqual(wrappedQuitUrls(work?.command as string[]), ['http://127.0.0.1:9091/quitquitquit']);
    // The example runs the proxy with --admin-port=9091 --quitquitquit already.
    t.deepEqual(proxy, podSpec(SHUTDOWN_HOOK).containers[1]);
    t.is((await runCliAsync(['check', ...args], out.stdout)).status, 0);
    t.is((await runCliAsync(args, out.stdout)).stdout, out.stdout, 'idempotent');
  }
  t.deepEqual(await verdicts(SHUTDOWN_HOOK, ['--kube-version', '1.28']), {
    asWritten: 'unknown',
    patched: 'ok',
  });
});

test('a proxy without --quitquitquit gets it (and its --admin-port is read); one older than v2.1.0, or v1, cannot be ended: nothing changed, a warning', async (t) => {
  const args = ['--kube-version', '1.28'];
  const noFlag = SHUTDOWN_HOOK.replace('            - "--quitquitquit"\n', '').replace(
    '"--admin-port=9091"',
    '"--admin-port=9192"',
  );
  t.false(noFlag.includes('"--quitquitquit"'));
  const out = await runCliAsync(args, noFlag);
  t.is(out.status, 0, out.stderr);
  const [work, proxy] = podSpec(out.stdout).containers;
  t.deepEqual(wrappedQuitUrls(work?.command as string[]), ['http://127.0.0.1:9192/quitquitquit']);
  t.is((proxy?.args as string[]).at(-1), '--quitquitquit');
  t.deepEqual(
    (proxy?.args as string[]).slice(0, -1),
    podSpec(noFlag).containers[1]?.args,
    'the other flags as they were',
  );
  for (const image of [
    'gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.0.0',
    'gcr.io/cloudsql-docker/gce-proxy:1.33.16',
  ]) {
    const old = noFlag.replace('gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.14.1', image);
    t.not(old, noFlag);
    t.is((await runCliAsync(args, old)).stdout, old, image);
    const check = await runCliAsync(['check', '--fail-on', 'warning', ...args], old);
    t.regex(check.stdout + check.stderr, /JOB_SIDECAR_NOT_STOPPED/, image);
  }
});

test('a proxy given only a command (no args list) gets --quitquitquit in a new args list', async (t) => {
  const args = ['--kube-version', '1.28'];
  // The example's proxy without its args block: the binary and its port flags as the command.
  const block =
    /(cloud-sql-proxy:2\.14\.1\n) {10}args:\n(?:(?: {12}.*)?\n)+?(?= {10}securityContext:)/;
  const commandOnly = SHUTDOWN_HOOK.replace(
    block,
    '$1          command:\n            - "/cloud-sql-proxy"\n            - "--admin-port=9091"\n' +
      '            - "--port=5432"\n            - "project:region:instance"\n',
  );
  t.not(commandOnly, SHUTDOWN_HOOK);
  t.is(podSpec(commandOnly).containers[1]?.args, undefined);
  const out = await runCliAsync(args, commandOnly);
  t.is(out.status, 0, out.stderr);
  const proxy = podSpec(out.stdout).containers[1];
  t.deepEqual(proxy?.command, podSpec(commandOnly).containers[1]?.command);
  t.deepEqual(proxy?.args, ['--quitquitquit']);
  t.is((await runCliAsync(['check', ...args], out.stdout)).status, 0);
  t.is((await runCliAsync(args, out.stdout)).stdout, out.stdout, 'idempotent');
});

test('Istio, the proxy and a named log shipper in one CronJob: one plan, every sidecar native; with an old kubelet left as written and said', async (t) => {
  const out = await runCliAsync(['--istio-version', '1.28'], CRONJOB);
  t.is(out.status, 0, out.stderr);
  const spec = podSpec(out.stdout);
  assertValidPod(t, spec);
  t.deepEqual(
    spec.containers.map((c) => c.name),
    ['report'],
  );
  t.deepEqual(
    (spec.initContainers ?? []).map((c) => [c.name, c.restartPolicy]),
    [
      ['cloud-sql-proxy', 'Always'],
      ['log-shipper', 'Always'],
    ],
  );
  t.true(out.stdout.includes('sidecar.istio.io/nativeSidecar: "true"'));
  t.deepEqual(await verdicts(CRONJOB, ['--istio-version', '1.28']), {
    asWritten: 'fail',
    patched: 'ok',
  });

  // An old kubelet: the wrapper could end istio-proxy and the proxy, not the log shipper, so the
  // pod is left as written, and said.
  const old = ['--istio-version', '1.22', '--kube-version', '1.28'];
  const left = await runCliAsync(old, CRONJOB);
  t.is(left.status, 0, left.stderr);
  t.is(left.stdout, CRONJOB);
  const check = await runCliAsync(['check', '--fail-on', 'warning', ...old], CRONJOB);
  t.regex(check.stdout + check.stderr, /JOB_SIDECAR_NOT_STOPPED.*log-shipper/);
  t.deepEqual(await verdicts(CRONJOB, old), { asWritten: 'fail', patched: 'fail' });
  // Without the log shipper (neither named nor of a known image), the work is wrapped to end
  // both proxies.
  const unnamed = CRONJOB.replace(
    '            kube-graceful.dev/job-sidecars: log-shipper\n',
    '',
  ).replace('cr.fluentbit.io/fluent/fluent-bit:3.2.2', 'busybox');
  t.not(unnamed, CRONJOB);
  const wrapped = await runCliAsync(old, unnamed);
  const report = podSpec(wrapped.stdout).containers.find((c) => c.name === 'report');
  t.deepEqual(wrappedQuitUrls(report?.command as string[]), [
    'http://127.0.0.1:15020/quitquitquit',
    'http://127.0.0.1:9091/quitquitquit',
  ]);
});

test('an OpenTelemetry Collector, a Fluent Bit and a Datadog Agent are sidecars by image: native where the kubelet has it, else a warning (no quit endpoint known)', async (t) => {
  const proxyImage = 'gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.14.1';
  for (const image of [
    'otel/opentelemetry-collector-contrib:0.130.0',
    'ghcr.io/open-telemetry/opentelemetry-collector-releases/opentelemetry-collector-k8s:0.130.0',
    'cr.fluentbit.io/fluent/fluent-bit:4.2.0',
    'fluent/fluent-bit:3.2.2',
    'gcr.io/datadoghq/agent:7.73.0',
    'registry.datadoghq.com/agent:7.73.0',
    'public.ecr.aws/datadog/agent:7',
    'datadog/agent:7.73.0',
  ]) {
    const input = SHUTDOWN_HOOK.replace(proxyImage, image);
    t.not(input, SHUTDOWN_HOOK);
    const out = await runCliAsync([], input);
    t.is(out.status, 0, out.stderr);
    t.deepEqual(
      podSpec(out.stdout).initContainers?.map((c) => [c.name, c.restartPolicy]),
      [['cloud-sql-proxy', 'Always']],
      image,
    );
    const old = await runCliAsync(
      ['check', '--fail-on', 'warning', '--kube-version', '1.28'],
      input,
    );
    t.regex(old.stdout + old.stderr, /JOB_SIDECAR_NOT_STOPPED.*no quit endpoint/, image);
  }
  // A look-alike repository is not the product, nor is Datadog's cluster agent.
  for (const image of [
    'example.com/fluent/fluent-bit-tools:1.0',
    'gcr.io/datadoghq/cluster-agent:7.73.0',
  ]) {
    const other = SHUTDOWN_HOOK.replace(proxyImage, image);
    t.is((await runCliAsync([], other)).stdout, other, image);
  }
});

test('never a guessed main container: a pod of sidecars only is left alone; a name that matches nothing is said', async (t) => {
  const allSidecars = SHUTDOWN_HOOK.replace(
    'metadata:\n      creationTimestamp: null\n',
    'metadata:\n      annotations:\n        kube-graceful.dev/job-sidecars: my-application\n' +
      '      creationTimestamp: null\n',
  );
  t.not(allSidecars, SHUTDOWN_HOOK);
  const out = await runCliAsync(['check', '--fail-on', 'warning'], allSidecars);
  t.is(out.status, 1);
  t.regex(out.stdout + out.stderr, /JOB_NO_MAIN_CONTAINER/);
  t.is((await runCliAsync([], allSidecars)).stdout, allSidecars);

  // A mesh proxy injected at render time is the mesh's to handle, even when named: never moved.
  const kubeInject = readFileSync(
    join(ROOT, 'test', 'golden', 'job-istio-kube-inject', 'input.yaml'),
    'utf8',
  );
  const plain = await runCliAsync([], kubeInject);
  const named = await runCliAsync(['--job-sidecars', 'istio-proxy'], kubeInject);
  t.is(named.status, 0, named.stderr);
  t.is(named.stdout, plain.stdout);
  t.notRegex(named.stderr, /JOB_SIDECAR_NOT_FOUND/);

  const missing = await runCliAsync(['check', '--job-sidecars', 'vault-agent'], SHUTDOWN_HOOK);
  t.regex(missing.stdout + missing.stderr, /JOB_SIDECAR_NOT_FOUND.*"vault-agent"/);
});

test('kpt: fn source | kube-graceful | fn sink moves the sidecar in the package file; a second run changes nothing', async (t) => {
  const kpt = requireTool('kpt');
  const dir = mkdtempSync(join(tmpdir(), 'kg-job-sidecar-'));
  const pkg = join(dir, 'pkg');
  mkdirSync(pkg);
  writeFileSync(join(pkg, 'job.yaml'), SHUTDOWN_HOOK);
  const list = execFileSync(kpt, ['fn', 'source', pkg], { encoding: 'utf8' });
  const out = await runCliAsync([], list);
  t.is(out.status, 0, out.stderr);
  execFileSync(kpt, ['fn', 'sink', join(dir, 'out')], { input: out.stdout });
  const written = readFileSync(join(dir, 'out', 'job.yaml'), 'utf8');
  const spec = podSpec(written);
  assertValidPod(t, spec);
  t.deepEqual(
    spec.initContainers?.map((c) => c.name),
    ['cloud-sql-proxy'],
  );
  const again = await runCliAsync([], execFileSync(kpt, ['fn', 'source', join(dir, 'out')]));
  const second = parse(again.stdout) as { results?: Array<{ tags?: { code?: string } }> };
  t.deepEqual(
    (second.results ?? []).filter((r) => r.tags?.code === undefined),
    [],
    'no change left',
  );
});
