// Builds dist/kube-graceful-linux-x64: kube-graceful as one executable that needs no Node
// installed, for machines where Helm, kustomize or kpt run but Node does not (issue #28). It is
// Node's single executable application, a copy of the node running this script with the CLI bundle
// injected by postject
// (https://nodejs.org/docs/latest-v20.x/api/single-executable-applications.html).
//
//   npm run binary                  builds dist/ first (the executable takes the same sources),
//                                   then this
//   node scripts/binary.mjs [FILE]  this only, writing FILE instead (the tests)
//
// The main script is fn/cli/executableMain.ts bundled on its own (no launcher: there are no files
// next to an executable to load). Node 20 starts it with an ExperimentalWarning on stderr, which a
// post-renderer must not print: `disableExperimentalSEAWarning` (Node ≥ 20.12) turns it off.
// `useCodeCache` makes V8's cache of the main script at build time, as dist/'s code cache does.
// Only Linux: macOS and Windows executables need their signature removed and redone around the
// injection, which nothing here can test. postject's ELF library prints a few "Can't find string
// offset for section name '.note…'" warnings on Node's notes section: harmless, the check below
// runs the result.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliBundle } from './cli-bundle.mjs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The fuse Node's binary carries and postject flips (src/node_sea.cc, NODE_SEA_FUSE). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

if (process.platform !== 'linux')
  throw new Error(`binary: only Linux executables are built here, not ${process.platform}`);
const output = process.argv[2] ?? `dist/kube-graceful-${process.platform}-${process.arch}`;
// A folder of its own for the bundle, the config and the blob: two builds never share one.
const work = mkdtempSync(join(tmpdir(), 'kube-graceful-binary-'));
process.once('exit', () => rmSync(work, { recursive: true, force: true }));

await build(cliBundle('fn/cli/executableMain.ts', join(work, 'main.cjs')));
const seaConfig = {
  main: join(work, 'main.cjs'),
  output: join(work, 'sea-prep.blob'),
  disableExperimentalSEAWarning: true,
  useCodeCache: true,
};
writeFileSync(join(work, 'sea-config.json'), `${JSON.stringify(seaConfig, null, 2)}\n`);
run(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')]);

if (!readFileSync(process.execPath).includes(SEA_FUSE))
  throw new Error(
    `binary: ${process.execPath} (Node ${process.version}) has no single-executable fuse; ` +
      'use an official Node 20 build',
  );
rmSync(output, { force: true });
copyFileSync(process.execPath, output);
chmodSync(output, 0o755);
// postject is CommonJS; its API instead of its CLI, so no npx and no PATH lookup.
const { inject } = createRequire(import.meta.url)('postject');
await inject(output, 'NODE_SEA_BLOB', readFileSync(seaConfig.output), { sentinelFuse: SEA_FUSE });

// The executable says its version and nothing else: no warning on stderr.
const check = spawnSync(output, ['--version'], { encoding: 'utf8' });
if (check.status !== 0 || check.stdout !== `${version}\n` || check.stderr !== '')
  throw new Error(
    `binary: ${output} --version gave exit ${check.status}, ` +
      `stdout ${JSON.stringify(check.stdout)}, stderr ${JSON.stringify(check.stderr)}`,
  );
console.log(`${output}: kube-graceful ${version} on Node ${process.version}, needs no Node`);

function run(file, args) {
  const result = spawnSync(file, args, { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(
      `binary: ${file} ${args.join(' ')} failed (exit ${result.status}):\n${result.stderr}`,
    );
}
