/**
 * The entry point: parses argv, runs the command, then writes stdout in one piece and sets the
 * exit code. Only here do errors become exit codes (0 ok, 1 error findings, 2 usage/config/input).
 */
import { appendFileSync } from 'node:fs';
import { writeAll } from './io.ts';
import { settle } from './outcome.ts';
import { buildProgram, CommanderError } from './program.ts';
import type { CommandOutput } from './transformCommand.ts';

async function execute(
  work: () => Promise<CommandOutput>,
  logFile: string | undefined,
): Promise<void> {
  const output = await settle(work);
  if (output.stderr.length) {
    const text = `${output.stderr.join('\n')}\n`;
    writeAll(2, text);
    if (logFile && output.exitCode !== 0) {
      try {
        appendFileSync(logFile, text);
      } catch {
        writeAll(2, `kube-graceful: cannot write log file ${logFile}\n`);
      }
    }
  }
  if (output.stdout.length) writeAll(1, output.stdout);
  process.exitCode = output.exitCode;
}

/**
 * Parses argv and runs the command. No top-level await: the bundle is CommonJS (see
 * scripts/build.mjs).
 */
async function main(): Promise<void> {
  try {
    await buildProgram(execute).parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, with exit code 0.
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      // Commander already printed the usage error on stderr, which Helm 4 never shows: copy it to
      // the log file too, or a mistyped --post-renderer-args fails with no message at all.
      const logFile =
        error.exitCode === 0
          ? undefined
          : (logFileFromArgv(process.argv.slice(2)) ?? process.env['KUBE_GRACEFUL_LOG_FILE']);
      if (logFile) {
        try {
          appendFileSync(logFile, `kube-graceful: ${error.message.replace(/^error: /, '')}\n`);
        } catch {
          writeAll(2, `kube-graceful: cannot write log file ${logFile}\n`);
        }
      }
    } else {
      throw error;
    }
  }
}

// Everything is written by now, synchronously (writeAll). Exit at once: left to itself the
// process would first run whatever V8 queued, such as finishing an incremental mark of the heap
// (about 10 ms after a 2 MB stream, issue #9).
void main().then(() => process.exit());

/**
 * Returns the `--log-file` value from raw arguments (commander has not parsed them when it fails).
 */
function logFileFromArgv(args: readonly string[]): string | undefined {
  let found: string | undefined;
  for (const [i, arg] of args.entries()) {
    if (arg === '--') break;
    if (arg === '--log-file' && args[i + 1] !== undefined) found = args[i + 1];
    else if (arg.startsWith('--log-file=')) found = arg.slice('--log-file='.length);
  }
  return found;
}
