/**
 * `kube-graceful check` (issue #7): a CI gate over files and a KRM validator. Runs the bundled CLI
 * (`npm run build` first), and kpt for real (`kpt fn eval DIR --exec "<cli> check"`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import test from 'ava';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { readResourceList } from '../../fn/krm/resourceList.ts';
import { runCli } from '../helpers/cli.ts';
import { cliPath, corpus, fixturePath, ROOT } from '../helpers/fixtures.ts';
import { HANG_GUARD_MS } from '../helpers/hangGuard.ts';
import { requireTool } from '../helpers/tools.ts';

const NLB = relative(ROOT, fixturePath('corpus', 'istio-gateway-1.17.8-nlb.yaml'));
const SEED = ['--max-request', '10', '--buffer', '10'];
const lines = (text: string) => text.split('\n').filter(Boolean);
const fileLine = (file: string, line: number) =>
  readFileSync(join(ROOT, file), 'utf8').split('\n')[line - 1] ?? '';
/** Only indentation and list dashes stand before the column: it is where the key or item starts. */
const startsAt = (text: string, column: number) => /^[\s-]*\S$/.test(text.slice(0, column));

test('non-compliant input: exit 1, one line per pending change with file:line, resource and field', (t) => {
  const run = runCli(['check', NLB, ...SEED], '');
  t.is(run.status, 1, run.stderr);
  const changes = lines(run.stdout).filter((l) => l.startsWith('change: '));
  t.is(changes.length, 4);
  const expectations: Array<[string, RegExp]> = [
    ['spec.template.spec.terminationGracePeriodSeconds', /^\s{4}spec:/],
    ['spec.template.metadata.annotations["proxy.istio.io/config"]', /proxy\.istio\.io\/config:/],
    [
      'spec.template.spec.containers[name=istio-proxy].env[name=MINIMUM_DRAIN_DURATION].value',
      /^\s+env:/,
    ],
  ];
  for (const [field, key] of expectations) {
    const line = changes.find((l) => l.includes(` ${field}: `));
    t.truthy(line, field);
    const match = new RegExp(
      `^change: gateway-drain (\\S+?):(\\d+):(\\d+) ` +
        'Deployment istio-system/istio-public-ingressgateway ',
    ).exec(line!);
    t.truthy(match, line);
    t.is(match![1], NLB);
    const text = fileLine(NLB, Number(match![2]));
    t.regex(text, key, `${field} points at the field (or the object that would hold it)`);
    t.true(startsAt(text, Number(match![3])), `${field}: the column is where the key starts`);
  }
  t.regex(
    run.stdout,
    /kube-graceful check: FAIL \(--fail-on change\): 4 fields in 1 workload would change/,
  );
});

test('compliant input (the patched output): exit 0, no change lines', (t) => {
  const patched = runCli(SEED, corpus('istio-gateway-1.17.8-nlb.yaml'));
  t.is(patched.status, 0, patched.stderr);
  const dir = mkdtempSync(join(tmpdir(), 'kg-check-'));
  const file = join(dir, 'patched.yaml');
  writeFileSync(file, patched.stdout);
  const run = runCli(['check', file, ...SEED], '');
  t.is(run.status, 0, run.stdout);
  t.false(run.stdout.includes('change: '));
  t.regex(run.stdout, /kube-graceful check: ok \(--fail-on change\): nothing would change/);
  t.is(
    runCli(['check', file, ...SEED, '--fail-on', 'warning'], '').status,
    0,
    'and no warning either',
  );
});

test('--fail-on error: pending changes are listed but pass', (t) => {
  const run = runCli(['check', NLB, ...SEED, '--fail-on', 'error'], '');
  t.is(run.status, 0);
  t.is(lines(run.stdout).filter((l) => l.startsWith('change: ')).length, 4);
  t.regex(run.stdout, /check: ok \(--fail-on error\)/);
});

