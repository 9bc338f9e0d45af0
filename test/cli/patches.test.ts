/**
 * `kube-graceful patches` (issue #17): the changes as the kustomize patches a Flux HelmRelease
 * applies after rendering. Applied with the real `kubectl kustomize` (kustomize v5.5.0, the engine
 * Flux's helm-controller uses) to the same render, they give a stream on which
 * `kube-graceful check` finds nothing left to change, on every corpus chart and in every mode that
 * edits something.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { runInProcess } from '../explain/run.ts';
import { corpus, corpusNames, ROOT } from '../helpers/fixtures.ts';
import { kustomize } from '../helpers/kustomize.ts';

/**
 * `kube-graceful ARGS < input`, in this process (the real program; no process per call on a loaded
 * machine).
 */
async function cli(
  args: readonly string[],
  input: string,
): Promise<{ stdout: string; stderr: string; status: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'kg-in-'));
  const file = join(dir, 'input.yaml');
  writeFileSync(file, input);
  const run = await runInProcess([...args.slice(0, 1), file, ...args.slice(1)]);
  return { stdout: run.stdout, stderr: run.stderr.join('\n'), status: run.exitCode };
}

/** The corpus namespaces, all injected: app and Job mutators act on every workload. */
const INJECTED = [
  '--istio-injected-namespaces',
  'monitoring,argocd,istio-system,istio-ingress,ingress-nginx,kube-system,argo,default',
];
const MODES: ReadonlyArray<{ name: string; flags: readonly string[] }> = [
  { name: 'defaults', flags: [] },
  {
    name: 'injected, classic sidecars',
    flags: [...INJECTED, '--sidecar-mode', 'classic', '--kube-version', '1.28'],
  },
  {
    name: 'injected, native sidecars',
    flags: [...INJECTED, '--sidecar-mode', 'native', '--kube-version', '1.33'],
  },
  { name: 'gateway sleep mode', flags: ['--gateway-mode', 'sleep'] },
];

