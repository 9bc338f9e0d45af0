/**
 * dist/cli.js: starts the bundled CLI from V8's code cache, so a run pays neither for compiling
 * the bundle nor for compiling its functions lazily as they are first called (issue #9: start-up
 * near bare node). On Node 20 there is no built-in compile cache for a script
 * (`module.enableCompileCache` arrived in Node 22.1), so this does what it does, with vm.Script
 * `cachedData` (https://nodejs.org/docs/latest-v20.x/api/vm.html#scriptcreatecacheddata).
 *
 * The cache is made once, by `npm run build`, from a run over a training stream
 * (scripts/build.mjs): it then holds the bytecode of every function that run called, not only the
 * top level. Nothing is written at run time: a post-renderer that writes files would surprise
 * read-only containers and GitOps runners. When V8 rejects the cache (another Node version, other
 * V8 flags) the bundle is compiled as usual: slower, never different.
 *
 * V8 checks a cache against its source by length only, so the build puts a hash of the bundle in
 * both file names and here: a launcher only ever pairs with the bundle and cache built with it.
 *
 * This file is CommonJS (dist/package.json): node reads it with one synchronous read, where its ES
 * module loader reads through a FileHandle whose close the process then waits for at exit.
 */
// First: the V8 flags must be set before the bundle is compiled (the code cache is checked against
// them).
import './startFlags.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

/** The bundle's file name next to this launcher, with its hash (set by scripts/build.mjs). */
declare const KUBE_GRACEFUL_BUNDLE: string;

/**
 * `write`: save the cache at exit (the build's training run). `check`: say on stderr whether V8
 * took the cache (the build and a test check that a shipped cache is used, not silently rejected).
 */
const mode = process.env['KUBE_GRACEFUL_CODE_CACHE'];

const bundle = join(__dirname, KUBE_GRACEFUL_BUNDLE);
const cacheFile = bundle.replace(/\.cjs$/, '.v8cache');
let cachedData: Buffer | undefined;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  // No cache (a build without the training run): compile as usual.
}
// The CommonJS wrapper, as node's own loader puts around a module.
const script = new Script(
  `(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8')}` +
    `\n})`,
  { filename: bundle, cachedData },
);
if (mode === 'check') {
  const cache =
    cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used';
  process.stderr.write(`kube-graceful: code cache ${cache}` + `\n`);
}
// V8 checks a cache against a hash of the flags when the cache was made, so the training run
// makes it with the flags every run starts with: a run may have changed one since
// (fn/stream/youngGeneration.ts sets --semi-space-growth-factor to 1, 2 being V8's default,
// src/flags/flag-definitions.h in V8 11.3; for a large document --heap-growing-percent to 0,
// against fn/cli/startFlags.ts's 10).
if (mode === 'write')
  process.once('exit', () => {
    setFlagsFromString('--semi-space-growth-factor=2');
    setFlagsFromString('--heap-growing-percent=10');
    writeFileSync(cacheFile, script.createCachedData());
  });
const module = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void)(
  module.exports,
  createRequire(bundle),
  module,
  bundle,
  dirname(bundle),
);
