/**
 * A Cloud SQL Auth Proxy the chart runs beside its app as a regular container stops with the app
 * at t = 0 while the app still serves and queries through it. Patched, it outlives the app: a
 * native sidecar where the oldest kubelet has them, else v2's --min-sigterm-delay = T = S + R
 * (from v2.12.0), else a warning; explain draws the proxy's end and says ✓ only where it outlives
 * the app. Input: the chainloop chart 1.14.0 (tag v0.17.1) with its proxy enabled
 * (test/fixtures/cloud-sql-proxy/README.md); the image is swapped for v2 releases where a case
 * needs one, and each edit is checked to have happened.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { fixturePath } from '../../helpers/fixtures.ts';
import { runCliAsync } from '../../helpers/cli.ts';

const CHART = readFileSync(fixturePath('cloud-sql-proxy', 'chainloop-1.14.0.yaml'), 'utf8');
const V1_IMAGE = 'gcr.io/cloudsql-docker/gce-proxy:1.28.0';
const APP = 'chainloop-controlplane';

interface Container {
  name: string;
  restartPolicy?: string;
  args?: string[];
  [field: string]: unknown;
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
}

function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the fixture changed: ${from}`);
  return text.split(from).join(to);
}

/** The chart with the proxy's image replaced (in the Deployment and the Job). */
const withImage = (image: string) => edit(CHART, V1_IMAGE, image);

/** The pod spec of the control plane's Deployment. */
function podSpec(stream: string): PodSpec {
  for (const doc of parseAllDocuments(stream)) {
    const o = doc.toJS() as { kind?: string; metadata?: { name?: string }; spec?: unknown } | null;
    if (o?.kind === 'Deployment' && o.metadata?.name === APP)
      return (o.spec as { template: { spec: PodSpec } }).template.spec;
  }
  throw new Error(`no Deployment ${APP}`);
}

const proxyOf = (stream: string) =>
  podSpec(stream).containers.find((c) => c.name === 'cloud-sql-proxy');

interface Window {
  kind: string;
  outcome: string;
  from: number;
  to: number | null;
}
interface Explained {
  resource: { name: string };
  settings: Array<{ name: string; patched: { value: unknown } }>;
  timelines: Record<'asWritten' | 'patched', { verdict: { outcome: string }; windows: Window[] }>;
}

async function explained(input: string, args: string[] = []): Promise<Explained> {
  const out = await runCliAsync(['explain', '--format', 'json', ...args], input);
  if (out.status !== 0) throw new Error(out.stderr);
  const { workloads } = JSON.parse(out.stdout) as { workloads: Explained[] };
  return workloads.find((w) => w.resource.name === APP)!;
}

const proxyWindows = (e: Explained, when: 'asWritten' | 'patched') =>
  e.timelines[when].windows
    .filter((w) => w.kind === 'proxy-gone' || w.kind === 'early-exit')
    .map((w) => `${w.outcome} ${w.kind} ${w.from}-${w.to}`);

test('the oldest kubelet has native sidecars: the proxy moves to initContainers, every field kept; explain ✗ as written, ✓ patched; idempotent', async (t) => {
  const out = await runCliAsync([], CHART);
  t.is(out.status, 0, out.stderr);
  const before = podSpec(CHART);
  const after = podSpec(out.stdout);
  t.deepEqual(
    after.containers.map((c) => c.name),
    ['chainloop'],
  );
  const { restartPolicy, ...fields } = after.initContainers?.[0] ?? ({} as Container);
  t.is(restartPolicy, 'Always');
  t.deepEqual(
    fields,
    before.containers.find((c) => c.name === 'cloud-sql-proxy'),
  );
  t.is((await runCliAsync(['check'], out.stdout)).status, 0, 'nothing left to change');
  t.is((await runCliAsync([], out.stdout)).stdout, out.stdout, 'a second run changes nothing');
  const e = await explained(CHART);
  t.is(e.timelines.asWritten.verdict.outcome, 'fail');
  t.deepEqual(proxyWindows(e, 'asWritten'), ['fail proxy-gone 0-20']);
  t.is(e.timelines.patched.verdict.outcome, 'ok');
  t.deepEqual(proxyWindows(e, 'patched'), []);
});

