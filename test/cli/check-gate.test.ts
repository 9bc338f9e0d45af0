/**
 * `check` as a CI gate (issue #29 items 1, 2 and 4): folders read recursively, nothing read is a
 * failure, and findings accepted on purpose (`--ignore`, `kube-graceful.dev/ignore`) are counted,
 * not printed. Runs the bundled CLI (`npm run build` first). The input is the quickstart demo
 * chart's render, whose gateway has a warning (LB_DEREGISTRATION_OUTLIVES_GRACE).
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCliAsync } from '../helpers/cli.ts';
import { ROOT } from '../helpers/fixtures.ts';

const DEMO = readFileSync(join(ROOT, 'examples', 'manifests', 'graceful-demo.yaml'), 'utf8');
const WARNING = 'LB_DEREGISTRATION_OUTLIVES_GRACE';
const verdict = (stdout: string) => stdout.trimEnd().split('\n').at(-1)!;

/** The demo with its gateway Deployment annotated `kube-graceful.dev/ignore: VALUE`. */
function demoIgnoring(value: string): string {
  const head = 'kind: Deployment\nmetadata:\n  name: demo-gateway\n';
  if (!DEMO.includes(head)) throw new Error('the example changed');
  return DEMO.replace(head, `${head}  annotations:\n    kube-graceful.dev/ignore: ${value}\n`);
}

test('a folder is the manifest files under it, recursively and in order; others are skipped', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kg-check-dir-'));
  const [gateway, job] = DEMO.split(/^(?=# Source: graceful-demo\/templates\/job)/m);
  t.truthy(job, 'the demo has its Job last');
  mkdirSync(join(dir, 'b', 'nested'), { recursive: true });
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, 'b', 'nested', 'job.yml'), job!);
  writeFileSync(join(dir, 'a.yaml'), gateway!);
  writeFileSync(join(dir, 'notes.txt'), 'kind: Deployment\n');
  writeFileSync(join(dir, '.git', 'x.yaml'), 'not: read\n');
  writeFileSync(join(dir, 'values.json'), '{"replicas": 2}\n'); // JSON, read, but not an object
  symlinkSync(dir, join(dir, 'b', 'loop')); // a link to a folder is not followed
  const [run, empty] = await Promise.all([
    runCliAsync(['check', dir], ''),
    runCliAsync(['check', join(dir, '.git', '..', 'b', 'nested', 'none'), '--allow-empty'], ''),
  ]);
  t.is(run.status, 1, run.stderr);
  t.regex(
    run.stdout,
    new RegExp(`^change: job-sidecar-quit ${dir}/b/nested/job\\.yml:\\d+:\\d+ Job `, 'm'),
  );
  t.regex(run.stdout, new RegExp(`^warning: ${WARNING} ${dir}/a\\.yaml:\\d+ `, 'm'));
  t.regex(verdict(run.stdout), /; read 2 workloads in 4 documents$/);
  t.is(empty.status, 2, 'a path that does not exist is still a usage error');
});

test('nothing read fails: empty stdin, a package.json, an empty folder; --allow-empty passes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kg-check-empty-'));
  const runs = await Promise.all([
    runCliAsync(['check'], ''),
    runCliAsync(['check'], '# helm template failed: only a comment\n---\n'),
    runCliAsync(['check', join(ROOT, 'package.json')], ''),
    runCliAsync(['check', dir], ''),
    runCliAsync(['check', '--allow-empty'], ''),
    runCliAsync(['check', dir, '--allow-empty'], ''),
  ]);
  for (const run of runs.slice(0, 4)) {
    t.is(run.status, 1, run.stdout + run.stderr);
    t.regex(
      verdict(run.stdout),
      new RegExp(
        '^kube-graceful check: FAIL .*; read 0 workloads in 0 documents: ' +
          'no Kubernetes object in the input .*--allow-empty',
      ),
    );
  }
  for (const run of runs.slice(4)) {
    t.is(run.status, 0, run.stdout + run.stderr);
    t.regex(verdict(run.stdout), /^kube-graceful check: ok .*; read 0 workloads in 0 documents$/);
  }
});

