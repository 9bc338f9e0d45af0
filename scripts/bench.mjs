// `npm run bench` (issue #9): how fast kube-graceful is next to what a user would otherwise run.
//
// For each case it times, over several runs: kube-graceful (the bundled dist/cli.js, as Helm runs
// it), `kubectl kustomize` applying the equivalent JSON6902 patch (test/fixtures/bench/kustomize),
// bare Node start-up (`node -e 0`) and the read+write floor (`cat`). It prints median and spread,
// the ratios the issue sets as targets with PASS/FAIL, and peak RSS on the large stream at 1×, 4×
// and 16× its size. It prints figures; it asserts nothing (timing is no test).
//
// Timing uses hyperfine when it is installed (it subtracts the shell's own start-up), else Node's
// timers around spawnSync. The commands of a case take turns, one run each, so a busy machine
// slows them alike; each ratio is the median over the rounds of the ratio within a round, all
// from one run of this script.
//
// Issue #16 adds workload-dense streams (scripts/gen-dense.mjs: bookinfo in 100 and 400
// namespaces): kube-graceful next to parsing and printing the same stream with the project's `yaml`
// (scripts/parse-print.ts), ×400 next to ×100, 600 Deployments next to `kubectl kustomize` with one
// strategic-merge patch per workload kind, and peak RSS against the input's size.
//
// Environment: BENCH_RUNS (runs per command, default 15), BENCH_NO_HYPERFINE=1 (Node's timers),
// BENCH_CLI (another build to measure instead of dist/cli.js, e.g. a copy from before a change),
// BENCH_KUSTOMIZE_RUNS (runs of the 600-Deployment kustomize comparison, default 5: kustomize takes
// seconds there), BENCH_ONLY=dense (only issue #16's cases), BENCH_ONLY=issue9 (only #9's cases) or
// BENCH_ONLY=container (only the container case), BENCH_ONLY=krm (only the big ResourceList),
// BENCH_ONLY=memory (only the peak RSS cases), BENCH_ONLY=planning (only issue #34's object
// planning cases), BENCH_ONLY=scalars (only issue #34's long scalar), BENCH_ONLY=shapes (only
// issue #34's ResourceList-against-stream and optimizer
// cases), BENCH_CONTAINER_RUNS (default 7).
//
// The container case (issue #18, scripts/bench/container.mjs): `podman run` of the function on the
// small chart as a ResourceList against `podman run` of `node -e 0` on the same base image; skipped
// with the reason when podman or the base image is missing.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { containerCommands } from './bench/container.mjs';
import { parseAllDocuments, stringify } from 'yaml';
import { denseStream, writeKustomization } from './gen-dense.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CORPUS = join(ROOT, 'test', 'fixtures', 'corpus');
const KUSTOMIZATION = join(ROOT, 'test', 'fixtures', 'bench', 'kustomize');
const CLI = process.env.BENCH_CLI ?? join(ROOT, 'dist', 'cli.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 2;

const TARGETS = { smallVsNode: 1.5, kustomizeVsUs: 5, usVsFloor: 2, rssMiB: 200 };
/** Issue #16: ≤ 2× parse-and-print, ×400 ≤ 4.2× ×100, ≤ 0.2× kustomize, RSS < baseline + 4×
 * input. */
const DENSE_TARGETS = {
  vsParsePrint: 2,
  linear: 4.2,
  vsKustomize: 0.2,
  rssPerInput: 4,
  bigListVsRead: 15,
};
const ONLY = process.env.BENCH_ONLY;
const CONTAINER_RUNS = Number(process.env.BENCH_CONTAINER_RUNS ?? 7);
const KUSTOMIZE_RUNS = Number(process.env.BENCH_KUSTOMIZE_RUNS ?? 5);

const CASES = [
  {
    name: 'small chart: istio gateway 1.30.3 (AWS NLB)',
    file: 'istio-gateway-1.30.3-nlb.yaml',
    small: true,
  },
  {
    name: 'large stream: kube-prometheus-stack with CRDs',
    file: 'kube-prometheus-stack-with-crds.yaml',
  },
  { name: 'large stream: argo-cd', file: 'argo-cd.yaml' },
];

function has(command, args = ['--version']) {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

const hyperfine = process.env.BENCH_NO_HYPERFINE !== '1' && has('hyperfine');
const kubectl = has('kubectl', ['version', '--client']);
const gnuTime = existsSync('/usr/bin/time');

if (!existsSync(CLI)) {
  console.error(`bench: ${CLI} is missing; run \`npm run bench\` (it builds first).`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'kube-graceful-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/** A command of a case: argv, the file on its stdin, and a shell form for hyperfine. */
function command(label, argv, stdin) {
  const shell = `${argv.map(quote).join(' ')}${stdin ? ` < ${quote(stdin)}` : ''} > /dev/null`;
  return { label, argv, stdin, shell };
}

function quote(word) {
  return /^[\w./=:-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Returns the milliseconds of each run of each command (interleaved), after warm-up runs. */
function time(commands, runs = RUNS, warmup = WARMUP) {
  return hyperfine
    ? timeWithHyperfine(commands, runs, warmup)
    : timeWithNode(commands, runs, warmup);
}

function timeWithNode(commands, runs, warmup) {
  const times = commands.map(() => []);
  for (let run = -warmup; run < runs; run++) {
    commands.forEach((c, i) => {
      const input = c.stdin ? openSync(c.stdin, 'r') : 'ignore';
      const output = openSync('/dev/null', 'w');
      const start = process.hrtime.bigint();
      const result = spawnSync(c.argv[0], c.argv.slice(1), { stdio: [input, output, 'pipe'] });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (typeof input === 'number') closeSync(input);
      closeSync(output);
      if (result.status !== 0)
        throw new Error(`${c.label} exited ${result.status}: ${String(result.stderr)}`);
      if (run >= 0) times[i].push(ms);
    });
  }
  return times;
}

function timeWithHyperfine(commands, runs, warmup) {
  // One hyperfine call per round, one run of each command per call: the commands take turns.
  // Also the CPU time (user + system) of each run: on a shared machine it moves less than the wall.
  const times = commands.map(() => []);
  const cpu = commands.map(() => []);
  const export_ = join(work, 'hyperfine.json');
  for (let round = 0; round < runs; round++) {
    const args = [
      '--style',
      'none',
      '--warmup',
      String(round === 0 ? warmup : 0),
      '--runs',
      '1',
      '--export-json',
      export_,
      ...commands.map((c) => c.shell),
    ];
    const result = spawnSync('hyperfine', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    if (result.status !== 0) throw new Error(`hyperfine failed: ${String(result.stderr)}`);
    JSON.parse(readFileSync(export_, 'utf8')).results.forEach((r, i) => {
      times[i].push(...r.times.map((s) => s * 1000));
      cpu[i].push((r.user + r.system) * 1000); // one run per call: its mean is that run
    });
  }
  times.cpu = cpu;
  return times;
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.ceil(at)] - sorted[low]) * (at - low);
}

const median = (values) => quantile(values, 0.5);
const ms = (value) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
// The spread columns of a row: the middle half of the runs, then all of them.
const iqr = (values) => `${ms(quantile(values, 0.25))}–${ms(quantile(values, 0.75))}`;
const range = (values) => `${ms(Math.min(...values))}–${ms(Math.max(...values))}`;
const verdict = (ok) => (ok ? 'PASS' : 'FAIL');

const mib = (file) => `${(statSync(file).size / 2 ** 20).toFixed(1)} MiB`;

/**
 * Times the commands (taking turns), prints median and spread of each, and returns `perRound`:
 * the median over the rounds of a ratio taken within each round, of CPU time (user + system) when
 * hyperfine gives it, else of wall time. Issue #16 states its dense-stream costs in CPU time, and
 * on a shared machine the wall time of a multi-second run mostly measures the other jobs.
 */
function timedCase(title, commands, runs, warmup = WARMUP) {
  const times = time(commands, runs, warmup);
  const measure = times.cpu ?? times;
  console.log(`\n${title}`);
  console.log(
    `  ${'command'.padEnd(20)} ${'wall median'.padStart(12)}   spread (p25–p75, min–max)` +
      `${times.cpu ? `   ${'CPU median'.padStart(10)}   CPU p25–p75` : ''}`,
  );
  commands.forEach((cmd, i) => {
    const t = times[i];
    const cpu = times.cpu
      ? `   ${ms(median(times.cpu[i])).padStart(10)}   ${iqr(times.cpu[i])}`
      : '';
    console.log(
      `  ${cmd.label.padEnd(20)} ${ms(median(t)).padStart(12)}   ${iqr(t)}, ${range(t)}${cpu}`,
    );
  });
  console.log(
    `  ratios below: ${times.cpu ? 'CPU time' : 'wall time (no hyperfine, no CPU time)'}` +
      `, median over rounds`,
  );
  const run = Object.fromEntries(commands.map((cmd, i) => [cmd.label, measure[i]]));
  return {
    perRound: (f) =>
      median(
        measure[0].map((_, r) =>
          f(Object.fromEntries(Object.entries(run).map(([label, t]) => [label, t[r]]))),
        ),
      ),
  };
}

/** Returns a kustomization folder whose input.yaml is `file`. */
function kustomizationFor(file) {
  const dir = mkdtempSync(join(work, 'kustomize-'));
  cpSync(KUSTOMIZATION, dir, { recursive: true });
  cpSync(file, join(dir, 'input.yaml'));
  return dir;
}

let parsePrintFile;

/**
 * The parse-and-print floor (scripts/parse-print.ts), bundled once per run with the project's yaml
 * and options, to be run by plain node as a user's script would be.
 */
async function parsePrintBundle() {
  if (parsePrintFile) return parsePrintFile;
  parsePrintFile = join(work, 'parse-print.cjs');
  await build({
    entryPoints: [join(ROOT, 'scripts', 'parse-print.ts')],
    outfile: parsePrintFile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  });
  return parsePrintFile;
}

/**
 * Writes scripts/krm-schemas.mjs's list (534 items, in `style`: block, json or json-indented) to
 * the work folder as `name`; returns its path and size in MiB.
 */
function krmSchemasFile(name, style = 'block') {
  const generated = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts', 'krm-schemas.mjs'), '534', style],
    { maxBuffer: 64 * 2 ** 20 },
  );
  if (generated.status !== 0)
    throw new Error(`scripts/krm-schemas.mjs failed: ${String(generated.stderr)}`);
  const file = join(work, name);
  writeFileSync(file, generated.stdout);
  return { file, mib: generated.stdout.length / 2 ** 20 };
}

/**
 * Times kube-graceful on `file` against Node reading the same bytes from stdin, prints both under
 * `title`, and returns the median of the rounds' ratios.
 */
function againstReadingIt(title, file) {
  const READ_STDIN = "let n = 0; process.stdin.on('data', (c) => { n += c.length; })";
  const commands = [
    command('kube-graceful', [process.execPath, CLI], file),
    command('node read stdin', [process.execPath, '-e', READ_STDIN], file),
  ];
  const times = time(commands);
  console.log(`\n${title}`);
  commands.forEach((cmd, i) =>
    console.log(
      `  ${cmd.label.padEnd(18)} ${ms(median(times[i])).padStart(10)}   ` +
        `${iqr(times[i])}, ${range(times[i])}`,
    ),
  );
  return median(times[0].map((t, r) => t / times[1][r]));
}

/** Node's own peak RSS in MiB (`node -e 0`, the median of five runs), measured once a bench run. */
let nodeBaseline;
function nodeBaselineRss() {
  nodeBaseline ??= median(
    [...Array(5)].map(() => peakRss('/dev/null', [process.execPath, '-e', '0'])),
  );
  return nodeBaseline;
}

/** Returns peak RSS in MiB of `kube-graceful < file` (or of `argv < file`), or undefined without
 * GNU time. */
function peakRss(file, argv = [process.execPath, CLI]) {
  if (!gnuTime) return undefined;
  const report = join(work, 'rss.txt');
  const input = openSync(file, 'r');
  const output = openSync('/dev/null', 'w');
  const result = spawnSync('/usr/bin/time', ['-f', '%M', '-o', report, ...argv], {
    stdio: [input, output, 'pipe'],
  });
  closeSync(input);
  closeSync(output);
  if (result.status !== 0)
    throw new Error(
      `${argv.join(' ')} exited ${result.status} on ${file}: ${String(result.stderr)}`,
    );
  return Number(readFileSync(report, 'utf8').trim().split('\n').pop()) / 1024;
}

console.log(
  `kube-graceful bench of ${CLI}: ${RUNS} runs per command, ` +
    `${hyperfine ? 'hyperfine (shell start-up subtracted)' : "Node's timers around spawnSync"}` +
    `, Node ${process.version}`,
);
console.log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' ',
    )} (a busy machine inflates every figure and the spread; the ratios are taken within this run)`,
);
if (!kubectl) console.log('kubectl is not on PATH: the kustomize comparison is skipped.');

const summary = [];
const denseSummary = [];
for (const c of ONLY !== undefined && ONLY !== 'issue9' ? [] : CASES) {
  const file = join(CORPUS, c.file);
  const size = statSync(file).size;
  const commands = [
    command('kube-graceful', [process.execPath, CLI], file),
    ...(kubectl
      ? [command('kubectl kustomize', ['kubectl', 'kustomize', kustomizationFor(file)])]
      : []),
    command('node -e 0', [process.execPath, '-e', '0']),
    command('cat', ['cat', file]),
  ];
  const times = time(commands);
  const med = Object.fromEntries(commands.map((cmd, i) => [cmd.label, median(times[i])]));
  console.log(`\n${c.name} (${c.file}, ${(size / 1024).toFixed(size < 1024 * 100 ? 1 : 0)} KiB)`);
  console.log(`  ${'command'.padEnd(18)} ${'median'.padStart(10)}   spread (p25–p75, min–max)`);
  commands.forEach((cmd, i) => {
    const t = times[i];
    console.log(
      `  ${cmd.label.padEnd(18)} ${ms(med[cmd.label]).padStart(10)}   ${iqr(t)}, ${range(t)}`,
    );
  });
  // Each ratio is taken within a round (the commands run back to back) and the median over the
  // rounds is reported: a round the machine was slow in is slow for both sides of its ratio.
  const run = Object.fromEntries(commands.map((cmd, i) => [cmd.label, times[i]]));
  const perRound = (f) =>
    median(
      run['kube-graceful'].map((_, r) =>
        f(Object.fromEntries(Object.entries(run).map(([label, t]) => [label, t[r]]))),
      ),
    );
  if (c.small) {
    const ratio = perRound((t) => t['kube-graceful'] / t['node -e 0']);
    summary.push([
      `${c.file}: kube-graceful / node -e 0`,
      `${ratio.toFixed(2)}×`,
      `≤ ${TARGETS.smallVsNode}×`,
      verdict(ratio <= TARGETS.smallVsNode),
    ]);
  } else {
    if (kubectl) {
      const speedup = perRound((t) => t['kubectl kustomize'] / t['kube-graceful']);
      summary.push([
        `${c.file}: kubectl kustomize / kube-graceful`,
        `${speedup.toFixed(1)}×`,
        `≥ ${TARGETS.kustomizeVsUs}×`,
        verdict(speedup >= TARGETS.kustomizeVsUs),
      ]);
    } else {
      summary.push([
        `${c.file}: kubectl kustomize / kube-graceful`,
        'n/a',
        `≥ ${TARGETS.kustomizeVsUs}×`,
        'SKIP (no kubectl)',
      ]);
    }
    const ratio = perRound((t) => t['kube-graceful'] / (t['node -e 0'] + t.cat));
    summary.push([
      `${c.file}: kube-graceful / (cat + node -e 0)`,
      `${ratio.toFixed(2)}×`,
      `≤ ${TARGETS.usVsFloor}×`,
      verdict(ratio <= TARGETS.usVsFloor),
    ]);
  }
}

// Issue #16: a big ResourceList of mostly non-workload items (534 items, about 13 MB, as kpt fn
// source writes a package of JSON schemas; generated by scripts/krm-schemas.mjs from the corpus
// CRDs), against Node reading the same bytes from stdin.
if (ONLY === undefined || ONLY === 'dense' || ONLY === 'krm') {
  const { file, mib } = krmSchemasFile('krm-schemas.yaml');
  const ratio = againstReadingIt(
    'big ResourceList: kpt package of JSON schemas ' +
      `(scripts/krm-schemas.mjs, ${mib.toFixed(1)} MiB)`,
    file,
  );
  denseSummary.push([
    'krm-schemas.mjs ResourceList: kube-graceful / node read stdin',
    `${ratio.toFixed(1)}×`,
    `≤ ${DENSE_TARGETS.bigListVsRead}×`,
    verdict(ratio <= DENSE_TARGETS.bigListVsRead),
  ]);
}

// Issue #34 item 1: the same package with every item a flow mapping, as kpt keeps a package's JSON
// files (scripts/krm-schemas.mjs json-indented): against Node reading the same bytes, and its peak
// RSS above `node -e 0` against the input's size.
const flowListSummary = [];
const scalarSummary = [];
if (ONLY === undefined || ONLY === 'dense' || ONLY === 'krm') {
  const { file, mib } = krmSchemasFile('krm-schemas-flow.yaml', 'json-indented');
  const ratio = againstReadingIt(
    `ResourceList of flow items: the same package as indented JSON (${mib.toFixed(1)} MiB)`,
    file,
  );
  flowListSummary.push([
    'flow-item ResourceList: kube-graceful / node read stdin',
    `${ratio.toFixed(1)}×`,
    '≤ 15×',
    verdict(ratio <= 15),
  ]);
  if (gnuTime) {
    const node = nodeBaselineRss();
    const rss = Math.min(peakRss(file), peakRss(file));
    console.log(`  peak RSS ${rss.toFixed(0)} MiB, node -e 0 ${node.toFixed(0)} MiB`);
    flowListSummary.push([
      'flow-item ResourceList: peak RSS above node -e 0 / input size',
      `${((rss - node) / mib).toFixed(1)}×`,
      '≤ 4×',
      verdict(rss - node <= 4 * mib),
    ]);
  } else {
    flowListSummary.push([
      'flow-item ResourceList: peak RSS above node -e 0 / input size',
      'n/a',
      '≤ 4×',
      'SKIP (no /usr/bin/time)',
    ]);
  }
}

// Memory: the large stream repeated 1×, 4× and 16× (every copy a complete set of documents).
if (ONLY === undefined || ONLY === 'issue9') {
  const large = readFileSync(join(CORPUS, 'kube-prometheus-stack-with-crds.yaml'));
  console.log(
    '\npeak RSS of kube-graceful on kube-prometheus-stack-with-crds.yaml repeated (GNU time %M)',
  );
  if (!gnuTime) {
    console.log('  /usr/bin/time is not installed (Debian: apt-get install time): skipped.');
    summary.push([
      'peak RSS at 1× (4.7 MB)',
      'n/a',
      `< ${TARGETS.rssMiB} MiB`,
      'SKIP (no /usr/bin/time)',
    ]);
  } else {
    const sizes = [1, 4, 16].map((times) => {
      const file = join(work, `large-${times}x.yaml`);
      writeFileSync(file, Buffer.concat(Array.from({ length: times }, () => large)));
      const rss = Math.min(peakRss(file), peakRss(file));
      rmSync(file);
      return { times, mib: (large.length * times) / 2 ** 20, rss };
    });
    const base = median([...Array(5)].map(() => peakRss('/dev/null')));
    console.log(
      `  ${'input'.padStart(10)} ${'peak RSS'.padStart(10)} ` +
        `${'above empty input'.padStart(18)} ${'per input MiB'.padStart(14)}`,
    );
    console.log(`  ${'empty'.padStart(10)} ${`${base.toFixed(0)} MiB`.padStart(10)}`);
    for (const s of sizes) {
      const input = `${s.times}× ${s.mib.toFixed(1)} MiB`;
      const above = `${(s.rss - base).toFixed(0)} MiB`;
      console.log(
        `  ${input.padStart(10)} ${`${s.rss.toFixed(0)} MiB`.padStart(10)} ` +
          `${above.padStart(18)} ${((s.rss - base) / s.mib).toFixed(1).padStart(14)}`,
      );
    }
    summary.push([
      'peak RSS at 1× (4.7 MB)',
      `${sizes[0].rss.toFixed(0)} MiB`,
      `< ${TARGETS.rssMiB} MiB`,
      verdict(sizes[0].rss < TARGETS.rssMiB),
    ]);
    // Linear: the growth per input MiB from 4× to 16× is no steeper than from 1× to 4× (with slack
    // for GC).
    const slope = (a, b) => (b.rss - a.rss) / (b.mib - a.mib);
    const [one, four, sixteen] = sizes;
    const linear = slope(four, sixteen) <= slope(one, four) * 1.5 + 0.5;
    summary.push([
      'RSS growth per input MiB, 1×→4× then 4×→16×',
      `${slope(one, four).toFixed(1)}, ${slope(four, sixteen).toFixed(1)}`,
      'linear',
      verdict(linear),
    ]);
  }
}

// Issue #16: workload-dense streams, bookinfo in N namespaces (scripts/gen-dense.mjs).
if (ONLY === undefined || ONLY === 'dense') {
  const dense = Object.fromEntries(
    [100, 400].map((copies) => {
      const file = join(work, `bookinfo-x${copies}.yaml`);
      writeFileSync(file, denseStream(copies));
      return [copies, file];
    }),
  );
  const parsePrint = await parsePrintBundle();

  const commands = [
    command('kube-graceful ×400', [process.execPath, CLI], dense[400]),
    command('kube-graceful ×100', [process.execPath, CLI], dense[100]),
    command('parse+print ×400', [process.execPath, parsePrint], dense[400]),
    // No target: `--diff` diffs document by document (fn/report/diff.ts); one diff of the whole
    // stream took minutes here.
    command('--diff ×400', [process.execPath, CLI, '--diff'], dense[400]),
  ];
  const run = timedCase(
    'bookinfo in 400 and 100 namespaces ' +
      `(2,400 and 600 Deployments; ${mib(dense[400])} and ${mib(dense[100])})`,
    commands,
    RUNS,
  );
  const vsFloor = run.perRound((t) => t['kube-graceful ×400'] / t['parse+print ×400']);
  denseSummary.push([
    'bookinfo ×400: kube-graceful / parse+print with yaml',
    `${vsFloor.toFixed(2)}×`,
    `≤ ${DENSE_TARGETS.vsParsePrint}×`,
    verdict(vsFloor <= DENSE_TARGETS.vsParsePrint),
  ]);
  const growth = run.perRound((t) => t['kube-graceful ×400'] / t['kube-graceful ×100']);
  denseSummary.push([
    'bookinfo ×400 / ×100 (4× the workloads)',
    `${growth.toFixed(2)}×`,
    `≤ ${DENSE_TARGETS.linear}×`,
    verdict(growth <= DENSE_TARGETS.linear),
  ]);

  if (kubectl) {
    const dir = join(work, 'kustomize-dense');
    writeKustomization(dir, 100);
    const kustomize = timedCase(
      '600 Deployments: kube-graceful and kubectl kustomize ' +
        `with one strategic-merge patch per workload kind (${KUSTOMIZE_RUNS} runs)`,
      [
        command('kube-graceful', [process.execPath, CLI], join(dir, 'input.yaml')),
        command('kubectl kustomize', ['kubectl', 'kustomize', dir]),
        // No target: yaml's parse of the same stream, the floor under this target.
        command(
          'parse ×100',
          [process.execPath, parsePrint, '--parse-only'],
          join(dir, 'input.yaml'),
        ),
      ],
      KUSTOMIZE_RUNS,
      0,
    );
    const ratio = kustomize.perRound((t) => t['kube-graceful'] / t['kubectl kustomize']);
    denseSummary.push([
      'bookinfo ×100: kube-graceful / kubectl kustomize',
      `${ratio.toFixed(3)}×`,
      `≤ ${DENSE_TARGETS.vsKustomize}×`,
      verdict(ratio <= DENSE_TARGETS.vsKustomize),
    ]);
    const floor = kustomize.perRound((t) => t['parse ×100'] / t['kubectl kustomize']);
    denseSummary.push([
      'bookinfo ×100: yaml parsing it alone / kubectl kustomize',
      `${floor.toFixed(3)}×`,
      'reported',
      '(the floor under the line above)',
    ]);
  } else {
    denseSummary.push([
      'bookinfo ×100: kube-graceful / kubectl kustomize',
      'n/a',
      `≤ ${DENSE_TARGETS.vsKustomize}×`,
      'SKIP (no kubectl)',
    ]);
  }
}

// Issue #16 item 5: peak RSS (GNU time %M, each the lowest of two runs) on the dense streams and
// the big ResourceList, against Node's own baseline (`node -e 0`, the median of five runs): the
// target is below that baseline plus 4× the input, and growth linear in the input.
if (ONLY === undefined || ONLY === 'dense' || ONLY === 'memory') {
  console.log(
    '\npeak RSS of kube-graceful on bookinfo ×25, ×100, ×400 and the big ResourceList ' +
      '(GNU time %M; each the lowest of two runs)',
  );
  if (!gnuTime) {
    console.log('  /usr/bin/time is not installed (Debian: apt-get install time): skipped.');
    denseSummary.push([
      'peak RSS above `node -e 0` / input size',
      'n/a',
      `< ${DENSE_TARGETS.rssPerInput}×`,
      'SKIP (no /usr/bin/time)',
    ]);
  } else {
    const files = [25, 100, 400].map((copies) => {
      const file = join(work, `bookinfo-x${copies}-rss.yaml`);
      writeFileSync(file, denseStream(copies));
      return [`bookinfo ×${copies}`, file];
    });
    // The same workloads as ResourceLists (issue #34 item 7: the stream and the list alike).
    const lists = [25, 100, 400].map((copies) => {
      const file = join(work, `bookinfo-x${copies}-rss-list.yaml`);
      const items = parseAllDocuments(denseStream(copies))
        .map((d) => d.toJS())
        .filter(Boolean);
      writeFileSync(
        file,
        stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items }),
      );
      return [`bookinfo ×${copies} as a ResourceList`, file];
    });
    const list = krmSchemasFile('krm-schemas-rss.yaml').file;
    const node = nodeBaselineRss();
    const empty = median([...Array(5)].map(() => peakRss('/dev/null')));
    const sizes = [...files, ['ResourceList (krm-schemas.mjs)', list], ...lists].map(
      ([label, file]) => ({
        label,
        file,
        mib: statSync(file).size / 2 ** 20,
        rss: Math.min(peakRss(file), peakRss(file)),
      }),
    );
    console.log(
      `  ${'input'.padStart(38)} ${'peak RSS'.padStart(10)} ${'above node -e 0'.padStart(16)} ` +
        `${'÷ input'.padStart(8)} ${'node -e 0 + 4× input'.padStart(21)}`,
    );
    console.log(`  ${'node -e 0'.padStart(38)} ${`${node.toFixed(0)} MiB`.padStart(10)}`);
    console.log(
      `  ${'kube-graceful, empty input'.padStart(38)} ${`${empty.toFixed(0)} MiB`.padStart(10)} ` +
        `${`${(empty - node).toFixed(0)} MiB`.padStart(16)}`,
    );
    for (const s of sizes) {
      const above = s.rss - node;
      const input = `${s.label} ${s.mib.toFixed(2)} MiB`;
      const perInput = `${(above / s.mib).toFixed(1)}×`;
      const floor = `${(node + 4 * s.mib).toFixed(0)} MiB`;
      console.log(
        `  ${input.padStart(38)} ${`${s.rss.toFixed(0)} MiB`.padStart(10)} ` +
          `${`${above.toFixed(0)} MiB`.padStart(16)} ${perInput.padStart(8)} ${floor.padStart(21)}`,
      );
    }
    for (const s of [sizes[2], sizes[3]]) {
      const perInput = (s.rss - node) / s.mib;
      denseSummary.push([
        `${s.label}: peak RSS above node -e 0 / input size`,
        `${perInput.toFixed(1)}×`,
        `< ${DENSE_TARGETS.rssPerInput}×`,
        verdict(perInput < DENSE_TARGETS.rssPerInput),
      ]);
    }
    const slope = (a, b) => (b.rss - a.rss) / (b.mib - a.mib);
    const [small, mid, big] = sizes;
    const linear = slope(mid, big) <= slope(small, mid) * 1.5 + 0.5;
    denseSummary.push([
      'bookinfo RSS growth per input MiB, ×25→×100 then ×100→×400',
      `${slope(small, mid).toFixed(1)}, ${slope(mid, big).toFixed(1)}`,
      'linear',
      verdict(linear),
    ]);
    // What a ResourceList's run must hold whatever it does: its output (one KRM result per change
    // besides the items), written only once the whole run succeeded (docs/performance.md, "Where
    // item 7 stands").
    const listOutput = spawnSync(process.execPath, [CLI], {
      input: readFileSync(sizes[6].file),
      maxBuffer: 1 << 30,
    }).stdout.length;
    denseSummary.push([
      'bookinfo ×400 as a ResourceList: its output (held until written) / its input',
      `${(listOutput / 2 ** 20 / sizes[6].mib).toFixed(1)}×`,
      'reported',
      'INFO',
    ]);
    // What item 7's figures are made of (docs/performance.md, "Where item 7 stands"): the tool's
    // own start (its bundle, code cache and compiled code) is part of every run's fixed cost before
    // any input is read, and a run with more than 256 KB to parse adds TurboFan's code and zones
    // once (fn/stream/tiering.ts), so the growth from ×100 to ×400, both above that switch, is the
    // one the fixed costs do not blur.
    denseSummary.push([
      'kube-graceful on an empty input: above node -e 0, before any input',
      `${(empty - node).toFixed(0)} MiB`,
      'reported',
      'INFO',
    ]);
    // Issue #34 item 7, the memory target restated: peak RSS grows by at most 4× each input MiB,
    // over a fixed cost of at most 12 MiB above `node -e 0`, for the stream and the ResourceList.
    for (const { kind, from, mid, to } of [
      { kind: 'stream', from: sizes[0], mid: sizes[1], to: sizes[2] },
      { kind: 'ResourceList', from: sizes[4], mid: sizes[5], to: sizes[6] },
    ]) {
      denseSummary.push([
        `bookinfo ${kind}: RSS growth per input MiB (×100→×400, both above the 256 KB switch)`,
        `${slope(mid, to).toFixed(1)}×`,
        'reported',
        'INFO',
      ]);
      const a = from;
      const growth = slope(from, to);
      const fixed = a.rss - node - growth * a.mib;
      denseSummary.push([
        `bookinfo ${kind}: RSS growth per input MiB (×25→×400), fixed cost above node -e 0`,
        `${growth.toFixed(1)}×, ${fixed.toFixed(0)} MiB`,
        '≤ 4×, ≤ 12 MiB',
        verdict(growth <= 4 && fixed <= 12),
      ]);
    }
  }
}

// The container case: the same small chart, through podman as kustomize and kpt run the image.
const containerSummary = [];
if (ONLY === undefined || ONLY === 'container') {
  const small = CASES.find((c) => c.small);
  console.log(
    `\ncontainer: ${small.file} as a ResourceList, ` +
      `podman run --network none --user nobody, ${CONTAINER_RUNS} runs per command`,
  );
  const container = containerCommands(ROOT, work, join(CORPUS, small.file));
  if (container.skip) {
    console.log(`  skipped: ${container.skip}`);
    containerSummary.push([
      'container: podman run kube-graceful / podman run node -e 0',
      'n/a',
      'reported',
      `SKIP (${container.skip})`,
    ]);
  } else {
    const commands = container.commands.map((c) => command(c.label, c.argv, c.stdin));
    const times = time(commands, CONTAINER_RUNS);
    console.log(`  ${container.version}`);
    commands.forEach((cmd, i) => {
      const t = times[i];
      console.log(
        `  ${cmd.label.padEnd(26)} ${ms(median(t)).padStart(10)}   spread (p25–p75) ${iqr(t)}`,
      );
    });
    const rounds = times[0].map((us, r) => ({ us, node: times[1][r] }));
    const ratio = median(rounds.map((r) => r.us / r.node));
    const own = median(rounds.map((r) => r.us - r.node));
    console.log(
      `  the function's own cost inside the container: ${ms(own)} ` +
        '(median over rounds of the difference)',
    );
    containerSummary.push([
      'container: podman run kube-graceful / podman run node -e 0',
      `${ratio.toFixed(2)}×`,
      'reported',
      'INFO',
    ]);
  }
}

