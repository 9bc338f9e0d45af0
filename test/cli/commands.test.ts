/**
 * Typed like kubectl (issue #28 item 3): a mistyped command is answered as one, not read as a
 * file; `version` names the build; explain's format flag has one name in the help.
 */
import test from 'ava';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliAsync } from '../helpers/cli.ts';
import { fixturePath } from '../helpers/fixtures.ts';

const GATEWAY = fixturePath('corpus', 'istio-gateway-1.30.3-nlb.yaml');

test('a mistyped or misplaced command is a usage error with did-you-mean, not ENOENT', async (t) => {
  const [chek, hlep, verison, late, far] = await Promise.all([
    runCliAsync(['chek', GATEWAY], ''),
    runCliAsync(['hlep'], ''),
    runCliAsync(['--max-request', '60', 'verison'], ''),
    runCliAsync([GATEWAY, 'check'], ''),
    runCliAsync(['deploy'], ''),
  ]);
  for (const run of [chek, hlep, verison, late, far]) {
    t.is(run.status, 2, run.stderr);
    t.is(run.stdout, '');
  }
  t.regex(chek.stderr, /^error: unknown command 'chek' \(did you mean check\?\)/);
  t.notRegex(chek.stderr, /ENOENT/);
  t.regex(hlep.stderr, /unknown command 'hlep' \(did you mean help\?\)/);
  t.regex(verison.stderr, /unknown command 'verison' \(did you mean version\?\)/);
  t.regex(
    late.stderr,
    /'check' is a command, and there is no file of that name: write the command first/,
  );
  t.regex(far.stderr, /cannot read deploy: ENOENT/, 'a word near no command is a missing file');
});

test('a file whose name is a command, or close to one, is read as a file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kg-command-files-'));
  copyFileSync(GATEWAY, join(dir, 'check'));
  copyFileSync(GATEWAY, join(dir, 'chek'));
  const [expected, late, typo, dotted] = await Promise.all([
    runCliAsync([GATEWAY], ''),
    runCliAsync([GATEWAY, 'check'], '', { cwd: dir }),
    runCliAsync(['chek'], '', { cwd: dir }),
    runCliAsync(['./check'], '', { cwd: dir }),
  ]);
  t.is(expected.status, 0, expected.stderr);
  t.is(typo.status, 0, typo.stderr);
  t.is(typo.stdout, expected.stdout);
  t.is(dotted.status, 0, dotted.stderr);
  t.is(dotted.stdout, expected.stdout);
  t.is(late.status, 0, late.stderr);
  t.true(late.stdout.startsWith(expected.stdout.trimEnd()), 'GATEWAY, then the file check');
});

test('`version` prints the version from package.json and the commit of the build', async (t) => {
  const [version, flag] = await Promise.all([
    runCliAsync(['version'], ''),
    runCliAsync(['--version'], ''),
  ]);
  t.is(version.status, 0, version.stderr);
  t.regex(version.stdout, /^kube-graceful 0\.1\.0 \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)\n$/);
  t.is(flag.stdout, '0.1.0\n', '--version stays the bare version for scripts');
});

test("explain's format flag is -o/--output in the help; --format still works, hidden", async (t) => {
  const [help, output, format] = await Promise.all([
    runCliAsync(['explain', '--help'], ''),
    runCliAsync(['explain', '-o', 'json', GATEWAY], ''),
    runCliAsync(['explain', '--format', 'json', GATEWAY], ''),
  ]);
  t.regex(help.stdout, /-o, --output <format>/);
  t.notRegex(help.stdout, /--format/);
  t.is(output.status, 0, output.stderr);
  t.is(format.stdout, output.stdout);
});