for (const name of corpusNames()) {
  test(`${name}: kubectl kustomize with the patches leaves nothing for check to change`, async (t) => {
    const render = corpus(name);
    let patched = 0;
    for (const mode of MODES) {
      const patches = await cli(['patches', ...mode.flags], render);
      t.is(patches.status, 0, `${mode.name}: ${patches.stderr}`);
      const entries = parse(patches.stdout) as unknown[];
      const pending = await cli(['check', ...mode.flags], render);
      t.is(
        entries.length > 0,
        pending.status === 1,
        `${mode.name}: patches exactly when check finds changes`,
      );
      if (entries.length === 0) continue;
      patched += 1;
      const built = kustomize(render, patches.stdout);
      t.is(built.status, 0, `${mode.name}: kubectl kustomize: ${built.stderr}`);
      const check = await cli(['check', ...mode.flags], built.stdout);
      t.is(
        check.status,
        0,
        `${mode.name}: check after the patches:\n${check.stdout}${check.stderr}`,
      );
      t.is(
        (await cli(['patches', ...mode.flags], render)).stdout,
        patches.stdout,
        `${mode.name}: the same patches every run`,
      );
      t.is(
        (await cli(['patches', ...mode.flags], built.stdout)).stdout.replace(/^#.*\n/, ''),
        '[]\n',
        `${mode.name}: nothing to patch on the patched render`,
      );
    }
    if (patched === 0) t.pass(`${name}: no mode changes anything here (check agreed)`);
  });
}

test('a strategic-merge patch replaces a preStop handler whole: no hook with two handlers', async (t) => {
  const render = corpus('argo-cd.yaml').replace(
    /(\n {6}containers:\n {6}- )/,
    '$1lifecycle:\n' +
      '          preStop:\n' +
      '            exec:\n' +
      '              command: [/bin/sh, -c, "sleep 2"]\n' +
      '        ',
  );
  t.true(render.includes('command: [/bin/sh, -c, "sleep 2"]'), 'fixture holds an exec preStop');
  const patches = await cli(['patches'], render);
  t.is(patches.status, 0, patches.stderr);
  const built = kustomize(render, patches.stdout);
  t.is(built.status, 0, built.stderr);
  t.is((await cli(['check'], built.stdout)).status, 0);
  for (const object of built.stdout.split(/^---$/m).map(
    (d) =>
      parse(d) as {
        spec?: {
          template?: { spec?: { containers?: Array<{ lifecycle?: { preStop?: object } }> } };
        };
      },
  )) {
    for (const container of object?.spec?.template?.spec?.containers ?? []) {
      const handlers = Object.keys(container.lifecycle?.preStop ?? {});
      t.true(handlers.length <= 1, `one handler per hook: ${handlers.join(', ')}`);
    }
  }
});

test('a custom kind (an Argo Rollout, config extraKinds) gets a JSON 6902 patch guarded by tests on list keys', async (t) => {
  const deployment = corpus('istio-sample-kube-bookinfo.yaml')
    .split(/^---\n/m)
    .find((d) => /^kind: Deployment$/m.test(d) && d.includes('name: productpage-v1'))!;
  const rollout = deployment
    .replace('apiVersion: apps/v1', 'apiVersion: argoproj.io/v1alpha1')
    .replace('kind: Deployment', 'kind: Rollout');
  const config = join(mkdtempSync(join(tmpdir(), 'kg-rollout-')), 'config.yaml');
  writeFileSync(
    config,
    'apiVersion: kube-graceful.dev/v1alpha1\n' +
      'kind: GracefulShutdown\n' +
      'spec:\n' +
      '  mesh: {istioInjectedNamespaces: [default]}\n' +
      '  sidecarMode: classic\n' +
      '  kubernetesVersion: "1.31"\n' +
      '  extraKinds: [{group: argoproj.io, kind: Rollout, podTemplatePath: spec.template}]\n',
  );
  const input = rollout.includes('namespace:')
    ? rollout
    : rollout.replace(/^metadata:\n/m, 'metadata:\n  namespace: default\n');
  const patches = await cli(['patches', '--config', config], input);
  t.is(patches.status, 0, patches.stderr);
  const [entry] = parse(patches.stdout) as Array<{
    target: Record<string, string>;
    patch: string;
  }>;
  t.deepEqual(entry!.target, {
    group: 'argoproj.io',
    version: 'v1alpha1',
    kind: 'Rollout',
    name: 'productpage-v1',
    namespace: 'default',
  });
  const operations = parse(entry!.patch) as Array<{ op: string; path: string; value?: unknown }>;
  t.true(
    operations.some(
      (o) =>
        o.op === 'test' &&
        o.path === '/spec/template/spec/containers/0/name' &&
        o.value === 'productpage',
    ),
    entry!.patch,
  );
  const built = kustomize(input, patches.stdout);
  t.is(built.status, 0, built.stderr);
  t.is((await cli(['check', '--config', config], built.stdout)).status, 0);
  // The guard works: a render whose container moved fails to build instead of patching another.
  const moved = input.replace(
    /\n {6}containers:\n/,
    '\n      containers:\n      - name: extra\n        image: busybox\n',
  );
  t.not(kustomize(moved, patches.stdout).status, 0, 'a moved container fails the test operation');
});

test('error findings: exit 1, nothing on stdout', async (t) => {
  const render = corpus('istio-gateway-1.30.3-nlb.yaml');
  const deployment = render.indexOf('kind: Deployment');
  const bad =
    render.slice(0, deployment) +
    render
      .slice(deployment)
      .replace(
        '\n  annotations:\n    {}\n',
        '\n  annotations:\n    kube-graceful.dev/drain-window: "-5"\n',
      );
  t.true(bad.includes('drain-window: "-5"'));
  const run = await cli(['patches'], bad);
  t.is(run.status, 1, run.stderr);
  t.is(run.stdout, '');
  t.regex(run.stderr, /drain-window/);
});

test('a ResourceList: a custom kind from the functionConfig extraKinds gets its patch too', async (t) => {
  // bookinfo's productpage-v1 as an Argo Rollout, with a GracefulShutdown functionConfig naming the
  // kind.
  const list = readFileSync(
    join(ROOT, 'test', 'fixtures', 'krm', 'rollout-resourcelist.yaml'),
    'utf8',
  );
  const patches = await cli(['patches'], list);
  t.is(patches.status, 0, patches.stderr);
  const entries = parse(patches.stdout) as Array<{ target: Record<string, string> }>;
  t.deepEqual(
    entries.map((e) => e.target),
    [
      {
        group: 'argoproj.io',
        version: 'v1alpha1',
        kind: 'Rollout',
        name: 'productpage-v1',
        namespace: 'default',
      },
    ],
  );
});
