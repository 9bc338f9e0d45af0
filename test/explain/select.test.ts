/**
 * explain for a busy reader (issue #29 item 6): `--summary` is one line per workload, and
 * `--workload`, `--kind`, `--in-namespace` keep the workloads asked for in every format, the header
 * counted over them; a selection that matches nothing is a usage error, never an empty report.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { runCliAsync } from '../helpers/cli.ts';
import { runInProcess } from './run.ts';

const BOOKINFO = 'test/fixtures/corpus/istio-sample-kube-bookinfo.yaml';
const MESHED = ['--namespace', 'default', '--istio-injected-namespaces', 'default'];
const DEPLOYMENTS = [
  'details-v1',
  'ratings-v1',
  'reviews-v1',
  'reviews-v2',
  'reviews-v3',
  'productpage-v1',
];

test('--summary: the header, then one line per workload with both verdicts and its numbers', async (t) => {
  const run = await runInProcess(['explain', '--summary', BOOKINFO, ...MESHED]);
  t.is(run.exitCode, 0, run.stderr.join('\n'));
  const lines = run.stdout.trimEnd().split('\n');
  t.regex(
    lines[0]!,
    /^kube-graceful explain: 6 workloads\. As written, 6 lose requests; patched, none/,
  );
  const rows = lines.slice(2);
  t.deepEqual(
    rows.map((row) => /Deployment default\/(\S+)/.exec(row)?.[1]),
    DEPLOYMENTS,
  );
  for (const row of rows)
    t.regex(row, /✗ \d failure windows? +→ +✓ no request fails +S 5 s, G 30 s/);
});

test('--workload and --kind select in text, JSON, SVG and HTML; the header counts the selection', async (t) => {
  const selection = ['--workload', 'reviews-v1,ratings-v1', '--kind', 'deployment'];
  const text = await runInProcess(['explain', BOOKINFO, ...selection]);
  t.regex(text.stdout, /^kube-graceful explain: 2 workloads\. /);
  t.true(text.stdout.includes('Deployment reviews-v1'));
  t.false(text.stdout.includes('Deployment details-v1'));
  const json = JSON.parse(
    (await runInProcess(['explain', '-o', 'json', BOOKINFO, ...selection])).stdout,
  ) as { workloads: Array<{ resource: { name: string } }>; summary: { workloads: number } };
  t.deepEqual(
    json.workloads.map((w) => w.resource.name),
    ['ratings-v1', 'reviews-v1'],
  );
  t.is(json.summary.workloads, 2);
  for (const format of ['svg', 'html'] as const) {
    const page = (await runInProcess(['explain', '-o', format, BOOKINFO, ...selection])).stdout;
    t.true(page.includes('reviews-v1'), format);
    t.false(page.includes('productpage-v1'), format);
  }
});

test('--in-namespace selects by namespace, apart from the --namespace setting', async (t) => {
  const inDefault = await runInProcess([
    'explain',
    '--summary',
    BOOKINFO,
    ...MESHED,
    '--in-namespace',
    'default',
  ]);
  t.regex(inDefault.stdout, /^kube-graceful explain: 6 workloads\./);
  const elsewhere = await runInProcess(['explain', BOOKINFO, ...MESHED, '--in-namespace', 'prod']);
  t.is(elsewhere.exitCode, 2);
  t.is(elsewhere.stdout, '');
});

test('a selection that matches nothing, and --summary with JSON, are usage errors', async (t) => {
  const none = await runInProcess(['explain', BOOKINFO, '--workload', 'reviews']);
  t.is(none.exitCode, 2);
  t.is(none.stdout, '');
  t.regex(
    none.stderr.join('\n'),
    /no explained workload matches the selection \(--workload reviews\)/,
  );
  // What to write instead, from the real CLI (its stderr has the hint).
  const cli = await runCliAsync(
    ['explain', '--workload', 'reviews'],
    readFileSync(BOOKINFO, 'utf8'),
  );
  t.is(cli.status, 2);
  t.regex(cli.stderr, /how to fix: the workloads explained are: .*Deployment reviews-v1/);
  const json = await runInProcess(['explain', '--summary', '-o', 'json', BOOKINFO]);
  t.is(json.exitCode, 2);
  t.is(json.stdout, '');
  t.regex(json.stderr.join('\n'), /--summary is a text or markdown view/);
});

test('--summary -o markdown: the header and the verdict table only', async (t) => {
  const run = await runInProcess(['explain', '--summary', '-o', 'markdown', BOOKINFO, ...MESHED]);
  t.true(run.stdout.includes('| workload | as written | patched |'));
  t.false(run.stdout.includes('### '));
  t.is(run.stdout.split('\n').filter((l) => l.startsWith('| Deployment')).length, 6);
});
