/**
 * `--report FILE` (issue #7): Helm hides stderr, so the report goes to a file. It holds explain's
 * timeline for the patched output and every change record, and its numbers are the manifest's.
 */
import test from 'ava';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli.ts';
import { corpus } from '../helpers/fixtures.ts';

const seed = ['--max-request', '10', '--buffer', '10'];

test('text report: timeline, derivations and the change list; stdout is still the stream', (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'kg-report-')), 'report.txt');
  const run = runCli(['--report', file, ...seed], corpus('istio-gateway-1.17.8-nlb.yaml'));
  t.is(run.status, 0, run.stderr);
  const report = readFileSync(file, 'utf8');
  t.regex(report, /G = S \+ R \+ B = 180 \+ 10 \+ 10 = 200/);
  t.regex(report, /Patched: ✓ no request fails/);
  t.regex(report, /set spec\.template\.spec\.terminationGracePeriodSeconds: \(absent\) → 200/);
  const gateway = parseAllDocuments(run.stdout)
    .map((d) => d.toJS())
    .find((d) => d?.kind === 'Deployment');
  t.is(
    gateway.spec.template.spec.terminationGracePeriodSeconds,
    200,
    'the report and the manifest agree',
  );
});

test('JSON report by file extension, and KUBE_GRACEFUL_REPORT for the Helm 4 plugin', (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'kg-report-')), 'report.json');
  const run = runCli(seed, corpus('istio-gateway-1.17.8-nlb.yaml'), { KUBE_GRACEFUL_REPORT: file });
  t.is(run.status, 0, run.stderr);
  const report = JSON.parse(readFileSync(file, 'utf8'));
  t.is(report.schema, 'kube-graceful.dev/report/v1');
  t.is(report.explain.schema, 'kube-graceful.dev/explain/v1');
  const grace = report.changes.find(
    (c: { field: string }) => c.field === 'spec.template.spec.terminationGracePeriodSeconds',
  );
  t.is(grace.after, 200);
});

test('a report file that cannot be written is a usage error with nothing on stdout', (t) => {
  const run = runCli(
    ['--report', '/nonexistent-dir/r.txt'],
    corpus('istio-gateway-1.17.8-nlb.yaml'),
  );
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.regex(run.stderr, /cannot write the report "\/nonexistent-dir\/r\.txt": ENOENT/);
});
