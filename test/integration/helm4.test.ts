/**
 * Helm 4.1 (the real binary, .cache/tools/helm4) with kube-graceful as a post-renderer plugin
 * (renderer/plugin.yaml): installed with `helm plugin install`, found through HELM_PLUGINS, and
 * from the npm package; hooks are post-rendered; Helm's filename annotation survives us; stderr is
 * hidden, so errors reach the user through --log-file / KUBE_GRACEFUL_LOG_FILE; `helm install
 * --dry-run` (client: no API server at all) and `--dry-run=server` (a loopback stand-in).
 */
import test from 'ava';
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApiServer, kubeconfigFor } from '../helpers/apiServer.ts';
import {
  assertGatewayPatched,
  assertJobNative,
  cliPath,
  DEMO_CHART,
  demoChartWithErrorFinding,
  doc,
  HELM4_FILENAME,
  ROOT,
  run,
  runCliAsync,
  runOk,
  splitDocs,
  tempDir,
  withoutHelmFilename,
} from '../helpers/integration.ts';
import { helm4Path, helmEnv } from '../helpers/tools.ts';

const helm = helm4Path();
const home = tempDir('helm4');
const env = helmEnv(home);
const template = ['template', 'demo', DEMO_CHART];
const recorded = join(home, 'recorded-stdin.yaml');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
};

/** A Helm 4 post-renderer plugin folder running `command args…` (test doubles next to ours). */
function helperPlugin(name: string, command: string, args: string[]): string {
  const dir = join(home, 'helper-plugins', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'plugin.yaml'),
    [
      'apiVersion: v1',
      'type: postrenderer/v1',
      `name: ${name}`,
      'version: 0.0.1',
      'runtime: subprocess',
      'runtimeConfig:',
      '  platformCommand:',
      `    - command: ${command}`,
      `      args: ${JSON.stringify(args)}`,
      '',
    ].join('\n'),
  );
  return dir;
}

test.before(async () => {
  // Ours exactly as a user installs it, plus three doubles: `cat` (Helm 4 reformats every document
  // it post-renders, so `cat` is the baseline), one recording what Helm sends, one dropping Helm's
  // annotation.
  const plugins = [
    join(ROOT, 'renderer'),
    helperPlugin('passthrough', 'cat', []),
    helperPlugin('record', 'tee', [recorded]),
    helperPlugin('strip', 'sed', [`/${HELM4_FILENAME.replace(/[./]/g, '.')}/d`]),
  ];
  for (const plugin of plugins) {
    const result = await run(helm, ['plugin', 'install', plugin], { env });
    if (result.status !== 0) throw new Error(`helm plugin install ${plugin}: ${result.stderr}`);
  }
});

test('helm 4 plugin install renderer/ lists kube-graceful as a postrenderer/v1 plugin (a symlink to the folder)', async (t) => {
  const list = await runOk(t, helm, ['plugin', 'list'], { env });
  t.regex(
    list,
    new RegExp(`^kube-graceful\\s+${version.replace(/\./g, '\\.')}\\s+postrenderer/v1\\s`, 'm'),
  );
  // `helm plugin install <dir>` links the folder under its own basename; HELM_PLUGIN_DIR is that
  // link.
  t.true(readdirSync(join(env['HELM_DATA_HOME']!, 'plugins')).includes('renderer'));
});

test('helm 4 template --post-renderer kube-graceful patches the gateway AND the hook Job; everything else byte-identical', async (t) => {
  const [baseline, after, plain] = await Promise.all([
    runOk(t, helm, [...template, '--post-renderer', 'passthrough'], { env }),
    runOk(t, helm, [...template, '--post-renderer', 'kube-graceful'], { env }),
    runOk(t, helm, template, { env }),
  ]);
  const b = splitDocs(baseline);
  const a = splitDocs(after);
  t.deepEqual(
    a.map((d) => `${d.kind}/${d.name}`),
    b.map((d) => `${d.kind}/${d.name}`),
  );
  assertGatewayPatched(t, doc(t, a, 'Deployment', 'demo-gateway').object, 'helm 4 plugin');
  assertJobNative(t, doc(t, a, 'Job', 'demo-migrate').object, 'helm 4 plugin, hook Job');
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

  // Helm regrouped the documents by the annotation we kept (and stripped it afterwards).
  for (const file of ['configmap', 'service', 'deployment', 'job-migrate'])
    t.true(after.includes(`# Source: graceful-demo/templates/${file}.yaml\n`), file);
  t.false(after.includes(HELM4_FILENAME), 'Helm strips its annotation from the output');

  // Exactly what kube-graceful produces from the same chart directly.
  const direct = splitDocs((await runCliAsync([], plain)).stdout);
  for (const [kind, name] of [
    ['Deployment', 'demo-gateway'],
    ['Job', 'demo-migrate'],
  ] as const) {
    t.deepEqual(
      doc(t, a, kind, name).object,
      doc(t, direct, kind, name).object,
      `${kind} ${name} = kube-graceful run directly`,
    );
  }
});

