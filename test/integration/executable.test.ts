/**
 * The single executable (scripts/binary.mjs, `npm run binary`; issue #28), built once into a temp
 * folder and run everywhere the Node CLI runs: on every corpus render and a few command lines,
 * where it must print exactly what `node dist/cli.js` prints (stdout, stderr, exit code); as a
 * Helm 3 post-renderer; as the command of a Helm 4 post-renderer plugin; as a kustomize exec
 * function (on the ResourceList kustomize sends: no standalone kustomize here, and `kubectl
 * kustomize` skips exec functions, test/integration/kustomize.test.ts); and as a kpt `--exec`
 * function. It needs no Node: every run here has none on PATH.
 */
import test from 'ava';
import {
  cpSync,
  linkSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { corpus, corpusNames } from '../helpers/fixtures.ts';
import {
  assertGatewayPatched,
  assertJobNative,
  cliPath,
  DEMO_CHART,
  doc,
  ROOT,
  run,
  runOk,
  splitDocs,
  tempDir,
  withErrorFinding,
  type Run,
} from '../helpers/integration.ts';
import { helm3Path, helm4Path, helmEnv, requireTool } from '../helpers/tools.ts';

const home = tempDir('executable');
const executable = join(home, 'kube-graceful');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
};
const demo = readFileSync(join(ROOT, 'examples', 'manifests', 'graceful-demo.yaml'), 'utf8');
const kpt = requireTool('kpt');
const kubectl = requireTool('kubectl');
/**
 * An environment whose PATH has no node: only git, which kpt requires; the other tools the tests
 * run are found by absolute path.
 */
const noNode = { ...process.env, PATH: binWithOnly(['git']) };

/** Returns a folder holding links to these tools only. */
function binWithOnly(tools: readonly string[]): string {
  const bin = join(home, 'no-node-bin');
  mkdirSync(bin, { recursive: true });
  for (const tool of tools) symlinkSync(requireTool(tool), join(bin, tool));
  return bin;
}

test.before(async () => {
  const built = await run(process.execPath, [join(ROOT, 'scripts', 'binary.mjs'), executable], {
    cwd: ROOT,
  });
  if (built.status !== 0) throw new Error(`scripts/binary.mjs failed:\n${built.stderr}`);
});

/** Runs the executable and the Node CLI on the same arguments and input. */
function both(args: readonly string[], input: string): Promise<[Run, Run]> {
  return Promise.all([
    run(executable, args, { input, env: noNode }),
    run(process.execPath, [cliPath(), ...args], { input }),
  ]);
}

test('the executable runs without Node, says its version and prints no experimental warning', async (t) => {
  const result = await run(executable, ['--version'], { env: noNode });
  t.is(result.status, 0);
  t.is(result.stdout, `${version}\n`);
  t.is(result.stderr, '', 'Node 20 warns of single executables unless the build turns it off');
});

test('the executable prints what node dist/cli.js prints on every corpus render and on errors', async (t) => {
  const cases: Array<[string, string[], string]> = [
    ...corpusNames().map((name): [string, string[], string] => [name, [], corpus(name)]),
    ['--help', ['--help'], ''],
    ['a bad flag (exit 2)', ['--drain-window', 'soon'], demo],
    ['an error finding (exit 1)', [], withErrorFinding(demo)],
    ['explain', ['explain'], demo],
  ];
  // One pair at a time: the machine has two cores.
  for (const [what, args, input] of cases) {
    const [binary, node] = await both(args, input);
    t.is(binary.status, node.status, `${what}: exit code`);
    t.true(binary.stdout === node.stdout, `${what}: stdout differs`);
    t.is(binary.stderr, node.stderr, `${what}: stderr`);
  }
});

test('Helm 3: helm template --post-renderer <executable> prints what it prints with dist/cli.js', async (t) => {
  const helm = helm3Path();
  const env = { ...helmEnv(tempDir('exe-helm3')), PATH: noNode.PATH };
  const [binary, node] = await Promise.all([
    runOk(t, helm, ['template', 'demo', DEMO_CHART, '--post-renderer', executable], { env }),
    runOk(t, helm, ['template', 'demo', DEMO_CHART, '--post-renderer', cliPath()], {
      env: helmEnv(tempDir('exe-helm3-node')),
    }),
  ]);
  t.is(binary, node);
  assertGatewayPatched(t, doc(t, splitDocs(binary), 'Deployment', 'demo-gateway').object, 'helm 3');
});