test('--ignore CODE: the finding is counted, not printed, and does not fail --fail-on warning', async (t) => {
  const [plain, ignored, twice, unknown] = await Promise.all([
    runCliAsync(['check', '--fail-on', 'warning'], DEMO),
    runCliAsync(['check', '--fail-on', 'error', '--ignore', `${WARNING},GATEWAY_NO_PDB`], DEMO),
    runCliAsync(
      ['check', '--fail-on', 'warning', '--ignore', 'JOB_NO_MESH', '--ignore', WARNING],
      DEMO,
    ),
    runCliAsync(['check', '--ignore', 'LB_DEREGISTRATION_TOO_SHOR'], DEMO),
  ]);
  t.true(plain.stdout.includes(`warning: ${WARNING} `));
  t.regex(verdict(plain.stdout), /findings: 0 error, 1 warning, /);
  t.is(ignored.status, 0, ignored.stdout);
  t.false(ignored.stdout.includes(`warning: ${WARNING}`));
  t.regex(
    verdict(ignored.stdout),
    new RegExp(`findings: 0 error, 0 warning, .*; ignored: 2 \\(${WARNING}, GATEWAY_NO_PDB\\)`),
    'an ignored info finding is counted too',
  );
  t.regex(verdict(twice.stdout), new RegExp(`; ignored: 1 \\(${WARNING}\\)`), 'repeatable');
  t.is(twice.status, 1, 'the pending changes still fail');
  t.is(unknown.status, 2);
  t.regex(unknown.stderr, /--ignore: not a finding code: LB_DEREGISTRATION_TOO_SHOR/);
});

test('kube-graceful.dev/ignore on the object accepts its findings everywhere; a bad code is an error', async (t) => {
  const [check, transform, bad] = await Promise.all([
    runCliAsync(['check', '--fail-on', 'warning'], demoIgnoring(WARNING)),
    runCliAsync([], demoIgnoring(` "${WARNING}, GATEWAY_NO_PDB"`)),
    runCliAsync(['check'], demoIgnoring('"LB_DEREGISTRATION_OUTLIVES_GRAC"')),
  ]);
  t.false(check.stdout.includes(`warning: ${WARNING}`));
  t.regex(verdict(check.stdout), new RegExp(`0 warning, .*; ignored: 1 \\(${WARNING}\\)`));
  t.is(transform.status, 0);
  t.false(transform.stderr.includes(WARNING), 'the transform no longer warns either');
  t.true(transform.stdout.includes('kube-graceful.dev/ignore'), 'and keeps the annotation');
  t.is(bad.status, 1);
  t.regex(
    bad.stdout,
    new RegExp(
      '^error: BAD_ANNOTATION \\S+ Deployment demo-gateway ' +
        'metadata\\.annotations\\["kube-graceful\\.dev/ignore"\\]: ' +
        '.*not a finding code: LB_DEREGISTRATION_OUTLIVES_GRAC',
      'm',
    ),
  );
});

test('--color: always colours the line heads and the verdict; never and a pipe do not', async (t) => {
  const [always, never, auto] = await Promise.all([
    runCliAsync(['check', '--color', 'always'], DEMO),
    runCliAsync(['check', '--color', 'never'], DEMO),
    runCliAsync(['check'], DEMO),
  ]);
  t.true(always.stdout.includes('\u001b[36mchange:\u001b[0m '));
  t.true(always.stdout.includes('\u001b[33mwarning:\u001b[0m '));
  t.true(always.stdout.includes('kube-graceful check: \u001b[31mFAIL\u001b[0m '));
  t.false(never.stdout.includes('\u001b'));
  t.false(auto.stdout.includes('\u001b'));
  t.is(never.stdout, auto.stdout);
});