// Issue #34 item 2: many objects of a kind an object mutator looks at (ConfigMaps, which Envoy
// Gateway's mutator reads), as a ResourceList of flow items and as a stream with --all-documents.
// Planning each one filtered every object once per object (quadratic); 4x the items must take at
// most 4.5x the time.
const planningSummary = [];
if (ONLY === undefined || ONLY === 'planning') {
  const flowList = (n) =>
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n' +
    Array.from(
      { length: n },
      (_, i) => `- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm${i}}, data: {a: b}}\n`,
    ).join('');
  const blockStream = (n) =>
    Array.from(
      { length: n },
      (_, i) => `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm${i}\ndata:\n  a: b\n`,
    ).join('');
  // A `kind: List` (as kubectl prints one) of bookinfo's workloads: every edit goes into one
  // document, made in one pass (fn/document/splice.ts applySplices; one copy of the List per edit
  // took 7.2 s for 100 copies against 0.8 s for 25).
  const v1List = (copies) =>
    stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: parseAllDocuments(denseStream(copies))
        .map((d) => d.toJS())
        .filter(Boolean),
    });
  const shapes = [
    { what: 'ResourceList of flow ConfigMaps', make: flowList, args: [], n: 5000 },
    { what: 'v1 List of bookinfo copies', make: v1List, args: [], n: 25 },
    {
      what: 'stream of ConfigMaps, --all-documents',
      make: blockStream,
      args: ['--all-documents'],
      n: 12500,
    },
  ];
  for (const { what, make, args, n } of shapes) {
    const files = [n, 4 * n].map((count) => {
      const file = join(work, `planning-${args.length}-${count}.yaml`);
      writeFileSync(file, make(count));
      return file;
    });
    const commands = files.map((file, i) =>
      command(`${i ? 4 * n : n} items`, [process.execPath, CLI, ...args], file),
    );
    const times = time(commands, 3, 1);
    const ratio = median(times[1]) / median(times[0]);
    console.log(
      `\nplanning: ${what}: ${n} items ${ms(median(times[0]))}, ${4 * n} items ` +
        `${ms(median(times[1]))}`,
    );
    planningSummary.push([
      `${what}: time for 4x the items`,
      `${ratio.toFixed(2)}×`,
      '≤ 4.5×',
      ratio <= 4.5 ? 'PASS' : 'FAIL',
    ]);
  }
}

