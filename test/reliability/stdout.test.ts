/**
 * Issue #9 writes stdout and stderr straight to their file descriptors (no process.stdout stream).
 * These tests pin what a stream gave for free: the whole output reaches a file and a pipe, a
 * reader that stops early ends the run quietly, as it ends cat (`| head`),
 * and a pipe its reader made
 * non-blocking is waited for when full instead of failing with EAGAIN.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, tempDir } from '../helpers/integration.ts';
import { fixturePath } from '../helpers/fixtures.ts';

const LARGE = fixturePath('corpus', 'kube-prometheus-stack-with-crds.yaml');

/** The output of a plain run, from spawnSync's own pipe. */
function expected(): Buffer {
  const run = spawnSync(process.execPath, [cliPath()], {
    input: readFileSync(LARGE),
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(run.stderr.toString());
  return run.stdout;
}

test('the whole stream reaches a file and a shell pipe', (t) => {
  const out = join(tempDir('stdout'), 'out.yaml');
  const toFile = spawnSync('sh', [
    '-c',
    `"${process.execPath}" "${cliPath()}" < "${LARGE}" > "${out}"`,
  ]);
  t.is(toFile.status, 0, toFile.stderr.toString());
  const want = expected();
  t.true(want.length > 4_000_000);
  t.true(readFileSync(out).equals(want), 'file');
  const throughCat = spawnSync(
    'sh',
    ['-c', `"${process.execPath}" "${cliPath()}" < "${LARGE}" | cat`],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  t.true(throughCat.stdout.equals(want), 'pipe');
});

test('a reader that stops early ends the run quietly, with the exit status cat gets', (t) => {
  // cat, killed by SIGPIPE, shows as 141 when its output is larger than the pipe holds; output the
  // pipe takes whole before the reader leaves (--help) ends 0 for both (issue #33 item 10).
  for (const [command, asCat] of [
    [`"${process.execPath}" "${cliPath()}" < "${LARGE}"`, `cat "${LARGE}"`],
    [`"${process.execPath}" "${cliPath()}" --help`, `printf 'Usage\\n'`],
  ]) {
    const status = (writer: string) =>
      spawnSync('bash', ['-c', `${writer} | head -c 10 > /dev/null; echo "\${PIPESTATUS[0]}"`]);
    const ours = status(command!);
    const cat = status(asCat!);
    t.is(ours.stdout.toString().trim(), cat.stdout.toString().trim(), command);
    t.is(ours.stderr.toString(), '', command);
  }
  t.is(
    spawnSync('bash', ['-c', `cat "${LARGE}" | head -c 10 > /dev/null; echo "\${PIPESTATUS[0]}"`])
      .stdout.toString()
      .trim(),
    '141',
    'the large case is one where the reader leaves first',
  );
});

test('a full non-blocking pipe is waited for, not an EAGAIN error', (t) => {
  // Python makes the pipe's write end non-blocking and reads nothing for half a second, so the
  // 4.7 MB output fills the 64 KB pipe again and again.
  const script = [
    'import fcntl, os, subprocess, sys, time',
    'r, w = os.pipe()',
    'fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)',
    'p = subprocess.Popen([sys.argv[1], sys.argv[2]], stdin=open(sys.argv[3], "rb"), stdout=w)',
    'os.close(w)',
    'time.sleep(0.5)',
    'data = b"".join(iter(lambda: os.read(r, 1 << 16), b""))',
    'sys.stdout.buffer.write(data)',
    'sys.exit(p.wait())',
  ].join('\n');
  const run = spawnSync('python3', ['-c', script, process.execPath, cliPath(), LARGE], {
    maxBuffer: 64 * 1024 * 1024,
  });
  t.is(run.error, undefined, 'python3 runs this test (it is on the CI machine)');
  t.is(run.status, 0, run.stderr.toString());
  t.true(run.stdout.equals(expected()));
});

test('a directory as stdin is a usage error (exit 2, a message), not a bug', (t) => {
  const dir = tempDir('stdin-dir');
  const run = spawnSync('sh', ['-c', `"${process.execPath}" "${cliPath()}" < "${dir}"`]);
  t.is(run.status, 2, run.stderr.toString());
  t.regex(run.stderr.toString(), /E_USAGE: cannot read stdin: EISDIR/);
  t.regex(run.stderr.toString(), /how to fix: Send manifests on stdin/);
  t.is(run.stdout.length, 0);
});
