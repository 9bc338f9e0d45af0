/**
 * Helm 3.17 (the real binary, .cache/tools/helm3) with kube-graceful as `--post-renderer`:
 * a path and a bare name on PATH, flags through `--post-renderer-args`, the hook limitation
 * (helm/helm#7891), our exit 2 failing Helm with our message, `--output-dir`, and
 * `helm install --dry-run` against a loopback stand-in API server.
 */
import test from 'ava';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { startApiServer } from '../helpers/apiServer.ts';
import {
  assertGatewayPatched,
  assertGatewayUntouched,
  assertJobNative,
  assertJobUntouched,
  binDirWithKubeGraceful,
  cliPath,
  DEMO_CHART,
  demoChartWithErrorFinding,
  doc,
  ROOT,
  run,
  runCliAsync,
  runOk,
  splitDocs,
  tempDir,
  withPath,
} from '../helpers/integration.ts';
import { helm3Path, helmEnv } from '../helpers/tools.ts';

const helm = helm3Path();
const home = tempDir('helm3');
const env = helmEnv(home);
const bin = binDirWithKubeGraceful(home);
const template = ['template', 'demo', DEMO_CHART];

test('helm 3 template --post-renderer PATH patches the gateway; ConfigMap and Service byte-identical; the hook Job is never post-rendered', async (t) => {
  const [before, after] = await Promise.all([
    runOk(t, helm, template, { env }),
    runOk(t, helm, [...template, '--post-renderer', cliPath()], { env }),
  ]);
  const b = splitDocs(before);
  const a = splitDocs(after);
  t.deepEqual(
    a.map((d) => `${d.kind}/${d.name}`),
    b.map((d) => `${d.kind}/${d.name}`),
    'same documents, same order',
  );

  assertGatewayUntouched(t, doc(t, b, 'Deployment', 'demo-gateway').object, 'plain render');
  assertGatewayPatched(t, doc(t, a, 'Deployment', 'demo-gateway').object, 'helm 3 post-rendered');
  t.is(
    doc(t, a, 'ConfigMap', 'demo-settings').text,
    doc(t, b, 'ConfigMap', 'demo-settings').text,
    'ConfigMap byte-identical',
  );
  t.is(
    doc(t, a, 'Service', 'demo-gateway').text,
    doc(t, b, 'Service', 'demo-gateway').text,
    'Service byte-identical',
  );
  t.true(
    after.includes('# Source: graceful-demo/templates/deployment.yaml'),
    'Helm 3 keeps its # Source comments through the post-renderer',
  );

  // The documented limitation (README "Helm 3", helm/helm#7891): the hook Job reaches the
  // cluster unchanged, although kube-graceful would change it when given the Job.
  const job = doc(t, a, 'Job', 'demo-migrate');
  t.is(
    job.text,
    doc(t, b, 'Job', 'demo-migrate').text,
    'hook Job byte-identical: Helm 3 never sends hooks to the post-renderer',
  );
  assertJobUntouched(t, job.object, 'helm 3 hook Job');
  const direct = await runCliAsync([], before);
  t.is(direct.status, 0, direct.stderr);
  assertJobNative(
    t,
    doc(t, splitDocs(direct.stdout), 'Job', 'demo-migrate').object,
    'the same Job piped through kube-graceful (the workaround)',
  );

  // What Helm sent us is exactly what we would produce from the non-hook documents.
  t.deepEqual(
    doc(t, a, 'Deployment', 'demo-gateway').object,
    doc(t, splitDocs(direct.stdout), 'Deployment', 'demo-gateway').object,
    'same as kube-graceful run directly',
  );
});

test('helm 3 --post-renderer kube-graceful finds the bare name on PATH; flags arrive through --post-renderer-args', async (t) => {
  const onPath = withPath(env, bin);
  const [byPath, byName, withArgs, direct] = await Promise.all([
    runOk(t, helm, [...template, '--post-renderer', cliPath()], { env }),
    runOk(t, helm, [...template, '--post-renderer', 'kube-graceful'], { env: onPath }),
    runOk(
      t,
      helm,
      [
        ...template,
        '--post-renderer',
        'kube-graceful',
        '--post-renderer-args',
        '--drain-window',
        '--post-renderer-args',
        '60',
      ],
      { env: onPath },
    ),
    runOk(t, helm, template, { env }).then((text) => runCliAsync(['--drain-window', '60'], text)),
  ]);
  t.is(byName, byPath, 'bare name on PATH = path');
  const gateway = doc(t, splitDocs(withArgs), 'Deployment', 'demo-gateway').object;
  assertGatewayPatched(t, gateway, 'with --drain-window 60');
  t.notDeepEqual(
    gateway,
    doc(t, splitDocs(byPath), 'Deployment', 'demo-gateway').object,
    '--drain-window 60 changes the numbers (the NLB default is longer)',
  );
  t.deepEqual(
    gateway,
    doc(t, splitDocs(direct.stdout), 'Deployment', 'demo-gateway').object,
    'same as kube-graceful --drain-window 60 run directly',
  );
});