// Issue #34 items 3 and 6: the same workloads as a ResourceList and as a stream (bookinfo ×100,
// the list made the way kpt holds items), and no cliff at the optimizer's switch
// (fn/stream/tiering.ts): the time per input byte just below it against just above.
if (ONLY === undefined || ONLY === 'shapes') {
  const stream = join(work, 'shapes-bookinfo-x100.yaml');
  const list = join(work, 'shapes-bookinfo-x100-list.yaml');
  const streamText = denseStream(100);
  writeFileSync(stream, streamText);
  const items = parseAllDocuments(streamText)
    .map((d) => d.toJS())
    .filter(Boolean);
  writeFileSync(
    list,
    stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items }),
  );
  const pair = [
    command('ResourceList', [process.execPath, CLI], list),
    command('stream', [process.execPath, CLI], stream),
  ];
  const pairTimes = time(pair, 5, 1);
  const listRatio = median(pairTimes[0].map((t, r) => t / pairTimes[1][r]));
  console.log(
    `
bookinfo ×100 (600 Deployments): ResourceList ${ms(median(pairTimes[0]))}, ` +
      `stream ${ms(median(pairTimes[1]))}`,
  );
  planningSummary.push([
    'bookinfo ×100: ResourceList / stream',
    `${listRatio.toFixed(2)}×`,
    '≤ 1.3×',
    listRatio <= 1.3 ? 'PASS' : 'FAIL',
  ]);
  // Meshed Deployments of about 0.3 KB each on both sides of the switch (256 KB of documents).
  const meshed = (count) =>
    'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: mesh\n  labels:\n' +
    '    istio-injection: enabled\n' +
    Array.from(
      { length: count },
      (_, i) =>
        `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-${i}\n` +
        `  namespace: mesh\nspec:\n  selector:\n    matchLabels: {app: app-${i}}\n` +
        `  template:\n    metadata:\n      labels: {app: app-${i}}\n    spec:\n` +
        `      containers:\n      - name: app\n        image: nginx:1.27\n        ports:\n` +
        `        - containerPort: 8080\n`,
    ).join('');
  const sides = [760, 840].map((count) => {
    const file = join(work, `shapes-meshed-${count}.yaml`);
    writeFileSync(file, meshed(count));
    return { count, file, bytes: statSync(file).size };
  });
  const sideTimes = time(
    sides.map((s) => command(`${s.count} meshed`, [process.execPath, CLI], s.file)),
    5,
    1,
  );
  const perByte = sides.map((s, i) => median(sideTimes[i]) / s.bytes);
  const cliff = perByte[0] / perByte[1];
  console.log(
    `meshed Deployments: ${sides[0].count} (${(sides[0].bytes / 1024).toFixed(0)} KB) ` +
      `${ms(median(sideTimes[0]))}, ${sides[1].count} ` +
      `(${(sides[1].bytes / 1024).toFixed(0)} KB) ${ms(median(sideTimes[1]))}`,
  );
  planningSummary.push([
    'time per byte just below the optimizer switch / just above',
    `${cliff.toFixed(2)}×`,
    '≤ 1.2×',
    cliff <= 1.2 ? 'PASS' : 'FAIL',
  ]);
}

