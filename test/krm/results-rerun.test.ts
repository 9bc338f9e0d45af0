/**
 * Issue #33 item 8: a run over a ResourceList replaces the results an earlier kube-graceful run
 * wrote (each carries the tag `function: kube-graceful`) instead of adding its own after them, and
 * other functions' results stay as they are; and the results come errors first, then warnings,
 * then infos, as krmResults promises. Run on the kpt package fixture through the real `kpt`.
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, parseDocument } from 'yaml';
import { cliPath, fixturePath } from '../helpers/fixtures.ts';
import { probeMutator } from '../helpers/testMutator.ts';
import { transform } from '../../fn/engine/transform.ts';
import { requireTool } from '../helpers/tools.ts';
import { ONE_POD_LIST } from '../helpers/onePodList.ts';

const kpt = requireTool('kpt');
const FLAGS = ['--kube-version', '1.31'];

/** An earlier function's result, with a comment and YAML 1.1 words that must keep their text. */
const FOREIGN = `results:
# from the first function
- message: checked   # keep this
  severity: info
  tags: {answer: y, mode: 012, mutator: app-graceful}
`;

interface Result {
  message: string;
  severity: 'error' | 'warning' | 'info';
  tags?: Record<string, string>;
}

/** The kpt package fixture in a temporary folder, and that folder. */
function packageCopy(): { dir: string; pkg: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kg-rerun-'));
  const pkg = join(dir, 'pkg');
  cpSync(fixturePath('kpt-package'), pkg, { recursive: true });
  return { dir, pkg };
}

/** The package as a ResourceList, as `kpt fn source` writes it. */
const source = (pkg: string) => execFileSync(kpt, ['fn', 'source', pkg], { encoding: 'utf8' });

