/**
 * Runs the bundled CLI as users do: a child process with stdin, stdout, stderr and an exit code.
 */
import { spawnSync } from 'node:child_process';
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

/** Flags that switch every mutator off: the engine alone. */
export const NO_MUTATORS = [
  '--gateway-mode',
  'off',
  '--job-mode',
  'off',
  '--app-mode',
  'off',
  '--traefik-mode',
  'off',
];
