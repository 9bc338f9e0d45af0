/**
 * Runs the bundled CLI with a hard time limit and measures its peak memory (issue #8: every bad
 * input is answered in bounded time and memory; a hang fails the test instead of the CI job).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, ROOT } from './fixtures.ts';
import { HANG_GUARD_MS } from './hangGuard.ts';

/** What one bounded run did. */
export interface BoundedRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly elapsedMs: number;
  /** Peak resident set size of the CLI process, in MiB (undefined when it was killed). */
  readonly maxRssMiB: number | undefined;
}

/** Options: the time limit, extra environment, and files for stdin/stdout instead of memory. */
export interface BoundedOptions {
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Read stdin from this file instead of `input`. */
  readonly stdinFile?: string;
  /** Write stdout to this file (then `stdout` is empty). */
  readonly stdoutFile?: string;
}

export { HANG_GUARD_MS };

const WRAPPER = join(ROOT, 'test', 'helpers', 'reliability-rss.mjs');

/** Returns the result of `kube-graceful ARGS < input`, killed (SIGKILL) after the time limit. */
export function runBounded(
  args: readonly string[],
  input: string | Buffer,
  options: BoundedOptions = {},
): BoundedRun {
  const stdin = options.stdinFile ? openSync(options.stdinFile, 'r') : 'pipe';
  const stdout = options.stdoutFile ? openSync(options.stdoutFile, 'w') : 'pipe';
  const started = Date.now();
  try {
    const run = spawnSync(process.execPath, [WRAPPER, cliPath(), ...args], {
      ...(options.stdinFile ? {} : { input }),
      stdio: [stdin, stdout, 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
      timeout: options.timeoutMs ?? HANG_GUARD_MS,
      killSignal: 'SIGKILL',
      maxBuffer: 512 * 1024 * 1024,
    });
    const measured = run.output[3]?.toString('utf8');
    const usage = measured ? (JSON.parse(measured) as { maxRssKiB: number }) : undefined;
    return {
      status: run.status,
      signal: run.signal,
      stdout: run.stdout?.toString('utf8') ?? '',
      stderr: run.stderr?.toString('utf8') ?? '',
      // tsc needs the assertion (`code` is not on Error: TS2339); typescript-eslint 8.74 calls it
      // unnecessary.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      timedOut: (run.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT',
      elapsedMs: Date.now() - started,
      maxRssMiB: usage ? usage.maxRssKiB / 1024 : undefined,
    };
  } finally {
    if (typeof stdin === 'number') closeSync(stdin);
    if (typeof stdout === 'number') closeSync(stdout);
  }
}