test('our exit 2 (bad --post-renderer-args) fails helm 3 and helm shows our message', async (t) => {
  const result = await run(
    helm,
    [
      ...template,
      '--post-renderer',
      cliPath(),
      '--post-renderer-args',
      '--drain-window',
      '--post-renderer-args',
      'soon',
    ],
    { env },
  );
  t.not(result.status, 0);
  t.is(result.stdout, '', 'nothing rendered');
  t.regex(result.stderr, /error while running post render on files/);
  t.regex(
    result.stderr,
    /drain-window: got "soon"; expected whole seconds/,
    'our message, through Helm',
  );
});

test('an error finding (exit 1, nothing on stdout) fails helm 3 with the finding', async (t) => {
  const chart = demoChartWithErrorFinding(tempDir('helm3-chart'));
  const result = await run(helm, ['template', 'demo', chart, '--post-renderer', cliPath()], {
    env,
  });
  t.not(result.status, 0);
  t.is(result.stdout, '');
  t.regex(
    result.stderr,
    /error: BAD_ANNOTATION Deployment demo-gateway .*drain-window/,
    'the finding, named by resource',
  );
  t.regex(result.stderr, /no output written/);
});

test('helm 3 --output-dir sends the post-renderer nothing: we answer nothing, exit 0, and the files are NOT post-rendered', async (t) => {
  const out = join(tempDir('helm3-outdir'), 'out');
  await runOk(t, helm, [...template, '--post-renderer', cliPath(), '--output-dir', out], { env });
  const written = readFileSync(join(out, 'graceful-demo/templates/deployment.yaml'), 'utf8');
  assertGatewayUntouched(
    t,
    doc(t, splitDocs(written), 'Deployment', 'demo-gateway').object,
    'helm 3 --output-dir',
  );
});

test('helm 3 tolerates our Helm 4 plugin in the same HELM_DATA_HOME (a warning on every command)', async (t) => {
  const shared = tempDir('helm3-shared');
  const sharedEnv = helmEnv(shared);
  await runOk(t, helm, [...template], { env: sharedEnv });
  mkdirSync(join(sharedEnv['HELM_DATA_HOME']!, 'plugins'), { recursive: true });
  symlinkSync(
    join(ROOT, 'renderer'),
    join(sharedEnv['HELM_DATA_HOME']!, 'plugins', 'kube-graceful'),
  );
  const result = await run(helm, [...template, '--post-renderer', cliPath()], { env: sharedEnv });
  t.is(result.status, 0, result.stderr);
  t.regex(
    result.stderr,
    /failed to load plugins: .*kube-graceful\/plugin\.yaml.*unknown field "apiVersion"/,
  );
  assertGatewayPatched(
    t,
    doc(t, splitDocs(result.stdout), 'Deployment', 'demo-gateway').object,
    'helm 3 with the Helm 4 plugin installed',
  );
});

test('helm 3 install --dry-run --post-renderer against a stand-in API server', async (t) => {
  const server = await startApiServer(home);
  try {
    const stdout = await runOk(
      t,
      helm,
      ['install', 'demo', DEMO_CHART, '--dry-run', '--post-renderer', 'kube-graceful'],
      { env: { ...withPath(env, bin), KUBECONFIG: server.kubeconfig } },
    );
    t.true(
      server.requests.includes('GET /version'),
      `Helm talked to the stand-in: ${server.requests.join(', ')}`,
    );
    const manifest = stdout.slice(stdout.indexOf('MANIFEST:'));
    t.true(stdout.includes('MANIFEST:'), stdout.slice(0, 400));
    assertGatewayPatched(
      t,
      doc(t, splitDocs(manifest), 'Deployment', 'demo-gateway').object,
      'helm 3 install --dry-run',
    );
    const hooks = stdout.slice(stdout.indexOf('HOOKS:'), stdout.indexOf('MANIFEST:'));
    assertJobUntouched(
      t,
      doc(t, splitDocs(hooks), 'Job', 'demo-migrate').object,
      'helm 3 install --dry-run hook',
    );
  } finally {
    await server.close();
  }
});
