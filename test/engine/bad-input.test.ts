/**
 * Issue #2 point 6 (and #8's corpus): each bad input gets a message naming what and where, exit 2,
 * and nothing on stdout — through the real CLI, as Helm would run it.
 */
import test from 'ava';
import { runCli } from '../helpers/cli.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ok = `---\n# Source: cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\n`;

const aliasBomb = [
  'apiVersion: v1',
  'kind: ConfigMap',
  'metadata: {name: bomb}',
  'data:',
  '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
]
  .concat(
    ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map(
      (k, i) =>
        `  ${k}: &${k} [${Array(9)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(',')}]`,
    ),
  )
  .join('\n');

const cases: Array<{
  name: string;
  input: string | Buffer;
  code: string;
  message: RegExp;
  args?: string[];
}> = [
  {
    name: 'malformed YAML (unclosed quote)',
    input: `${ok}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: "broken\n`,
    code: 'E_PARSE',
    message: /document 2 \(Deployment\b.*line \d+/,
  },
  {
    name: 'tab indentation',
    input: `${ok}---\napiVersion: v1\nkind: Pod\nmetadata:\n\tname: tabbed\n`,
    code: 'E_PARSE',
    message: /document 2 \(Pod tabbed\), line 11/,
  },
  {
    name: 'a scalar document',
    input: `${ok}---\njust a string\n`,
    code: 'E_NOT_MAPPING',
    message: /document 2/,
  },
  {
    name: 'a list document',
    input: `${ok}---\n- a\n- b\n`,
    code: 'E_NOT_MAPPING',
    message: /document 2/,
  },
  {
    name: 'duplicate keys',
    input: `${ok}---\napiVersion: v1\nkind: Service\nmetadata:\n  name: dup\n  name: dup2\n`,
    code: 'E_DUPLICATE_KEY',
    message: /document 2 \(Service dup\).*line 12/,
  },
  {
    name: 'alias bomb in a workload',
    input: `${ok}---\n${aliasBomb.replace('kind: ConfigMap', 'kind: Deployment')}\n`,
    code: 'E_ALIAS_BOMB',
    message: /document 2/,
  },
  {
    name: 'alias bomb with --all-documents',
    input: `${ok}---\n${aliasBomb}\n`,
    code: 'E_ALIAS_BOMB',
    message: /document 2 \(ConfigMap\)/,
    args: ['--all-documents'],
  },
  {
    name: '10,000-deep nesting',
    input: `${ok}---\nkind: Pod\nx: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`,
    code: 'E_TOO_DEEP',
    message: /document 2/,
  },
  {
    name: 'invalid UTF-8',
    input: Buffer.concat([Buffer.from(ok), Buffer.from([0xff, 0xfe, 0x41])]),
    code: 'E_INPUT',
    message: /not valid UTF-8/,
  },
  {
    name: 'ResourceList whose items is not a list',
    input: 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: {a: 1}\n',
    code: 'E_INPUT',
    message: /items/,
  },
  {
    name: 'a flag with a bad value',
    input: ok,
    code: 'E_CONFIG',
    message: /drain-window: got "soon"/,
    args: ['--drain-window', 'soon'],
  },
];

for (const c of cases) {
  test(`bad input: ${c.name}`, (t) => {
    const run = runCli(c.args ?? [], c.input);
    t.is(run.status, 2, run.stderr);
    t.is(run.stdout, '', 'nothing on stdout');
    t.regex(run.stderr, new RegExp(`^kube-graceful: ${c.code}:`));
    t.regex(run.stderr, c.message);
    t.regex(run.stderr, /how to fix:|expected/);
  });
}

test('bad input: an invalid config file names field, value and what is allowed', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kg-config-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    'apiVersion: kube-graceful.dev/v1alpha1\nkind: ' +
      'GracefulShutdown\nspec:\n  gateway:\n    mode: fast\n  timing:\n    ' +
      'maxRequestSeconds: -3\n  colour: blue\n',
  );
  const run = runCli(['--config', file], ok);
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.regex(run.stderr, /E_CONFIG/);
  t.regex(run.stderr, /spec\.gateway\.mode: got "fast"; expected one of env, sleep, off/);
  t.regex(run.stderr, /spec\.timing\.maxRequestSeconds: .*got -3/);
  t.regex(run.stderr, /unknown key colour/);
});

test('bad input: an unknown flag is a usage error (exit 2)', (t) => {
  const run = runCli(['--no-such-flag'], ok);
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.regex(run.stderr, /unknown option '--no-such-flag'/);
});

test('--help lists flags, examples and exit codes', (t) => {
  const run = runCli(['--help'], '');
  t.is(run.status, 0);
  for (const text of [
    '--kube-version',
    '--gateway-mode',
    '--job-mode',
    '--report',
    '--diff',
    'Exit codes:',
    'helm upgrade',
    'kpt fn eval',
  ])
    t.true(run.stdout.includes(text), text);
});