test('helm 4 sends each document with postrenderer.helm.sh/postrender-filename; we keep it (dropping it loses the file names)', async (t) => {
  await runOk(t, helm, [...template, '--post-renderer', 'record'], { env });
  const sent = readFileSync(recorded, 'utf8');
  t.false(sent.includes('# Source:'), 'no # Source comments on stdin');
  const sentDocs = splitDocs(sent);
  t.is(sentDocs.length, 4);
  const ours = await runCliAsync([], sent);
  t.is(ours.status, 0, ours.stderr);
  const outDocs = splitDocs(ours.stdout);
  for (const d of sentDocs) {
    const filename = d.object.metadata?.annotations?.[HELM4_FILENAME];
    t.truthy(filename, `${d.kind} ${d.name} carries the annotation`);
    t.is(
      doc(t, outDocs, d.kind, d.name).object.metadata?.annotations?.[HELM4_FILENAME],
      filename,
      `${d.kind} ${d.name} keeps it`,
    );
  }
  const stripped = await runOk(t, helm, [...template, '--post-renderer', 'strip'], { env });
  t.regex(
    stripped,
    /# Source: generated-by-postrender-\d+\.yaml/,
    'without it Helm names the files generated-by-postrender-N.yaml',
  );
});

test('helm 4 finds the plugin through HELM_PLUGINS (a folder of plugin folders, or the package root) and from the npm package', async (t) => {
  const folder = join(home, 'plugins-folder');
  mkdirSync(folder, { recursive: true });
  symlinkSync(join(ROOT, 'renderer'), join(folder, 'kube-graceful'));

  // The npm package, as `npm install kube-graceful` unpacks it.
  const pack = tempDir('npm-pack');
  const packed = await runOk(
    t,
    'npm',
    ['pack', '--json', '--pack-destination', pack, '--ignore-scripts', '--loglevel=error'],
    { cwd: ROOT },
  );
  const tarball = join(pack, (JSON.parse(packed) as Array<{ filename: string }>)[0]!.filename);
  await runOk(t, 'tar', ['-xzf', tarball, '-C', pack]);
  const packageRoot = join(pack, 'package');
  const npmHome = tempDir('helm4-npm');
  const npmEnv = helmEnv(npmHome);
  await runOk(t, helm, ['plugin', 'install', join(packageRoot, 'renderer')], { env: npmEnv });

  const [viaFolder, viaPackageRoot, viaNpmInstall] = await Promise.all([
    runOk(t, helm, [...template, '--post-renderer', 'kube-graceful'], {
      env: helmEnv(home, { plugins: folder }),
    }),
    runOk(t, helm, [...template, '--post-renderer', 'kube-graceful'], {
      env: helmEnv(home, { plugins: packageRoot }),
    }),
    runOk(t, helm, [...template, '--post-renderer', 'kube-graceful'], { env: npmEnv }),
  ]);
  for (const [how, out] of [
    ['HELM_PLUGINS=<folder>', viaFolder],
    ['HELM_PLUGINS=<package root>', viaPackageRoot],
    ['helm plugin install <package>/renderer', viaNpmInstall],
  ] as const) {
    const docs = splitDocs(out);
    assertGatewayPatched(t, doc(t, docs, 'Deployment', 'demo-gateway').object, how);
    assertJobNative(t, doc(t, docs, 'Job', 'demo-migrate').object, how);
  }
  t.is(viaPackageRoot, viaFolder);
  t.is(viaNpmInstall, viaFolder);
});

