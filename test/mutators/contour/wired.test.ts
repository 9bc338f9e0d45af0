// contour-drain as users run it, on Contour's own render v1.33.6
// (test/fixtures/gateways/contour/README.md): `check` fails on the input and passes on the output,
// the output is a fixed point, explain's patched timeline is modelled (and says "unknown" where
// Envoy's readiness is not: node targets with externalTrafficPolicy Local before Kubernetes 1.26),
// the shutdown-manager's flags are read in kingpin's forms, a user's larger delay is never lowered,
// and what cannot be modelled is left alone with a warning.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { runCliAsync } from '../../helpers/cli.ts';
import { fixturePath } from '../../helpers/fixtures.ts';
import { verdictsOf } from '../../helpers/verdicts.ts';

const read = (file: string) => readFileSync(fixturePath('gateways', 'contour', file), 'utf8');
const SHUTDOWN = '                - shutdown\n';

/** The contour-drain verdicts explain gives `input`. */
const envoyVerdicts = (input: string, args: readonly string[] = []) =>
  verdictsOf('contour-drain', input, args);

const RENDERS = [
  // AWS's default 300 s deregistration delay outlives the pod: a modelled risk, no failure.
  { file: 'render-1.33.6-nlb-ip.yaml', patched: 'risk', W: 180, flag: 'check-delay' },
  // The envoy Service shows only aws-load-balancer-backend-protocol: an in-tree Classic ELB with
  // the nodes as targets and externalTrafficPolicy Local, W = 5 + 10 × 6 s. The node forwards to
  // Envoy only while it is ready, so the drain delay (before /healthcheck/fail) covers W.
  { file: 'render-1.33.6.yaml', patched: 'ok', W: 65, flag: 'drain-delay' },
  // Bitnami's chart (Contour 1.32.1), the shutdown-manager's port given as --serve-port=8090.
  { file: 'bitnami-chart-21.1.4-nlb-ip.yaml', patched: 'risk', W: 180, flag: 'check-delay' },
] as const;

for (const { file, patched, W, flag } of RENDERS) {
  test(`${file}: check fails as written, passes patched; idempotent; explain agrees`, async (t) => {
    const input = read(file);
    t.is((await runCliAsync(['check'], input)).status, 1);
    const out = await runCliAsync([], input);
    t.is(out.status, 0, out.stderr);
    t.regex(out.stdout, new RegExp(`- shutdown\\n +- --${flag}=${W}s\\n`));
    t.is((await runCliAsync(['check'], out.stdout)).status, 0);
    t.is((await runCliAsync([], out.stdout)).stdout, out.stdout);
    const verdicts = await envoyVerdicts(input);
    t.is(verdicts.patched, patched);
    t.not(verdicts.asWritten, 'ok');
    // Envoy's hook is modelled: app-graceful puts no sleep in front of it.
    const daemonSet = out.stdout.split('kind: DaemonSet')[1]!.split('\n---')[0]!;
    t.false(daemonSet.includes('sleep:'));
  });
}

test('a --check-delay written as "--check-delay 30s" is raised in place', async (t) => {
  const input = read('render-1.33.6-nlb-ip.yaml').replace(
    SHUTDOWN,
    `${SHUTDOWN}                - --check-delay\n                - 30s\n`,
  );
  const out = await runCliAsync([], input);
  t.true(out.stdout.includes('                - --check-delay\n                - 180s\n'));
});

test('drain-delay + check-delay already over W is kept, never lowered', async (t) => {
  const input = read('render-1.33.6-nlb-ip.yaml').replace(
    SHUTDOWN,
    `${SHUTDOWN}                - --drain-delay=1m\n                - --check-delay=3m\n`,
  );
  const out = await runCliAsync([], input);
  t.true(out.stdout.includes('- --check-delay=3m\n'));
  t.false(out.stdout.includes('--check-delay=180s'));
  t.true((await runCliAsync(['explain'], input)).stdout.includes('info CONTOUR_DELAY_KEPT'));
});

test('a delay kingpin cannot parse is left as written, with a warning', async (t) => {
  const input = read('render-1.33.6-nlb-ip.yaml').replace(
    SHUTDOWN,
    `${SHUTDOWN}                - --check-delay=180\n`,
  );
  const out = await runCliAsync(['check', '--fail-on', 'warning'], input);
  t.is(out.status, 1);
  t.true(out.stdout.includes('CONTOUR_FLAG_UNREADABLE'), out.stdout);
  const patched = await runCliAsync([], input);
  t.false(patched.stdout.includes('--check-delay=180s'));
});

test('an image that names no release gets no flag and a warning', async (t) => {
  const input = read('render-1.33.6-nlb-ip.yaml').replaceAll(
    'ghcr.io/projectcontour/contour:v1.33.6',
    'ghcr.io/projectcontour/contour:main',
  );
  const out = await runCliAsync(['check', '--fail-on', 'warning'], input);
  t.true(out.stdout.includes('CONTOUR_VERSION_UNKNOWN'), out.stdout);
  t.false((await runCliAsync([], input)).stdout.includes('--check-delay'));
});

test('with contour-mode off no --check-delay is written (nothing touches the pod: test/engine/claims.test.ts)', async (t) => {
  const out = await runCliAsync(['--contour-mode', 'off'], read('render-1.33.6-nlb-ip.yaml'));
  t.false(out.stdout.includes('--check-delay'));
});

// Before Kubernetes 1.26 kube-proxy forwards nothing to a terminating pod (KEP-1669): with
// externalTrafficPolicy Local no setting of the pod keeps the load balancer's connections, so the
// check delay grows as elsewhere and explain says the patched pod still drops them.
test('Contour render on Kubernetes 1.25: the node forwards nothing to a terminating pod, a failure even patched', async (t) => {
  const input = read('render-1.33.6.yaml');
  const out = await runCliAsync(['--kube-version', '1.25'], input);
  t.is(out.status, 0, out.stderr);
  t.true(out.stdout.includes('- --check-delay=65s\n'));
  t.false(out.stdout.includes('--drain-delay'));
  const verdicts = await envoyVerdicts(input, ['--kube-version', '1.25']);
  t.is(verdicts.patched, 'fail');
  const text = (await runCliAsync(['explain', '--kube-version', '1.25'], input)).stdout;
  t.regex(text, /before Kubernetes 1\.26 a node forwards nothing to a terminating pod/);
});

// The usual advice, --check-delay over W, is not enough behind node targets with Local: Envoy's
// /ready fails from /healthcheck/fail on (after the drain delay), and once its probe (every 4 s,
// 3 failures) has marked it unready the node drops what the load balancer still sends.
test('Contour render with --check-delay=65s: unready by t=12, dropped until W; patched, the drain delay holds it', async (t) => {
  const input = read('render-1.33.6.yaml').replace(
    SHUTDOWN,
    `${SHUTDOWN}                - --check-delay=65s\n`,
  );
  const out = await runCliAsync([], input);
  t.true(out.stdout.includes('- --check-delay=65s\n                - --drain-delay=65s\n'));
  const text = (await runCliAsync(['explain'], input)).stdout;
  t.regex(text, /✗ {2}12–65 s {2}new connections still arrive .* at the node, but Envoy is/);
  t.regex(text, /Envoy is unready by t=12 /);
  t.regex(text, /by t=12 \(\/healthcheck\/fail after --drain-delay 0 s, then its readiness probe,/);
  t.regex(text, /readinessProbe periodSeconds 4 × failureThreshold 3 \(Kubernetes default\)\)/);
  t.deepEqual(await envoyVerdicts(input), { asWritten: 'fail', patched: 'ok' });
});