test('--fail-on error still fails on an error finding, which names file:line and resource', (t) => {
  const run = runCli(
    ['check', NLB, '--max-request', '0', '--buffer', '0', '--fail-on', 'error'],
    '',
  );
  t.is(run.status, 1);
  t.regex(
    run.stdout,
    new RegExp(
      `^error: PRESTOP_NOT_BELOW_GRACE ${NLB.replace(/[.]/g, '\\.')}:\\d+ ` +
        `Deployment istio-system/istio-public-ingressgateway: `,
      'm',
    ),
  );
});

test('--fail-on warning fails on warnings that change and error let pass', (t) => {
  const file = relative(ROOT, fixturePath('corpus', 'ingress-nginx.yaml'));
  const args = [
    'check',
    file,
    '--istio-injected-namespaces',
    'ingress-nginx',
    '--job-mode',
    'wrap',
    '--app-mode',
    'off',
    '--gateway-mode',
    'off',
    '--ingress-nginx-mode',
    'off',
  ];
  const lenient = runCli(args, '');
  t.is(lenient.status, 0, lenient.stdout);
  t.is(runCli([...args, '--fail-on', 'error'], '').status, 0);
  const strict = runCli([...args, '--fail-on', 'warning'], '');
  t.is(strict.status, 1);
  const warning = lines(strict.stdout).find((l) => l.startsWith('warning: JOB_ENTRYPOINT_UNKNOWN'));
  t.truthy(warning);
  const match = new RegExp(
    String.raw`^warning: JOB_ENTRYPOINT_UNKNOWN (\S+?):(\d+):(\d+) Job ` +
      String.raw`ingress-nginx\/ingress-nginx-admission-create ` +
      String.raw`spec\.template\.spec\.containers\[name=create\]\.command: `,
  ).exec(warning!);
  t.truthy(match, warning);
  t.regex(
    fileLine(file, Number(match![2])),
    /- name: create/,
    'no command: the line of the container',
  );
});

test('several files and stdin are one stream; each line names its own file and line', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kg-check-'));
  // No trailing newline and no leading `---`: the files must still be separate documents.
  const first = join(dir, 'first.yaml');
  writeFileSync(first, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}');
  const run = runCli(
    [
      'check',
      first,
      '-',
      NLB,
      '--namespace',
      'default',
      '--istio-injected-namespaces',
      'default',
      ...SEED,
    ],
    corpus('istio-sample-httpbin-httpbin.yaml'),
  );
  t.is(run.status, 1, run.stderr);
  const httpbin = lines(run.stdout).find((l) =>
    l.includes(
      'Deployment default/httpbin spec.template.spec.containers[name=httpbin].lifecycle.preStop',
    ),
  );
  t.regex(httpbin ?? '', /^change: app-graceful <stdin>:(\d+):(\d+) /);
  const stdinLine = Number(/<stdin>:(\d+)/.exec(httpbin!)![1]);
  t.regex(
    corpus('istio-sample-httpbin-httpbin.yaml').split('\n')[stdinLine - 1]!,
    /- image: /,
    'the container that gets the preStop',
  );
  t.true(
    lines(run.stdout).some((l) => l.startsWith(`change: gateway-drain ${NLB}:113:5 `)),
    'the NLB file keeps its own line numbers',
  );
});

test('bad input exits 2 with nothing on stdout', (t) => {
  const run = runCli(['check', 'no-such-file.yaml'], '');
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.regex(run.stderr, /cannot read no-such-file\.yaml/);
});

const KRM_LIST = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web # keep me
    namespace: shop
    annotations:
      internal.config.kubernetes.io/path: deployment.yaml
  spec:
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - name: web
          image: nginx:1.27
          ports: [{containerPort: 8080}]
