/**
 * Issue #33 item 11: messages name the right thing at the right line. A map where a name belongs
 * is said to be one (never `[object Object]`); `kind: constructor` is no key into a JavaScript
 * prototype; CR-only line breaks get their own message; E_TOO_DEEP and E_ALIAS_BOMB name the line
 * of the nesting or the alias, not the document's start; a container without a name is placed at
 * its list item.
 */
import test from 'ava';
import { runCliAsync } from '../helpers/cli.ts';

const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: first\ndata:\n  a: b\n';

const deployment = (name: string, container: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - ${container}
        image: nginx:1.27
`;

test('a map for metadata.name is shown as one, not [object Object]', async (t) => {
  const run = await runCliAsync([], deployment('{a: b}', 'name: 5'));
  t.is(run.status, 2);
  t.true(
    run.stderr.startsWith('kube-graceful: E_INPUT: document 1 (Deployment <a map>), line 12,'),
  );
  t.notRegex(run.stderr, /object Object/);
});

test('a container without a name is placed at its list item', async (t) => {
  const run = await runCliAsync([], `${CONFIG_MAP}---\n${deployment('web', 'ports: []')}`);
  t.is(run.status, 2);
  t.true(
    run.stderr.startsWith(
      'kube-graceful: E_INPUT: document 2 (Deployment web), line 19, ' +
        'spec.template.spec.containers[0].name: spec.template.spec.containers[0].name is missing',
    ),
    run.stderr,
  );
});

for (const kind of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
  test(`kind: ${kind} is no workload kind (no walk into the prototype) and passes through`, async (t) => {
    // Were it taken for a kind a mutator reads, the document would be parsed, and its duplicate
    // key refused; a kind no mutator reads is passed through as written.
    const input = `${CONFIG_MAP}---\nkind: ${kind}\nmetadata: {name: a, name: b}\n`;
    const run = await runCliAsync([], input);
    t.is(run.status, 0, run.stderr);
    t.is(run.stdout, input);
  });
}

test('CR-only line breaks are named as such, at the line where the first one ends', async (t) => {
  const run = await runCliAsync([], `${CONFIG_MAP}---\n`.replace(/\n/g, '\r'));
  t.is(run.status, 2);
  t.true(
    run.stderr.startsWith(
      'kube-graceful: E_INPUT: line 1, column 15: the input ends a line with a carriage return ' +
        'alone',
    ),
    run.stderr,
  );
  const later = await runCliAsync([], `${CONFIG_MAP}---\nkind: Secret\rmetadata: {}\n`);
  t.true(later.stderr.startsWith('kube-graceful: E_INPUT: line 8, column 13:'), later.stderr);
});

test('E_TOO_DEEP names the line of the nesting, not the document start', async (t) => {
  const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
  const input = `${CONFIG_MAP}---\n${deployment('web', 'name: web')}      args: ${deep}\n`;
  const run = await runCliAsync([], input);
  t.is(run.status, 2);
  t.true(
    run.stderr.startsWith('kube-graceful: E_TOO_DEEP: document 2 (Deployment web), line 21:'),
    run.stderr,
  );
});

test('E_ALIAS_BOMB names the line of the first alias, not the document start', async (t) => {
  const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(96 + i);
    const name = String.fromCharCode(97 + i);
    levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]`);
  }
  const input =
    `${CONFIG_MAP}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n` +
    `  annotations:\n${levels.map((l) => `    ${l}\n`).join('')}spec: {}\n`;
  const run = await runCliAsync([], input);
  t.is(run.status, 2);
  t.true(
    run.stderr.startsWith('kube-graceful: E_ALIAS_BOMB: document 2 (Deployment web), line 14:'),
    run.stderr,
  );
});
