/**
 * Issue #9: dist/cli.js starts the bundle from the V8 code cache the build made. These tests pin
 * that the shipped cache is really used (a rejected cache only costs time, so nothing else would
 * notice), and that a missing, damaged or mismatched cache changes nothing but the speed.
 *
 * No timing here: `npm run bench` measures (scripts/bench.mjs).
 */
import test from 'ava';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, ROOT, run, tempDir } from '../helpers/integration.ts';
import { corpus } from '../helpers/fixtures.ts';

const INPUT = corpus('istio-gateway-1.30.3-nlb.yaml');
const CHECK = { KUBE_GRACEFUL_CODE_CACHE: 'check' };

/** Returns a copy of dist/ to damage, and the name of its cache file. */
function distCopy(): { dir: string; cache: string } {
  const dir = join(tempDir('launcher'), 'dist');
  cpSync(join(ROOT, 'dist'), dir, { recursive: true });
  const cache = readdirSync(dir).find((f) => f.endsWith('.v8cache'));
  if (!cache) throw new Error('dist/ has no .v8cache: run npm run build');
  return { dir, cache };
}

async function runLauncher(launcher: string, env: NodeJS.ProcessEnv = {}) {
  const { NODE_OPTIONS: _ignored, ...base } = process.env;
  return run(process.execPath, [launcher], { input: INPUT, env: { ...base, ...env } });
}

test('the shipped code cache is used, in dist/ and in the Helm 4 plugin folder', async (t) => {
  for (const launcher of [cliPath(), join(ROOT, 'renderer', 'dist', 'cli.js')]) {
    const result = await runLauncher(launcher, CHECK);
    t.is(result.status, 0, result.stderr);
    t.regex(result.stderr, /code cache used/, launcher);
  }
});

test('without the cache, with a damaged cache, or with other V8 flags: the same output', async (t) => {
  const expected = (await runLauncher(cliPath())).stdout;
  t.not(expected, INPUT, 'the run patches the gateway');

  const missing = distCopy();
  rmSync(join(missing.dir, missing.cache));
  const withoutCache = await runLauncher(join(missing.dir, 'cli.js'), CHECK);
  t.regex(withoutCache.stderr, /code cache missing/);
  t.is(withoutCache.stdout, expected);

  const damaged = distCopy();
  const bytes = readFileSync(join(damaged.dir, damaged.cache));
  writeFileSync(join(damaged.dir, damaged.cache), bytes.subarray(0, bytes.length >> 1));
  const withDamagedCache = await runLauncher(join(damaged.dir, 'cli.js'), CHECK);
  t.regex(withDamagedCache.stderr, /code cache rejected/);
  t.is(withDamagedCache.stdout, expected);

  // A heap limit in NODE_OPTIONS is a V8 flag: the cache's flag hash no longer matches.
  const otherFlags = await runLauncher(cliPath(), {
    ...CHECK,
    NODE_OPTIONS: '--max-old-space-size=512',
  });
  t.regex(otherFlags.stderr, /code cache rejected/);
  t.is(otherFlags.stdout, expected);
});

test('the launcher, the bundle and the cache carry one hash: a rebuilt bundle never meets an old cache', (t) => {
  const files = readdirSync(join(ROOT, 'dist'));
  const bundles = files.filter((f) => /^kube-graceful\.[0-9a-f]{12}\.cjs$/.test(f));
  t.is(bundles.length, 1, files.join(' '));
  const hash = bundles[0]!.split('.')[1]!;
  t.true(files.includes(`kube-graceful.${hash}.v8cache`));
  t.true(readFileSync(cliPath(), 'utf8').includes(`kube-graceful.${hash}.cjs`));
});