`;

test('KRM validator on stdin: items byte-identical, results appended, exit 1 on a pending change', (t) => {
  const run = runCli(['check'], KRM_LIST);
  t.is(run.status, 1, run.stderr);
  t.true(run.stdout.startsWith(KRM_LIST.slice(0, KRM_LIST.indexOf('items:'))));
  const before = readResourceList(KRM_LIST);
  const after = readResourceList(run.stdout);
  t.deepEqual(
    after.items.map((i) => i.doc.text),
    before.items.map((i) => i.doc.text),
    'items unchanged, byte for byte',
  );
  const results = (
    parse(run.stdout) as {
      results: Array<{ severity: string; field?: { path: string }; file?: { path: string } }>;
    }
  ).results;
  const pending = results.find(
    (r) => r.field?.path === 'spec.template.spec.containers[name=web].lifecycle.preStop',
  );
  t.is(pending?.severity, 'error');
  t.is(pending?.file?.path, 'deployment.yaml');
  t.regex(run.stderr, /^change: app-graceful deployment\.yaml Deployment shop\/web /m);
  const lenient = runCli(['check', '--fail-on', 'error'], KRM_LIST);
  t.is(lenient.status, 0);
  t.is(
    (
      parse(lenient.stdout) as { results: Array<{ field?: { path: string }; severity: string }> }
    ).results.find((r) => r.field?.path?.endsWith('preStop'))?.severity,
    'info',
  );
});

function kptPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kg-kpt-check-'));
  cpSync(fixturePath('kpt-package'), dir, { recursive: true });
  return dir;
}

function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

test('kpt fn eval --exec "<cli> check" validates: files unchanged, results present, non-zero exit', (t) => {
  const kpt = requireTool('kpt');
  const dir = kptPackage();
  const before = snapshot(dir);
  const results = mkdtempSync(join(tmpdir(), 'kg-kpt-results-'));
  // kpt splits --exec on spaces: the subcommand and its flags reach the program as arguments.
  const run = spawnSync(
    kpt,
    ['fn', 'eval', dir, '--exec', `${cliPath()} check`, '--results-dir', results],
    { encoding: 'utf8', timeout: HANG_GUARD_MS },
  );
  t.not(run.status, 0, run.stderr);
  t.deepEqual(snapshot(dir), before, 'a validator changes no file');
  const list = parse(readFileSync(join(results, 'results.yaml'), 'utf8')) as {
    items: Array<{
      exitCode: number;
      results: Array<{ severity: string; field?: { path: string }; file?: { path: string } }>;
    }>;
  };
  const fn = list.items[0]!;
  t.is(fn.exitCode, 1);
  t.true(
    fn.results.some(
      (r) =>
        r.severity === 'error' &&
        r.field?.path === 'spec.template.spec.containers[name=web].lifecycle.preStop' &&
        r.file?.path === 'deployment.yaml',
    ),
  );
});

test('kpt fn eval --exec "<cli> check --fail-on error" passes a package that only has pending changes', (t) => {
  const kpt = requireTool('kpt');
  const dir = kptPackage();
  const before = snapshot(dir);
  execFileSync(kpt, ['fn', 'eval', dir, '--exec', `${cliPath()} check --fail-on error`], {
    encoding: 'utf8',
    stdio: 'pipe',
    timeout: HANG_GUARD_MS,
  });
  t.deepEqual(snapshot(dir), before);
  t.pass();
});

test('KRM validator: pending changes become error results and come first with the error findings', (t) => {
  const items = parseAllDocuments(corpus('istio-gateway-1.17.8-nlb.yaml'))
    .map((d) => d.toJS())
    .filter(Boolean);
  const list = stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items });
  const run = runCli(['check', '-', '--max-request', '0', '--buffer', '0'], list);
  t.is(run.status, 1, run.stderr);
  const results = (
    parse(run.stdout) as {
      results: Array<{
        severity: string;
        message: string;
        field?: { path: string };
        tags?: Record<string, string>;
      }>;
    }
  ).results;
  const changes = results.filter((r) => r.message.startsWith('would set '));
  t.is(changes.length, 4);
  t.true(changes.every((r) => r.severity === 'error'));
  t.truthy(
    results.find((r) => r.tags?.['code'] === 'PRESTOP_NOT_BELOW_GRACE' && r.severity === 'error'),
  );
  const firstInfo = results.findIndex((r) => r.severity === 'info');
  t.true(
    firstInfo === -1 || results.slice(firstInfo).every((r) => r.severity === 'info'),
    'errors before infos',
  );
  t.deepEqual(
    readResourceList(run.stdout).items.map((i) => i.doc.text),
    readResourceList(list).items.map((i) => i.doc.text),
  );
});
