/**
 * Issue #33 item 10: what the CLI does when it cannot write. A stdout that cannot take the bytes
 * is one line on stderr and exit 74, never a stack trace or the findings' exit 1; `--report ''`
 * is a usage error, not a report quietly not written; the report and the log are never written
 * through a symbolic link that another user planted in a shared folder (/tmp), while a link of
 * one's own (/dev/stderr) still works. Input: the istio/gateway 1.30.3 chart behind an NLB.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lchownSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, fixturePath } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';

const GATEWAY = fixturePath('corpus', 'istio-gateway-1.30.3-nlb.yaml');
const NOBODY = 65534;

test('stdout on a full device: one line on stderr and exit 74, no stack trace', (t) => {
  const run = spawnSync('sh', [
    '-c',
    `"${process.execPath}" "${cliPath()}" < "${GATEWAY}" > /dev/full`,
  ]);
  t.is(run.status, 74);
  const stderr = run.stderr.toString();
  t.regex(stderr, /^kube-graceful: cannot write the output to stdout: ENOSPC$/m);
  t.notRegex(stderr, /\n\s+at /, 'no stack trace');
});

test("--report '' is a usage error with nothing on stdout", async (t) => {
  const run = await runCliAsync(['--report', ''], readFileSync(GATEWAY));
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.regex(run.stderr, /E_USAGE: the report file name is empty/);
});

test('--report - is a usage error naming /dev/stderr; no file named - is made', async (t) => {
  const cwd = mkdtempSync(join(tmpdir(), 'kg-dash-'));
  const run = await runCliAsync(['--report', '-'], readFileSync(GATEWAY), { cwd });
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.regex(run.stderr, /the report cannot go to "-": standard output carries the manifests/);
  t.regex(run.stderr, /--report \/dev\/stderr/);
  t.false(existsSync(join(cwd, '-')));
});

/** A sticky, world-writable folder like /tmp, owned by root. */
function sharedFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kg-shared-'));
  chmodSync(dir, 0o1777);
  return dir;
}

test('a report or log link another user planted in a shared folder is refused', async (t) => {
  // The planted link must belong to someone else: only root can give it away (CI runs as root).
  t.is(process.getuid?.(), 0, 'this test needs root, as CI and the developers’ machines have');
  const dir = sharedFolder();
  const victim = join(dir, 'victim.txt');
  writeFileSync(victim, 'precious\n');
  for (const [flag, name] of [
    ['--report', 'report.txt'],
    ['--log-file', 'run.log'],
  ] as const) {
    const link = join(dir, name);
    symlinkSync(victim, link);
    lchownSync(link, NOBODY, NOBODY);
    // --log-file is written on failure: a bad flag value makes one.
    const args = flag === '--report' ? [flag, link] : [flag, link, '--drain-window', 'soon'];
    const run = await runCliAsync(args, readFileSync(GATEWAY));
    t.is(run.status, 2, run.stderr);
    t.is(run.stdout, '');
    t.regex(run.stderr, /ELOOP/);
    t.regex(run.stderr, /symbolic link in a shared folder that someone else owns/);
  }
  t.is(readFileSync(victim, 'utf8'), 'precious\n', 'the link’s target is untouched');
});

test('a link of one’s own is followed: --report /dev/stderr and a link in a private folder', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kg-own-'));
  // stderr to a file, as a shell gives it (a socket, as spawn gives it, cannot be opened again).
  const run = spawnSync('sh', [
    '-c',
    `"${process.execPath}" "${cliPath()}" --report /dev/stderr < "${GATEWAY}" 2> "${dir}/err"`,
  ]);
  t.is(run.status, 0, run.stderr.toString());
  t.regex(readFileSync(join(dir, 'err'), 'utf8'), /kube-graceful explain: 1 workload/);
  const target = join(dir, 'target.txt');
  symlinkSync(target, join(dir, 'report.txt'));
  const viaLink = await runCliAsync(['--report', join(dir, 'report.txt')], readFileSync(GATEWAY));
  t.is(viaLink.status, 0, viaLink.stderr);
  t.regex(readFileSync(target, 'utf8'), /kube-graceful explain: 1 workload/);
});
