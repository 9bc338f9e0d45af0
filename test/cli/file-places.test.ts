/**
 * Over several files, every message names `file:line:column` of the file, not the line in the
 * joined stream (issue #28 item 4: "document 10, line 244" was broken.yaml line 28); config and
 * annotation typos get "did you mean …", an unquoted version "quote it".
 */
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliAsync } from '../helpers/cli.ts';
import { fixturePath } from '../helpers/fixtures.ts';

const GATEWAY = fixturePath('corpus', 'istio-gateway-1.30.3-nlb.yaml');
const dir = mkdtempSync(join(tmpdir(), 'kg-file-places-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const deployment = (annotations: string, container: string) =>
  'apiVersion: apps/v1\n' +
  'kind: Deployment\n' +
  'metadata:\n' +
  '  name: web\n' +
  `  annotations:\n${annotations}` +
  'spec:\n' +
  '  template:\n' +
  '    spec:\n' +
  '      containers:\n' +
  `${container}`;

// Line 18, column 1: a tab where the container's fields are indented.
const BROKEN = file(
  'broken.yaml',
  "# a second document first, so the error is not in the file's first one\n" +
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n' +
    deployment('    a: b\n', '      - name: app\n        image: app:1\n\tports: []\n'),
);
// Line 11, column 5: the annotation's key.
const TYPO = file(
  'typo.yaml',
  '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n' +
    deployment(
      '    kube-graceful.dev/max-requets: "5"\n',
      '      - name: app\n        image: app:1\n',
    ),
);

test('a YAML error in the second file names that file, its line and column, in every command', async (t) => {
  const runs = await Promise.all(
    [[], ['check'], ['explain'], ['patches']].map((command) =>
      runCliAsync([...command, GATEWAY, BROKEN], ''),
    ),
  );
  for (const run of runs) {
    t.is(run.status, 2, run.stderr);
    t.is(run.stdout, '');
    t.regex(
      run.stderr,
      new RegExp(`^kube-graceful: E_PARSE: ${BROKEN}:18:1 \\(Deployment web\\): `),
    );
    t.notRegex(run.stderr, /document \d+|line \d+/, 'no place in the joined stream');
  }
});

test("stdin alone keeps the stream's document and line: there is no file to name", async (t) => {
  const run = await runCliAsync(['check'], deployment('    a: b\n', '      - name: app\n\tx: 1\n'));
  t.is(run.status, 2);
  t.regex(
    run.stderr,
    /^kube-graceful: E_PARSE: document 1 \(Deployment web\), line 12, column 1: /,
  );
});

test('an annotation typo names its file:line:column and the annotation meant', async (t) => {
  const [transform, check, patches] = await Promise.all([
    runCliAsync([GATEWAY, TYPO], ''),
    runCliAsync(['check', GATEWAY, TYPO], ''),
    runCliAsync(['patches', GATEWAY, TYPO], ''),
  ]);
  const expected = new RegExp(
    `^error: BAD_ANNOTATION ${TYPO}:11:5 Deployment web ` +
      String.raw`metadata\.annotations\["kube-graceful\.dev/max-requets"\]: ` +
      String.raw`kube-graceful\.dev/max-requets: unknown annotation ` +
      String.raw`\(did you mean kube-graceful\.dev/max-request\?\)`,
    'm',
  );
  t.is(transform.status, 1);
  t.regex(transform.stderr, expected);
  t.is(check.status, 1);
  t.regex(check.stdout, expected);
  t.is(patches.status, 1);
  t.regex(patches.stderr, expected);
});

test('config typos name file:line:column with did-you-mean; an unquoted version says quote it', async (t) => {
  const typed = file(
    'cfg.yaml',
    'apiVersion: kube-graceful.dev/v1alpha1\n' +
      'kind: GracefulShutdown\n' +
      'spec:\n' +
      '  kubernetesVersion: 1.31\n' +
      '  timing:\n' +
      '    maxRequestSecond: 60\n',
  );
  const flat = file('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\ndata:\n  max-requets: "60"\n');
  const [typedRun, flatRun] = await Promise.all([
    runCliAsync(['check', '-c', typed, GATEWAY, TYPO], ''),
    runCliAsync(['-c', flat, 'explain', GATEWAY], ''),
  ]);
  t.is(typedRun.status, 2);
  t.regex(typedRun.stderr, new RegExp(`^kube-graceful: E_CONFIG: ${typed}:4:22: invalid config:`));
  t.regex(
    typedRun.stderr,
    /spec\.kubernetesVersion: got the number 1\.31; quote it \(kubernetesVersion: "1\.31"\)/,
  );
  t.regex(
    typedRun.stderr,
    /spec\.timing: unknown key maxRequestSecond \(did you mean maxRequestSeconds\?\)/,
  );
  t.is(flatRun.status, 2);
  t.regex(
    flatRun.stderr,
    new RegExp(
      `^kube-graceful: E_CONFIG: ${flat}:4:3: unknown setting "max-requets" ` +
        String.raw`\(did you mean max-request\?\)`,
    ),
  );
});
