/**
 * The HTML page opens with what a reader needs first (issue #29 item 8): the input's name, the
 * tool's version, the settings, and a verdict table whose every row links to its workload's
 * picture, each picture linking back; on a many-workload chart, through the real CLI.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { runCliAsync } from '../helpers/cli.ts';
import { fixturePath } from '../helpers/fixtures.ts';

const ARGO_CD = fixturePath('corpus', 'argo-cd.yaml');

test('verdict table first, every row linked to its picture and back; input, version, settings', async (t) => {
  const run = await runCliAsync(['explain', '-o', 'html', ARGO_CD, '--max-request', '30'], '');
  t.is(run.status, 0, run.stderr);
  const page = run.stdout;
  const table = page.indexOf('<table id="verdicts">');
  t.true(table > 0);
  t.true(table < page.indexOf('<figure'), 'the table comes before the pictures');
  t.true(page.includes(`<dt>input</dt><dd><code>${ARGO_CD}</code></dd>`));
  t.regex(page, /<dt>kube-graceful<\/dt><dd>\d+\.\d+\.\d+ \([0-9a-f]{12}(-dirty)?\)<\/dd>/);
  t.regex(
    page,
    /Kubernetes 1\.31 \(the oldest kubelet\).*timing\.maxRequestSeconds \(flag --max-request\)/,
  );
  const rows = [...page.matchAll(/<tr><td><a href="#(workload-\d+)">([^<]+)<\/a><\/td>/g)];
  const figures = [...page.matchAll(/<figure id="(workload-\d+)">/g)].map((m) => m[1]);
  t.true(rows.length > 5, 'a many-workload chart');
  t.deepEqual(
    rows.map((r) => r[1]),
    figures,
  );
  t.is((page.match(/<a href="#verdicts">back to the table<\/a>/g) ?? []).length, rows.length);
  const json = JSON.parse((await runCliAsync(['explain', '-o', 'json', ARGO_CD], '')).stdout) as {
    workloads: unknown[];
  };
  t.is(rows.length, json.workloads.length);
});

test('the page names stdin as its input when the stream came on stdin', async (t) => {
  const run = await runCliAsync(['explain', '-o', 'html'], readFileSync(ARGO_CD, 'utf8'));
  t.true(run.stdout.includes('<dt>input</dt><dd><code>&lt;stdin&gt;</code></dd>'));
});