test('our exit 2 fails helm 4, which never shows our stderr: the message is in the log file (env var or --log-file)', async (t) => {
  const logs = tempDir('helm4-logs');
  const envLog = join(logs, 'env.log');
  const argLog = join(logs, 'arg.log');
  const usageLog = join(logs, 'usage.log');
  const [viaEnv, viaArg, usage, asPath] = await Promise.all([
    run(
      helm,
      [
        ...template,
        '--post-renderer',
        'kube-graceful',
        '--post-renderer-args',
        '--drain-window',
        '--post-renderer-args',
        'soon',
      ],
      { env: { ...env, KUBE_GRACEFUL_LOG_FILE: envLog } },
    ),
    run(
      helm,
      [
        ...template,
        '--post-renderer',
        'kube-graceful',
        '--post-renderer-args',
        `--log-file=${argLog}`,
        '--post-renderer-args',
        '--drain-window',
        '--post-renderer-args',
        'soon',
      ],
      { env },
    ),
    run(
      helm,
      [
        ...template,
        '--post-renderer',
        'kube-graceful',
        '--post-renderer-args',
        `--log-file=${usageLog}`,
        '--post-renderer-args',
        '--drain-windwo=60',
      ],
      { env },
    ),
    run(helm, [...template, '--post-renderer', cliPath()], { env }),
  ]);
  for (const [how, result] of [
    ['env', viaEnv],
    ['--log-file', viaArg],
    ['usage error', usage],
  ] as const) {
    t.not(result.status, 0, how);
    t.is(result.stdout, '', how);
    t.regex(
      result.stderr,
      new RegExp(
        String.raw`failed to invoke post-renderer plugin "kube-graceful": ` +
          String.raw`plugin "kube-graceful" exited with error`,
      ),
      how,
    );
    t.false(result.stderr.includes('drain-wind'), `${how}: Helm 4 shows none of our stderr`);
  }
  t.regex(readFileSync(envLog, 'utf8'), /drain-window: got "soon"; expected whole seconds/);
  t.regex(readFileSync(argLog, 'utf8'), /drain-window: got "soon"; expected whole seconds/);
  t.regex(readFileSync(usageLog, 'utf8'), /unknown option '--drain-windwo=60'/);
  // Helm 4 takes plugin names only.
  t.not(asPath.status, 0);
  t.regex(asPath.stderr, /not found/);
});

test('an error finding fails helm 4; the finding is in the log file', async (t) => {
  const chart = demoChartWithErrorFinding(tempDir('helm4-chart'));
  const log = join(tempDir('helm4-finding'), 'kg.log');
  const result = await run(helm, ['template', 'demo', chart, '--post-renderer', 'kube-graceful'], {
    env: { ...env, KUBE_GRACEFUL_LOG_FILE: log },
  });
  t.not(result.status, 0);
  t.regex(result.stderr, /plugin "kube-graceful" exited with error/);
  t.regex(readFileSync(log, 'utf8'), /error: BAD_ANNOTATION Deployment demo-gateway/);
});

test('helm 4 install --dry-run through the plugin needs no API server; hooks are post-rendered', async (t) => {
  // A kubeconfig pointing at a closed port: Helm 4's client dry run must not call it.
  const dir = tempDir('helm4-noserver');
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigFor('http://127.0.0.1:9'));
  const stdout = await runOk(
    t,
    helm,
    ['install', 'demo', DEMO_CHART, '--dry-run', '--post-renderer', 'kube-graceful'],
    { env: { ...env, KUBECONFIG: kubeconfig } },
  );
  assertInstallOutput(t, stdout, 'helm 4 install --dry-run');
});

test('helm 4 install --dry-run=server through the plugin, against a stand-in API server', async (t) => {
  const server = await startApiServer(tempDir('helm4-server'));
  try {
    const stdout = await runOk(
      t,
      helm,
      ['install', 'demo', DEMO_CHART, '--dry-run=server', '--post-renderer', 'kube-graceful'],
      { env: { ...env, KUBECONFIG: server.kubeconfig } },
    );
    for (const call of [
      'GET /version',
      'GET /api',
      'GET /apis',
      'GET /apis/apps/v1',
      'GET /openapi/v2',
      'GET /apis/apps/v1/namespaces/default/deployments/demo-gateway',
    ]) {
      t.true(server.requests.includes(call), `${call} in ${server.requests.join(', ')}`);
    }
    assertInstallOutput(t, stdout, 'helm 4 install --dry-run=server');
  } finally {
    await server.close();
  }
});

/** `helm install --dry-run` prints HOOKS: then MANIFEST:; both must carry our changes. */
function assertInstallOutput(
  t: Parameters<typeof assertGatewayPatched>[0],
  stdout: string,
  where: string,
): void {
  t.regex(stdout, /STATUS: pending-install/, where);
  const hooks = stdout.indexOf('\nHOOKS:\n');
  const manifest = stdout.indexOf('\nMANIFEST:\n');
  t.true(
    hooks >= 0 && manifest > hooks,
    `${where}: HOOKS then MANIFEST in:\n${stdout.slice(0, 600)}`,
  );
  assertJobNative(
    t,
    withoutHelmFilename(
      doc(t, splitDocs(stdout.slice(hooks, manifest)), 'Job', 'demo-migrate').object,
    ),
    `${where} hook`,
  );
  assertGatewayPatched(
    t,
    doc(t, splitDocs(stdout.slice(manifest)), 'Deployment', 'demo-gateway').object,
    where,
  );
}