// Issue #34 item 5: a meshed Deployment holding one long double-quoted annotation (2 and 8 MiB).
// Time must grow linearly; peak RSS is set against 4x the input and against the project's yaml
// alone parsing and printing the same stream (scripts/parse-print.ts), the floor under it.
if (ONLY === undefined || ONLY === 'scalars') {
  const words = 'lorem ipsum dolor sit amet, consectetur adipiscing elit ';
  const deployment = (mib) =>
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: big\n  annotations:\n' +
    `    example.com/blob: "${words.repeat(Math.ceil((mib * 2 ** 20) / words.length))}"\n` +
    'spec:\n  selector:\n    matchLabels: {app: big}\n  template:\n    metadata:\n' +
    '      labels: {app: big, sidecar.istio.io/inject: "true"}\n    spec:\n' +
    '      containers:\n      - name: app\n        image: nginx:1.27\n        ports:\n' +
    '        - containerPort: 8080\n';
  const parsePrint = await parsePrintBundle();
  const files = [2, 8].map((mib) => {
    const file = join(work, `long-scalar-${mib}.yaml`);
    writeFileSync(file, deployment(mib));
    return { mib: statSync(file).size / 2 ** 20, file };
  });
  const times = time(
    files.map((f) => command(`${f.mib.toFixed(0)} MiB`, [process.execPath, CLI], f.file)),
    3,
    1,
  );
  const growth = median(times[1]) / median(times[0]);
  console.log(
    `\nlong scalar: a meshed Deployment with one double-quoted annotation of ` +
      `${files[0].mib.toFixed(0)} MiB ${ms(median(times[0]))}, ` +
      `${files[1].mib.toFixed(0)} MiB ${ms(median(times[1]))}`,
  );
  scalarSummary.push([
    'long scalar: time for 4x the input',
    `${growth.toFixed(2)}×`,
    '≤ 4.5×',
    verdict(growth <= 4.5),
  ]);
  if (gnuTime) {
    const big = files[1];
    const node = nodeBaselineRss();
    const ours = Math.min(peakRss(big.file), peakRss(big.file));
    const floor = Math.min(
      peakRss(big.file, [process.execPath, parsePrint]),
      peakRss(big.file, [process.execPath, parsePrint]),
    );
    console.log(
      `  peak RSS at ${big.mib.toFixed(0)} MiB: kube-graceful ${ours.toFixed(0)} MiB, ` +
        `yaml parse+print ${floor.toFixed(0)} MiB, node -e 0 ${node.toFixed(0)} MiB`,
    );
    const perInput = (ours - node) / big.mib;
    const floorPerInput = (floor - node) / big.mib;
    scalarSummary.push([
      'long scalar: peak RSS above node -e 0 / input size',
      `${perInput.toFixed(1)}× (yaml alone ${floorPerInput.toFixed(1)}×)`,
      '≤ 4×',
      perInput <= 4
        ? 'PASS'
        : floorPerInput > 4
          ? 'BLOCKED (the yaml library alone needs more)'
          : 'FAIL',
    ]);
  }
}

printTargets('targets (issue #9)', summary);
printTargets('targets (issue #34)', [...flowListSummary, ...planningSummary, ...scalarSummary]);
printTargets('targets (issue #16)', denseSummary);
printTargets('container (issue #18: reported, no target)', containerSummary);

function printTargets(title, rows) {
  if (rows.length === 0) return;
  console.log(`\n${title}`);
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column].length)));
  for (const [what, value, target, result] of rows)
    console.log(
      `  ${what.padEnd(widths[0])}  ${value.padStart(widths[1])}  ` +
        `target ${target.padEnd(widths[2])}  ${result}`,
    );
}
