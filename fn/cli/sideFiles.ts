/**
 * The files kube-graceful writes besides stdout: the report (`--report`) and the log
 * (`--log-file`). Both are often pointed into a shared folder (/tmp in CI), where another user
 * may plant a symbolic link of the same name to make us overwrite a file of ours. A link is
 * followed only where Linux's fs.protected_symlinks would follow it (Documentation/admin-guide/
 * sysctl/fs.rst, "protected_symlinks"): outside a sticky world-writable folder, or when the link
 * is ours or the folder owner's. So `--report /dev/stderr` still works, and a planted
 * /tmp/report.txt → ~/.bashrc is refused. A name that is no link is opened with O_NOFOLLOW, so a
 * link planted between the look and the open is refused too.
 */
import { closeSync, constants, lstatSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { KubeGracefulError } from '../core/errors.ts';

const { O_APPEND, O_CREAT, O_NOFOLLOW, O_TRUNC, O_WRONLY } = constants;
const STICKY = 0o1000;
const WORLD_WRITABLE = 0o002;

/** Writes a side file whole (the report); a failure is a usage error naming the file. */
export function writeSideFile(path: string, text: string, what = 'report'): void {
  write(path, text, O_WRONLY | O_CREAT | O_TRUNC, what);
}

/** Appends to a side file (the log); a failure is a usage error naming the file. */
export function appendSideFile(path: string, text: string, what = 'log file'): void {
  write(path, text, O_WRONLY | O_CREAT | O_APPEND, what);
}

function write(path: string, text: string, flags: number, what: string): void {
  if (path === '')
    throw new KubeGracefulError(
      'E_USAGE',
      `the ${what} file name is empty`,
      {},
      `Name a file (${what === 'report' ? '--report report.txt' : '--log-file run.log'}), ` +
        'or leave the option out.',
    );
  if (path === '-')
    // `-` reads as "standard output" to most tools, where the manifests go: a file named `-` in the
    // working folder surprised the one who asked.
    throw new KubeGracefulError(
      'E_USAGE',
      `the ${what} cannot go to "-": standard output carries the manifests`,
      {},
      `Name a file, or /dev/stderr to read it in the terminal ` +
        `(${what === 'report' ? '--report /dev/stderr' : '--log-file /dev/stderr'}).`,
    );
  const follow = mayFollow(path, what);
  let fd: number;
  try {
    fd = openSync(path, follow ? flags : flags | O_NOFOLLOW, 0o644);
  } catch (error) {
    throw refused(path, what, error);
  }
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
  } catch (error) {
    throw refused(path, what, error);
  } finally {
    closeSync(fd);
  }
}

/**
 * Returns true when `path` is a link that may be followed, false when it is none (opened with
 * O_NOFOLLOW), and throws when it is a link fs.protected_symlinks would not follow.
 */
function mayFollow(path: string, what: string): boolean {
  let link;
  try {
    link = lstatSync(path);
  } catch {
    return false; // not there yet: created, never through a link
  }
  if (!link.isSymbolicLink()) return false;
  const folder = statSync(dirname(path));
  const shared = (folder.mode & STICKY) !== 0 && (folder.mode & WORLD_WRITABLE) !== 0;
  const uid = process.getuid?.();
  if (!shared || link.uid === uid || link.uid === folder.uid) return true;
  throw refused(path, what, Object.assign(new Error('planted link'), { code: 'ELOOP' }));
}

function refused(path: string, what: string, error: unknown): KubeGracefulError {
  const code = (error as NodeJS.ErrnoException).code ?? String(error);
  return new KubeGracefulError(
    'E_USAGE',
    `cannot write the ${what} ${JSON.stringify(path)}: ${code}`,
    {},
    code === 'ELOOP'
      ? 'It is a symbolic link in a shared folder that someone else owns: remove it, or write ' +
          'the file somewhere only you can write.'
      : 'Check that the folder exists and is writable.',
  );
}
