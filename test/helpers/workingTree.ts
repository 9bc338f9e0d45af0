/**
 * A copy of the working tree as a fresh clone of it would be: every file git tracks or would track
 * (not ignored), nothing built (no dist/, no .cache/). The install tests build, pack and install
 * from such a copy, never from the repository itself: `npm pack` and `npm install -g <folder>` run
 * `prepare`, which rebuilds dist/ while other test files run it.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './fixtures.ts';

/** Options of {@link copyOfWorkingTree}. */
export interface CopyOptions {
  /**
   * Link the repository's node_modules into the copy, as `npm ci` in a clone would install it
   * (the build needs esbuild). Default true.
   */
  readonly nodeModules?: boolean;
}

/** Copies the working tree (tracked and untracked, not ignored) to `dir`; returns `dir`. */
export function copyOfWorkingTree(dir: string, options: CopyOptions = {}): string {
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  for (const file of new Set(listed.split('\0'))) {
    // node_modules is a symlink in a worktree (not ignored by `node_modules/`); deleted files stay
    // listed until committed.
    if (file === '' || file === 'node_modules' || !existsSync(join(ROOT, file))) continue;
    if (lstatSync(join(ROOT, file)).isDirectory()) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file), { verbatimSymlinks: true });
  }
  if (options.nodeModules ?? true)
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
  return dir;
}

/**
 * Returns `process.env` without npm's `npm_*` variables (set when the tests run under `npm test`),
 * so that an npm the tests start reads only its own flags and `extra`.
 */
export function npmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', ...extra };
}