test('no native sidecars, a v2 image from 2.12.0: --min-sigterm-delay = T = S + R, the other args kept; ✓; idempotent', async (t) => {
  const args = ['--kube-version', '1.28', '--app-image-has-shell', 'true'];
  const input = withImage('gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.14.1');
  const out = await runCliAsync(args, input);
  t.is(out.status, 0, out.stderr);
  const proxy = proxyOf(out.stdout);
  // The chart gives the proxy a command and no args: the list is made.
  t.deepEqual(proxy?.args, ['--min-sigterm-delay=25s']);
  t.is((await runCliAsync(['check', ...args], out.stdout)).status, 0);
  t.is((await runCliAsync(args, out.stdout)).stdout, out.stdout, 'idempotent');
  const e = await explained(input, args);
  t.deepEqual(proxyWindows(e, 'asWritten'), ['fail proxy-gone 0-20']);
  t.is(e.timelines.patched.verdict.outcome, 'ok');
  const row = e.settings.find((s) => s.name === 'cloud-sql-proxy --min-sigterm-delay');
  t.is(row?.patched.value, 25);
  // sidecarMode classic asks for the same where native sidecars exist.
  const classic = await runCliAsync(['--sidecar-mode', 'classic'], input);
  t.deepEqual(podSpec(classic.stdout).containers.find((c) => c.name === 'cloud-sql-proxy')?.args, [
    '--min-sigterm-delay=25s',
  ]);
});

test('a --min-sigterm-delay shorter than T is kept and said; a v1 -term_timeout alone is a risk, not a ✓', async (t) => {
  const args = ['--kube-version', '1.28', '--app-image-has-shell', 'true'];
  const v2 = withImage('gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.14.1');
  const short = edit(
    v2,
    '            - "-log_debug_stdout"\n',
    '            - "-log_debug_stdout"\n            - "--min-sigterm-delay=10s"\n',
  );
  const out = await runCliAsync(args, short);
  t.regex(out.stderr, /APP_SIDECAR_STOPS_FIRST .*accepts new connections for 10 s/);
  t.is(podSpec(out.stdout).containers.length, podSpec(short).containers.length);
  t.deepEqual(proxyOf(out.stdout), proxyOf(short), 'kept as written');
  const e = await explained(short, args);
  t.deepEqual(proxyWindows(e, 'patched'), ['fail proxy-gone 10-25']);
  const waits = edit(
    CHART,
    '            - "-log_debug_stdout"\n',
    '            - "-log_debug_stdout"\n            - "-term_timeout=60s"\n',
  );
  const w = await explained(waits, ['--kube-version', '1.28']);
  t.deepEqual(proxyWindows(w, 'asWritten'), ['risk early-exit 0-20']);
  t.is(w.timelines.asWritten.verdict.outcome, 'fail', 'the app itself has no preStop');
});

test('v1, or v2 before 2.12.0, without native sidecars: nothing changed for the proxy, a warning; explain ✗', async (t) => {
  for (const image of [V1_IMAGE, 'gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.11.4']) {
    const input = image === V1_IMAGE ? CHART : withImage(image);
    const args = ['--kube-version', '1.28'];
    const out = await runCliAsync(args, input);
    t.is(out.status, 0, out.stderr);
    t.deepEqual(podSpec(out.stdout), podSpec(input), image);
    t.regex(out.stderr, /APP_SIDECAR_STOPS_FIRST .*cloud-sql-proxy .*Nothing changed/, image);
    const check = await runCliAsync(['check', '--fail-on', 'warning', ...args], out.stdout);
    t.is(check.status, 1, image);
    const e = await explained(input, args);
    t.is(e.timelines.patched.verdict.outcome, 'fail', image);
    t.deepEqual(proxyWindows(e, 'patched'), ['fail proxy-gone 0-20'], image);
  }
});

test('a proxy under a shell cannot be given the flag; an init container of its name keeps it from moving: each said', async (t) => {
  const shell = edit(
    withImage('gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.14.1'),
    '            - "/cloud_sql_proxy"\n',
    '            - "/bin/sh"\n            - "-c"\n            - "exec /cloud-sql-proxy"\n',
  );
  const out = await runCliAsync(['--kube-version', '1.28'], shell);
  t.regex(out.stderr, /APP_SIDECAR_STOPS_FIRST .*runs under a shell/);
  t.deepEqual(proxyOf(out.stdout), proxyOf(shell));
  const taken = edit(
    CHART,
    '      serviceAccountName: chainloop-controlplane\n',
    '      serviceAccountName: chainloop-controlplane\n' +
      '      initContainers:\n        - name: cloud-sql-proxy\n          image: busybox\n',
  );
  const moved = await runCliAsync([], taken);
  t.regex(moved.stderr, /APP_SIDECAR_NAME_TAKEN/);
  t.is(
    podSpec(moved.stdout).containers.filter((c) => c.name === 'cloud-sql-proxy').length,
    1,
    'the proxy stays where it was',
  );
});
