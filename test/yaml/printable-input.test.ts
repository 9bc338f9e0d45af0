/**
 * Issue #33 item 5: a character Go's YAML refuses (NUL, ESC, DEL, a C1 control, U+FFFE) written
 * raw in the input is exit 2 naming it, its line and column, as `kubectl kustomize` refuses it,
 * instead of passing into a stream the cluster refuses. Written as an escape in a double-quoted
 * scalar it is valid YAML, and the output keeps it an escape. Input: Istio's helloworld sample.
 */
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { corpus } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';
import { requireTool } from '../helpers/tools.ts';

const HELLOWORLD = corpus('istio-sample-helloworld-helloworld.yaml');
const NAME = 'name: helloworld-v1\n';

/** helloworld with `text` put into helloworld-v1's name, and the line and column it lands at. */
function withName(text: string): { input: string; line: number; column: number } {
  const at = HELLOWORLD.indexOf(NAME);
  if (at === -1) throw new Error('the fixture changed');
  const rest = HELLOWORLD.slice(at + NAME.length);
  const input = `${HELLOWORLD.slice(0, at)}name: helloworld${text}-v1\n${rest}`;
  const line = HELLOWORLD.slice(0, at).split('\n').length;
  const indent = at - (HELLOWORLD.lastIndexOf('\n', at) + 1);
  const column = indent + 'name: helloworld'.length + 1;
  return { input, line, column };
}

const kubectl = requireTool('kubectl');

/** `kubectl kustomize` over the stream: what Go's YAML makes of it. */
function kustomizeReads(stream: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'kg-printable-'));
  writeFileSync(join(dir, 'render.yaml'), stream);
  writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [render.yaml]\n');
  return spawnSync(kubectl, ['kustomize', dir]).status === 0;
}

for (const [raw, hex, label] of [
  ['\u0000', '0000', 'NUL'],
  ['\u001b', '001B', 'ESC'],
  ['\u007f', '007F', 'DEL'],
  ['\u009b', '009B', 'CSI'],
  ['\u0090', '0090', ''],
  ['\ufffe', 'FFFE', ''],
] as const) {
  test(`U+${hex} written raw is exit 2 naming it, its line and column, as kubectl kustomize refuses it`, async (t) => {
    const { input, line, column } = withName(raw);
    t.false(kustomizeReads(input), 'Go’s YAML refuses it');
    for (const args of [[], ['explain'], ['check'], ['patches'], ['--all-documents']]) {
      const run = await runCliAsync(args, input);
      t.is(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
      t.is(run.stdout, '');
      t.true(
        run.stderr.startsWith(
          `kube-graceful: E_INPUT: line ${line}, column ${column}: the input holds the control ` +
            `character U+${hex}${label ? ` (${label})` : ''} raw`,
        ),
        run.stderr,
      );
    }
  });
}

test('a raw control character in a comment is refused too, as go-yaml reads the whole stream', async (t) => {
  t.false(kustomizeReads(`# a\u001bb\n${HELLOWORLD}`));
  const run = await runCliAsync([], `# a\u001bb\n${HELLOWORLD}`);
  t.is(run.status, 2);
  t.regex(
    run.stderr,
    /line 1, column 4: the input holds the control character U\+001B \(ESC\) raw/,
  );
});

test('the same characters as double-quoted escapes are valid, and stay escapes in the output', async (t) => {
  const at = HELLOWORLD.indexOf(NAME);
  // (kubectl kustomize reads these, then fails on its own re-encoding of them: not a check here.)
  const escaped = 'name: "helloworld\\e\\x9b\\0-v1"\n';
  const input = `${HELLOWORLD.slice(0, at)}${escaped}${HELLOWORLD.slice(at + NAME.length)}`;
  const run = await runCliAsync([], input);
  t.is(run.status, 0, run.stderr);
  t.true(run.stdout.includes(escaped), 'the line as written');
  t.notRegex(run.stdout, /[\u0000\u001b\u009b]/, 'no raw control character written');
});

test('tab, line feed, carriage return and NEL (U+0085) are allowed', async (t) => {
  const input = HELLOWORLD.replace(/\n/g, '\r\n').replace('# ', '#\t\u0085 ');
  const run = await runCliAsync(['--app-mode', 'off'], input);
  t.is(run.status, 0, run.stderr);
});