/** A Helm 4 post-renderer plugin folder whose command is the executable itself (no node). */
function executablePlugin(): string {
  const dir = join(tempDir('exe-plugin'), 'kube-graceful');
  mkdirSync(dir, { recursive: true });
  // A hard link: the plugin folder holds the executable itself, as a copy would, without 100 MB.
  linkSync(executable, join(dir, 'kube-graceful'));
  writeFileSync(
    join(dir, 'plugin.yaml'),
    [
      'apiVersion: v1',
      'type: postrenderer/v1',
      'name: kube-graceful',
      `version: ${version}`,
      'runtime: subprocess',
      'runtimeConfig:',
      '  platformCommand:',
      '    - command: ${HELM_PLUGIN_DIR}/kube-graceful',
      '',
    ].join('\n'),
  );
  return dir;
}

test('Helm 4: a plugin running the executable post-renders as the node plugin (renderer/) does', async (t) => {
  const helm = helm4Path();
  const binaryEnv = { ...helmEnv(tempDir('exe-helm4')), PATH: noNode.PATH };
  const nodeEnv = helmEnv(tempDir('exe-helm4-node'));
  await runOk(t, helm, ['plugin', 'install', executablePlugin()], { env: binaryEnv });
  await runOk(t, helm, ['plugin', 'install', join(ROOT, 'renderer')], { env: nodeEnv });
  const render = ['template', 'demo', DEMO_CHART, '--post-renderer', 'kube-graceful'];
  const [binary, node] = await Promise.all([
    runOk(t, helm, render, { env: binaryEnv }),
    runOk(t, helm, render, { env: nodeEnv }),
  ]);
  t.is(binary, node);
  const docs = splitDocs(binary);
  assertGatewayPatched(t, doc(t, docs, 'Deployment', 'demo-gateway').object, 'helm 4');
  assertJobNative(t, doc(t, docs, 'Job', 'demo-migrate').object, 'helm 4 (hooks included)');
});

test('kustomize exec function: on the ResourceList kustomize sends, the executable answers as dist/cli.js', async (t) => {
  // What `kustomize build --enable-alpha-plugins --enable-exec examples/kustomize-exec` sends its
  // exec function: the kustomization's resources as items, graceful.yaml as functionConfig
  // (examples/kustomize-exec/run.sh builds it the same way).
  const dir = tempDir('exe-kustomize');
  mkdirSync(join(dir, 'items'));
  writeFileSync(
    join(dir, 'items', 'resources.yaml'),
    await runOk(t, kubectl, ['kustomize', join(ROOT, 'examples', 'manifests')]),
  );
  const list = await runOk(t, kpt, [
    'fn',
    'source',
    join(dir, 'items'),
    '--fn-config',
    join(ROOT, 'examples', 'kustomize-exec', 'graceful.yaml'),
  ]);
  const [binary, node] = await both([], list);
  t.is(binary.status, 0, binary.stderr);
  t.is(binary.stdout, node.stdout);
  t.is(binary.stderr, node.stderr);
  t.regex(binary.stdout, /^kind: ResourceList$/m);
  t.regex(binary.stdout, /MINIMUM_DRAIN_DURATION/);
});

test('kpt: fn eval --exec <executable> on stdin and on a package, as with dist/cli.js', async (t) => {
  const stdin = ['fn', 'eval', '-', '-o', 'unwrap', '--exec'];
  const [binary, node] = await Promise.all([
    runOk(t, kpt, [...stdin, executable], { input: demo, env: noNode }),
    runOk(t, kpt, [...stdin, cliPath()], { input: demo }),
  ]);
  t.is(binary, node);
  assertGatewayPatched(t, doc(t, splitDocs(binary), 'Deployment', 'demo-gateway').object, 'kpt');

  const source = join(ROOT, 'examples', 'kpt-eval', 'package');
  const packages = {
    binary: join(tempDir('exe-kpt'), 'package'),
    node: join(tempDir('exe-kpt'), 'package'),
  };
  cpSync(source, packages.binary, { recursive: true });
  cpSync(source, packages.node, { recursive: true });
  const settings = ['--', 'kube-version=1.28', 'lb-provider=aws-nlb-ip'];
  await Promise.all([
    runOk(t, kpt, ['fn', 'eval', packages.binary, '--exec', executable, ...settings], {
      env: noNode,
    }),
    runOk(t, kpt, ['fn', 'eval', packages.node, '--exec', cliPath(), ...settings]),
  ]);
  const files = readdirSync(packages.node).sort();
  t.deepEqual(readdirSync(packages.binary).sort(), files);
  for (const file of files)
    t.is(
      readFileSync(join(packages.binary, file), 'utf8'),
      readFileSync(join(packages.node, file), 'utf8'),
      file,
    );
  t.regex(readFileSync(join(packages.binary, 'migrate-job.yaml'), 'utf8'), /kube-graceful-wrap/);
});
