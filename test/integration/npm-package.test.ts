/**
 * The npm package, installed the ways the README's Install section says (issue #28), each into a
 * clean `--prefix` from a copy of the working tree (test/helpers/workingTree.ts): `npm pack` then
 * `npm install -g` of the tarball, `npm install -g <clone>` building dist/ through `prepare`, and
 * `npm publish --dry-run`. No network: the tarball has no dependencies to fetch.
 */
import test, { type ExecutionContext } from 'ava';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import {
  assertGatewayPatched,
  cliPath,
  doc,
  ROOT,
  run,
  runOk,
  splitDocs,
  tempDir,
} from '../helpers/integration.ts';
import { copyOfWorkingTree, npmEnv } from '../helpers/workingTree.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  license: string;
  dependencies?: Record<string, string>;
};
const demo = readFileSync(join(ROOT, 'examples', 'manifests', 'graceful-demo.yaml'), 'utf8');
const home = tempDir('npm');
/** npm's own cache in the temp folder: nothing read from or left in the user's. */
const env = npmEnv({ npm_config_cache: join(home, 'npm-cache') });

/** What `npm pack --json` says of one tarball. */
interface Packed {
  filename: string;
  files: Array<{ path: string }>;
}

/**
 * What `npm pack` ships: the launcher and what it loads, the Helm 4 plugin, the config's JSON
 * Schema (for editors), README and LICENSE.
 */
function expectedFiles(dist: readonly string[]): string[] {
  return [
    'LICENSE',
    'README.md',
    'docs/config.schema.json',
    'package.json',
    'renderer/README.md',
    'renderer/plugin.yaml',
    ...dist.flatMap((f) => [`dist/${f}`, `renderer/dist/${f}`]),
  ].sort();
}

/** Runs the installed `kube-graceful` on the demo render; checks it against dist/cli.js. */
async function assertWorks(t: ExecutionContext, bin: string): Promise<void> {
  t.is((await runOk(t, bin, ['--version'], { env })).trim(), pkg.version);
  const [installed, built] = await Promise.all([
    run(bin, [], { input: demo, env: { ...env, KUBE_GRACEFUL_CODE_CACHE: 'check' } }),
    run(process.execPath, [cliPath()], { input: demo }),
  ]);
  t.is(installed.status, 0, installed.stderr);
  t.regex(installed.stderr, /code cache used/, 'the V8 code cache was packed and is taken');
  t.is(installed.stdout, built.stdout, 'the same output as this tree’s dist/cli.js');
  assertGatewayPatched(
    t,
    doc(t, splitDocs(installed.stdout), 'Deployment', 'demo-gateway').object,
    bin,
  );
}

test('LICENSE is the Apache License 2.0 that package.json names', (t) => {
  t.is(pkg.license, 'Apache-2.0');
  // The text of https://www.apache.org/licenses/LICENSE-2.0.txt, byte for byte.
  t.is(
    createHash('sha256')
      .update(readFileSync(join(ROOT, 'LICENSE')))
      .digest('hex'),
    'cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30',
  );
  t.is(pkg.dependencies, undefined, 'dist/ bundles every package: nothing to install at run time');
});

test('npm pack builds through prepare, packs what dist/cli.js loads and nothing else, and npm install -g of the tarball gives a working kube-graceful', async (t) => {
  const clone = copyOfWorkingTree(join(home, 'pack-clone'));
  const out = await runOk(
    t,
    'npm',
    ['pack', '--json', '--loglevel=error', '--pack-destination', home],
    { cwd: clone, env },
  );
  const [packed] = JSON.parse(out) as Packed[];
  const dist = readdirSync(join(clone, 'dist')).sort();
  t.deepEqual(packed!.files.map((f) => f.path).sort(), expectedFiles(dist));
  // The bundle loads Node's own modules only: no package is left for an install to provide.
  for (const file of dist.filter((f) => /\.c?js$/.test(f))) {
    const required = [
      ...readFileSync(join(clone, 'dist', file), 'utf8').matchAll(/\brequire\("([^"]+)"\)/g),
    ]
      .map((m) => m[1]!.replace(/^node:/, ''))
      .filter((name) => !builtinModules.includes(name));
    t.deepEqual(required, [], `${file} requires only Node's modules`);
  }
  // Anything else built into dist/ (the single executable, npm run binary) stays out.
  writeFileSync(join(clone, 'dist', 'kube-graceful-linux-x64'), 'not shipped');
  const again = await runOk(
    t,
    'npm',
    ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'],
    { cwd: clone, env },
  );
  t.deepEqual(
    (JSON.parse(again) as Packed[])[0]!.files.map((f) => f.path).sort(),
    expectedFiles(dist),
  );

  const prefix = join(home, 'prefix-tarball');
  const tarball = join(home, packed!.filename);
  await runOk(
    t,
    'npm',
    ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', tarball],
    { env },
  );
  const installed = join(prefix, 'lib', 'node_modules', pkg.name);
  t.false(lstatSync(installed).isSymbolicLink(), 'a copy of the package, not a link');
  t.false(existsSync(join(installed, 'node_modules')), 'no dependencies were installed');
  await assertWorks(t, join(prefix, 'bin', 'kube-graceful'));
});

test('npm install -g <clone> of a clone without dist/ builds it through prepare', async (t) => {
  const clone = copyOfWorkingTree(join(home, 'link-clone'));
  t.false(existsSync(join(clone, 'dist')), 'a fresh clone has no dist/');
  const prefix = join(home, 'prefix-clone');
  await runOk(
    t,
    'npm',
    ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', clone],
    { env },
  );
  t.true(existsSync(join(clone, 'dist', 'cli.js')), 'prepare built dist/ in the clone');
  // npm links a folder it installs: the command runs the clone's dist/.
  t.true(lstatSync(join(prefix, 'lib', 'node_modules', pkg.name)).isSymbolicLink());
  await assertWorks(t, join(prefix, 'bin', 'kube-graceful'));
});

test('npm publish --dry-run in a built clone is clean: it builds, packs LICENSE, and warns of nothing but the missing login', async (t) => {
  const clone = copyOfWorkingTree(join(home, 'publish-clone'));
  // As after `npm ci` in a clone (its prepare builds dist/): npm checks the bin before it runs
  // prepare again, and warns "No bin file found at dist/cli.js" in a clone never built.
  await runOk(t, 'npm', ['run', 'build'], { cwd: clone, env });
  const result = await run('npm', ['publish', '--dry-run', '--offline'], { cwd: clone, env });
  t.is(result.status, 0, result.stderr);
  const warnings = result.stderr
    .split('\n')
    .filter((line) => /^npm (warn|error)/i.test(line))
    // Not the package's: no one is logged in to the registry here.
    .filter((line) => !line.includes('This command requires you to be logged in'));
  t.deepEqual(warnings, []);
  t.regex(result.stderr, /npm notice [\d.]+k?B LICENSE\n/);
  t.regex(result.stdout, new RegExp(`\\+ ${pkg.name}@${pkg.version.replace(/\./g, '\\.')}`));
});
