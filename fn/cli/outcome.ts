/**
 * What a command ends with when it throws: the error's message on stderr, nothing on stdout, and
 * its exit code (2 for bad input, config or usage; 70 for anything else, a bug in kube-graceful).
 * The entry point writes the result; tests run commands in-process through the same function.
 */
import { formatError, KubeGracefulError } from '../core/errors.ts';
import type { CommandOutput } from './transformCommand.ts';

/** Runs the command; a thrown error becomes its output instead of escaping. */
export async function settle(work: () => Promise<CommandOutput>): Promise<CommandOutput> {
  try {
    return await work();
  } catch (error) {
    const known =
      error instanceof KubeGracefulError
        ? error
        : new KubeGracefulError(
            'E_INTERNAL',
            error instanceof Error ? (error.stack ?? error.message) : String(error),
            {},
            'This is a bug in kube-graceful: please report it with the input that caused it.',
          );
    return { stdout: '', stderr: [formatError(known)], exitCode: known.exitCode };
  }
}
