/**
 * The entry point: parses argv, runs the command, then writes stdout in one piece and sets the
 * exit code. Only here do errors become exit codes (0 ok, 1 error findings, 2 usage/config/input,
 * 74 stdout could not be written, 141 its reader went away).
 */
import { formatError, KubeGracefulError } from '../core/errors.ts';
import { writeAll } from './io.ts';
import { appendSideFile } from './sideFiles.ts';
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
    if (logFile && output.exitCode !== 0) appendLog(logFile, text);
  }
  process.exitCode = output.stdout.length
    ? writeStdout(output.stdout, output.exitCode)
    : output.exitCode;
}

/** EX_IOERR (sysexits.h): the output could not be written. */
const EXIT_WRITE_FAILED = 74;
/** What a shell reports for a process that SIGPIPE ended (128 + 13), as for `cat … | head`. */
const EXIT_READER_GONE = 141;

/**
 * Writes the command's stdout and returns the exit code: the command's own, or a write failure's.
 * A reader that went away (EPIPE) ends it quietly with 141, as cat ends by SIGPIPE; a stdout that
 * cannot take the bytes (/dev/full: ENOSPC) is one line on stderr and exit 74, never a stack trace.
 * A stdout closed before start (`>&-`) cannot be told here: Node opens /dev/null read-write on it
 * before any script runs (src/node.cc PlatformInit), exactly as Go's os/exec and Node's
 * `stdio: 'ignore'` give a child that is meant to write nowhere.
 */
function writeStdout(data: string | readonly Uint8Array[], exitCode: number): number {
  try {
    return writeAll(1, data) ? exitCode : EXIT_READER_GONE;
  } catch (error) {
    return writeFailed((error as NodeJS.ErrnoException).code ?? String(error));
  }
}

function writeFailed(why: string): number {
  writeAll(
    2,
    `kube-graceful: cannot write the output to stdout: ${why}\n` +
      '  how to fix: Send stdout to a file or pipe that can take it ' +
      '(a full disk, a closed descriptor); what was written is incomplete.\n',
  );
  return EXIT_WRITE_FAILED;
}

function appendLog(logFile: string, text: string): void {
  try {
    appendSideFile(logFile, text);
  } catch (error) {
    writeAll(
      2,
      error instanceof KubeGracefulError
        ? `${formatError(error)}\n`
        : `kube-graceful: cannot write log file ${logFile}\n`,
    );
  }
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
      if (logFile) appendLog(logFile, `kube-graceful: ${error.message.replace(/^error: /, '')}\n`);
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
