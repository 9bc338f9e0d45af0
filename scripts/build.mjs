// Builds dist/: the CLI bundled into one file, a launcher, and the V8 code cache that makes
// start-up near bare node (issue #9). Helm 3 and kpt run dist/cli.js directly (shebang, mode 755).
//
//   dist/cli.js                       the launcher (fn/cli/launcher.ts): loads the bundle with the
//                                     cache
//   dist/kube-graceful.<hash>.cjs     everything else, one CommonJS file (vm.Script runs scripts,
//                                     not ES modules, and only scripts take a code cache on
//                                     Node 20)
//   dist/kube-graceful.<hash>.v8cache bytecode of the functions a run over the training stream
//                                     called
//
// The hash of the bundle is in both names and in the launcher, so the three always belong together.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * The commit the bundle is built from, for `kube-graceful version` (issue #28): `-dirty` when
 * tracked files differ from it, `unknown` outside a git checkout (a build from the npm tarball).
 */
function gitCommit() {
  const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' });
  if (head.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['diff', '--quiet', 'HEAD', '--']).status === 1;
  return `${head.stdout.trim()}${dirty ? '-dirty' : ''}`;
}

/** What the training run reads: a gateway behind an NLB, a meshed app and a meshed hook Job. */
const TRAINING = [
  'examples/quickstart/istio-gateway-nlb.yaml',
  'examples/manifests/graceful-demo.yaml',
];

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'linked',
  logLevel: 'warning',
};

/**
 * commander requires node:child_process when loaded, for executable subcommands we do not have;
 * node:child_process loads node:net and node:dgram, a few milliseconds of every start. Commander
 * gets a stand-in that requires the real module on first use.
 */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'child_process', namespace: 'lazy' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents:
        "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist');

const bundled = await build({
  ...common,
  entryPoints: ['fn/cli/main.ts'],
  outfile: 'dist/kube-graceful.cjs',
  format: 'cjs',
  write: false,
  plugins: [lazyChildProcessForCommander],
  define: {
    KUBE_GRACEFUL_VERSION: JSON.stringify(version),
    KUBE_GRACEFUL_COMMIT: JSON.stringify(gitCommit()),
  },
});
const code = bundled.outputFiles.find((f) => f.path.endsWith('.cjs'));
const contentHash = createHash('sha256').update(code.contents).digest('hex').slice(0, 12);
const bundleName = `kube-graceful.${contentHash}.cjs`;
for (const file of bundled.outputFiles)
  writeFileSync(file.path.replace(/kube-graceful\.cjs(?=[^/]*$)/, bundleName), file.contents);

await build({
  ...common,
  entryPoints: ['fn/cli/launcher.ts'],
  outfile: 'dist/cli.js',
  format: 'cjs',
  define: { KUBE_GRACEFUL_BUNDLE: JSON.stringify(bundleName) },
  banner: { js: '#!/usr/bin/env node' },
});
chmodSync('dist/cli.js', 0o755);
// CommonJS in a `"type": "module"` package: node loads it with one synchronous read, where the ES
// module loader reads through a FileHandle whose close the process then waits for at exit.
writeFileSync('dist/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);

// The training run: the launcher writes the cache at exit. Without NODE_OPTIONS, so the V8 flags
// are node's defaults, which is what the cache is checked against when users run it.
const { NODE_OPTIONS: _ignored, ...env } = process.env;
const training = spawnSync(process.execPath, ['dist/cli.js'], {
  input: TRAINING.map((file) => readFileSync(file, 'utf8')).join('---\n'),
  env: { ...env, KUBE_GRACEFUL_CODE_CACHE: 'write' },
  stdio: ['pipe', 'ignore', 'pipe'],
});
if (training.status !== 0)
  throw new Error(
    `build: the training run failed (exit ${training.status}):\n${String(training.stderr)}`,
  );
const check = spawnSync(process.execPath, ['dist/cli.js', '--version'], {
  env: { ...env, KUBE_GRACEFUL_CODE_CACHE: 'check' },
  encoding: 'utf8',
});
if (!check.stderr.includes('code cache used'))
  throw new Error(`build: V8 does not take the cache it just made: ${check.stderr}`);

// The Helm 4 plugin folder carries its own copy (renderer/plugin.yaml runs
// ${HELM_PLUGIN_DIR}/dist/cli.js): `helm plugin install` symlinks the folder and node resolves
// `${HELM_PLUGIN_DIR}/../dist` lexically, so a path outside the folder would not be found.
rmSync('renderer/dist', { recursive: true, force: true });
cpSync('dist', 'renderer/dist', { recursive: true });
