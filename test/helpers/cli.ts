/**
 * Runs the bundled CLI as users do: a child process with stdin, stdout, stderr and an exit code.
 */
import { spawn, spawnSync } from 'node:child_process';
import { MUTATORS } from '../../fn/mutators/registry.ts';
import { cliPath } from './fixtures.ts';
import { HANG_GUARD_MS } from './hangGuard.ts';

/** What one CLI run printed and returned. */
export interface CliRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
}

/** Returns the result of `kube-graceful ARGS < input`. */
export function runCli(
  args: readonly string[],
  input: string | Buffer,
  env: NodeJS.ProcessEnv = {},
): CliRun {
  const run = spawnSync(process.execPath, [cliPath(), ...args], {
    input,
    env: { ...process.env, ...env },
    maxBuffer: 512 * 1024 * 1024,
    timeout: HANG_GUARD_MS,
  });
  return {
    stdout: run.stdout.toString('utf8'),
    stderr: run.stderr.toString('utf8'),
    status: run.status,
  };
}

/**
 * Returns the result of `kube-graceful ARGS < input` without blocking the test worker, so that
 * many runs in one file go on side by side and ava's timeout sees each test finish.
 */
export function runCliAsync(
  args: readonly string[],
  input: string | Buffer,
  options: { readonly cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath(), ...args], {
      timeout: HANG_GUARD_MS,
      ...options,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        status,
      }),
    );
    // A run that fails before reading all of stdin closes it: that is its answer, not an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** Flags that switch every registered mutator off: the engine alone. */
export const NO_MUTATORS = MUTATORS.flatMap((mutator) => [
  `--${mutator.settings.flatKeys.mode.name}`,
  'off',
]);