/** kube-graceful over a ResourceList on stdin. */
function kubeGraceful(list: string, flags: readonly string[] = FLAGS): string {
  const run = spawnSync(process.execPath, [cliPath(), ...flags], { input: list, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`kube-graceful exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}

/** An earlier KRM function: passes the list through and adds FOREIGN after what is there. */
const foreign = (list: string) => `${list}${FOREIGN}`;

const resultsOf = (list: string) =>
  (parseDocument(list, { version: '1.1' }).toJS() as { results?: Result[] }).results ?? [];
const own = (results: Result[]) => results.filter((r) => r.tags?.['function'] === 'kube-graceful');

test('stdin twice: the second run replaces the first run’s results; a foreign result stays, byte for byte', (t) => {
  const { pkg } = packageCopy();
  const first = kubeGraceful(foreign(source(pkg)));
  const second = kubeGraceful(first);
  t.is(kubeGraceful(second), second, 'a third run changes nothing');

  // The foreign result: first, and its text as it was.
  t.true(second.includes(FOREIGN), second);
  const results = resultsOf(second);
  t.is(results[0]!.message, 'checked');
  t.is(results.length, 1 + own(results).length, 'every other result is kube-graceful’s');

  // Ours are what a run over the patched items alone reports: the first run's are gone.
  const itemsOnly = parseDocument(first);
  itemsOnly.delete('results');
  const fresh = own(resultsOf(kubeGraceful(itemsOnly.toString())));
  t.true(fresh.length > 0);
  t.deepEqual(own(results), fresh);
  t.true(own(resultsOf(first)).some((r) => !fresh.some((f) => f.message === r.message)));
});

test('a foreign result written after ours stays in place, ours after it', (t) => {
  const { pkg } = packageCopy();
  const ours = kubeGraceful(source(pkg));
  t.regex(ours, /\nresults:\n(?:[- ] .*\n)+$/, 'the list ends in a block list of results');
  // The next function adds its result to that list.
  const item = FOREIGN.replace('results:\n', '');
  const output = kubeGraceful(`${ours}${item}`);
  t.true(output.includes(`\n${item}`), 'the foreign result, comments and all');
  const results = resultsOf(output);
  t.is(results.filter((r) => r.message === 'checked').length, 1);
  t.is(results.at(-1 - own(results).length)!.message, 'checked', 'ours come after it');
  t.is(kubeGraceful(output), output);
});

test('kpt fn eval --exec twice: the second run’s results are its own, tagged, each once', (t) => {
  const { dir, pkg } = packageCopy();
  const exec = join(dir, 'kube-graceful.sh');
  writeFileSync(exec, `#!/bin/sh\nexec "${process.execPath}" "${cliPath()}" ${FLAGS.join(' ')}\n`);
  chmodSync(exec, 0o755);
  const runs = ['r1', 'r2'].map((name) => {
    const resultsDir = join(dir, name);
    execFileSync(kpt, ['fn', 'eval', pkg, '--exec', exec, '--results-dir', resultsDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const files = Object.fromEntries(
      readdirSync(pkg).map((file) => [file, readFileSync(join(pkg, file), 'utf8')]),
    );
    const list = parseAllDocuments(
      readFileSync(join(resultsDir, 'results.yaml'), 'utf8'),
    )[0]!.toJS() as {
      items: Array<{ results?: Result[] }>;
    };
    return { files, results: list.items.flatMap((item) => item.results ?? []) };
  });
  t.regex(runs[0]!.files['deployment.yaml']!, /preStop:/);
  t.deepEqual(runs[1]!.files, runs[0]!.files, 'the second run changes no file');
  for (const { results } of runs) {
    t.true(results.length > 0);
    // The tag survives kpt, which keeps a result's tags and drops fields it does not know.
    t.deepEqual(own(results), results);
    t.is(new Set(results.map((r) => JSON.stringify(r))).size, results.length, 'each once');
  }
  t.true(runs[1]!.results.length < runs[0]!.results.length, 'no change to report the second time');
});

test('results come errors first, then warnings, then infos', (t) => {
  // A meshed app on Istio 1.20 and Kubernetes 1.28: the drain settings are written (info, a change)
  // before the preStop that cannot be is reported (warning, a finding).
  const { pkg } = packageCopy();
  const deployment = join(pkg, 'deployment.yaml');
  const text = readFileSync(deployment, 'utf8');
  const meshed = text.replace(
    '      labels:\n        app: web\n',
    '      labels:\n        app: web\n        sidecar.istio.io/inject: "true"\n',
  );
  t.not(meshed, text);
  writeFileSync(deployment, meshed);
  const results = resultsOf(
    kubeGraceful(source(pkg), ['--istio-version', '1.20', '--kube-version', '1.28']),
  );
  const severities = results.map((r) => r.severity);
  t.true(severities.includes('warning') && severities.includes('info'), severities.join(' '));
  const rank = { error: 0, warning: 1, info: 2 };
  t.deepEqual(
    severities,
    [...severities].sort((a, b) => rank[a] - rank[b]),
  );
});

/** A list whose one Pod the probe mutator patches, before its `results`. */
const HEAD = ONE_POD_LIST;

/** One result of an earlier kube-graceful run, as a block list item at `indent`. */
const earlierOwn = (message: string, indent = '') =>
  `${indent}- message: ${message}\n${indent}  severity: info\n` +
  `${indent}  tags:\n${indent}    mutator: app-graceful\n${indent}    function: kube-graceful\n`;

/** The output's results, and whether the foreign ones' text is in it as it was. */
function rerun(results: string, mutators = [probeMutator]) {
  const output = transform(`${HEAD}${results}`, { mutators }).output;
  return { output, results: resultsOf(output) };
}

test('an earlier run’s results between foreign ones are taken out; the foreign lines stay', (t) => {
  const between = '# checked by the first function\n- message: first\n  severity: warning\n';
  const after = '- message: last   # keep\n  tags: {answer: y}\n';
  const { output, results } = rerun(
    `results:\n${earlierOwn('old one')}${between}${earlierOwn('old two')}${after}`,
  );
  t.true(output.includes(`results:\n${between}${after}- message: probe grace\n`), output);
  t.deepEqual(
    results.slice(0, 2).map((r) => r.message),
    ['first', 'last'],
  );
  t.false(results.some((r) => r.message.startsWith('old')));
  t.true(own(results).length > 0);
  t.is(own(results).length, results.length - 2);
});

test('an indented list, CRLF, a flow list: the earlier run’s results go, the others stay', (t) => {
  const indented = rerun(`results:\n${earlierOwn('old', '  ')}  - message: kept\n`);
  t.true(indented.output.includes('results:\n  - message: kept\n  - message: probe grace\n'));

  const crlf = rerun(`results:\n${earlierOwn('old')}- message: kept\n`.replace(/\n/g, '\r\n'));
  t.deepEqual(
    crlf.results.slice(0, 1).map((r) => r.message),
    ['kept'],
  );
  t.false(crlf.results.some((r) => r.message === 'old'));

  // A flow list is set whole (as a tree edit would), with the same data.
  const flow = rerun(
    'results: [{message: old, tags: {function: kube-graceful}}, {message: kept}]\n',
  );
  t.deepEqual(flow.results[0], { message: 'kept' });
  t.false(flow.results.some((r) => r.message === 'old'));
});

test('nothing to report now: an earlier run’s results still go', (t) => {
  const { output, results } = rerun(`results:\n${earlierOwn('old')}`, []);
  t.deepEqual(results, []);
  t.true(output.startsWith(HEAD), 'the items as they were');
});
