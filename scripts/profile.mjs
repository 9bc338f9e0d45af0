// Where a run's CPU time goes (issue #16): runs the CLI under `node --cpu-prof` over a stream and
// prints the top functions by self time, with the source file each comes from.
//
//   node scripts/profile.mjs STREAM [TOP] [--cli dist/cli.js]
//
// dist/'s bundle is minified, so its profile names no function. This builds the same bundle with
// names and without minifying (esbuild, as scripts/build.mjs does, to a temporary folder) and runs
// it with the V8 flag the launcher sets (--max-opt=1), so the profile is of the code dist/ runs.
// `--cli PATH` profiles that file instead (names then as minified). Each function is attributed to
// the source file esbuild's `// path` comments place it in. The .cpuprofile is kept for DevTools.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const cliAt = args.indexOf('--cli');
const cli = cliAt >= 0 ? args.splice(cliAt, 2)[1] : undefined;
const [stream, topArg] = args;
const TOP = Number(topArg ?? 25);
if (!stream) {
  console.error('usage: node scripts/profile.mjs STREAM [TOP] [--cli dist/cli.js]');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'kube-graceful-profile-'));
let script = cli;
if (!script) {
  script = join(work, 'kube-graceful.cjs');
  await build({
    entryPoints: [join(ROOT, 'fn/cli/main.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    define: { KUBE_GRACEFUL_VERSION: '"profile"' },
  });
}
const profiles = join(work, 'profiles');
const result = spawnSync(
  process.execPath,
  ['--max-opt=1', '--cpu-prof', `--cpu-prof-dir=${profiles}`, script],
  {
    stdio: [openSync(stream, 'r'), 'ignore', 'inherit'],
  },
);
if (result.status !== 0) throw new Error(`the run exited ${result.status}`);
const file = join(profiles, readdirSync(profiles)[0]);
const profile = JSON.parse(readFileSync(file, 'utf8'));

// Source file of each bundle line, from esbuild's `// fn/<file>.ts` and `// node_modules/...`
// markers.
const sourceOf = (() => {
  if (cli) return () => undefined;
  const marks = [];
  readFileSync(script, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const m = /^\s*\/\/ ((?:fn|node_modules)\/\S+)$/.exec(line);
      if (m) marks.push([i, m[1].replace(/^node_modules\/(\.pnpm\/)?/, '')]);
    });
  return (line) => {
    let found;
    for (const [at, name] of marks)
      if (at <= line) found = name;
      else break;
    return found;
  };
})();

// Self time: each sample is charged to the node it was taken in; timeDeltas[i] is sample i's time.
const selfMs = new Map();
for (let i = 0; i < profile.samples.length; i++)
  selfMs.set(
    profile.samples[i],
    (selfMs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000,
  );
const byFunction = new Map();
let total = 0;
for (const node of profile.nodes) {
  const ms = selfMs.get(node.id) ?? 0;
  total += ms;
  const { functionName, url, lineNumber } = node.callFrame;
  const where =
    url === `file://${script}` || url === script
      ? (sourceOf(lineNumber) ?? `line ${lineNumber + 1}`)
      : url.replace(/^node:/, 'node:') || '(native)';
  const key = `${functionName || '(anonymous)'}  ${where}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
}
console.log(
  `${stream}: ${total.toFixed(0)} ms sampled; top ${TOP} by self time (profile: ${file})`,
);
for (const [key, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
  console.log(
    `${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`,
  );
}
