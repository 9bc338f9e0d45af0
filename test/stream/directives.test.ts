/**
 * Directives in a stream (issue #15.6, found by the YAML test suite):
 * - a document that is a directive and `---` with nothing after it is empty, like a bare `---`:
 *   it goes through unchanged instead of being refused as "not a mapping" (cases 9MMA, MUS6);
 * - a second `%YAML` directive, or a second `%TAG` for one handle, is invalid YAML (YAML 1.2.2
 *   §6.8.1, §6.8.2; case SF5V) that `yaml` 2.x reads without an error: exit 2, naming the line.
 * Run through the built CLI, on the real gateway chart.
 */
import test from 'ava';
import { corpus } from '../helpers/fixtures.ts';
import { runCli } from '../helpers/cli.ts';

const GATEWAY = corpus('istio-gateway-1.30.3-nlb.yaml');
const patched = runCli([], GATEWAY);

test('the gateway chart alone is patched (the reference for the streams below)', (t) => {
  t.is(patched.status, 0, patched.stderr);
  t.not(patched.stdout, GATEWAY);
});

for (const empty of [
  '%YAML 1.2\n---\n',
  '%YAML 1.1\n---\n# nothing here\n',
  '%TAG !e! tag:example.com,2000:\n---\n',
  '%YAML 1.1\r\n---\r\n',
]) {
  test(`an empty document after a directive passes through: ${JSON.stringify(empty)}`, (t) => {
    const alone = runCli([], empty);
    t.is(alone.status, 0, alone.stderr);
    t.is(alone.stdout, empty);
    const before = runCli([], empty + GATEWAY);
    t.is(before.status, 0, before.stderr);
    t.is(before.stdout, empty + patched.stdout);
  });
}

test('an explicit null document is still not a mapping: exit 2', (t) => {
  for (const input of ['--- ~\n', '%YAML 1.1\n--- !!null\n', '--- null\n']) {
    const run = runCli([], input);
    t.is(run.status, 2, input);
    t.is(run.stdout, '');
    t.regex(run.stderr, /^kube-graceful: E_NOT_MAPPING: document 1, line 1: /);
  }
});

test('a repeated %YAML directive, or %TAG for one handle, is exit 2 naming the line', (t) => {
  const cases: Array<[string, RegExp]> = [
    [
      '%YAML 1.2\n%YAML 1.2\n---\n',
      new RegExp(
        String.raw`^kube-graceful: E_PARSE: document 1, line 2, column 1: ` +
          String.raw`a second %YAML directive for the same document`,
      ),
    ],
    [
      `${GATEWAY}...\n%YAML 1.1\n# c\n%YAML 1.1\n---\napiVersion: v1\nkind: ` +
        `Service\nmetadata: {name: x}\n`,
      /^kube-graceful: E_PARSE: document 7, line 193, column 1: a second %YAML directive/,
    ],
    [
      '%TAG !e! tag:a,2000:\n%TAG !e! tag:b,2000:\n---\napiVersion: ' +
        'v1\nkind: Service\nmetadata: {name: x}\n',
      /^kube-graceful: E_PARSE: document 1, line 2, column 1: a second %TAG !e! directive/,
    ],
  ];
  for (const [input, message] of cases) {
    const run = runCli([], input);
    t.is(run.status, 2, run.stderr);
    t.is(run.stdout, '');
    t.regex(run.stderr, message);
    t.regex(run.stderr, /\n {2}how to fix: Remove the repeated directive line\./);
  }
  const twoHandles =
    '%TAG !a! tag:a,2000:\n%TAG !b! tag:b,2000:\n---\napiVersion: ' +
    'v1\nkind: Service\nmetadata: {name: x}\n';
  const ok = runCli([], twoHandles);
  t.is(ok.status, 0, ok.stderr);
  t.is(ok.stdout, twoHandles);
});
