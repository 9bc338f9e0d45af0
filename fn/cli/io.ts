/**
 * Input and output of the command line: stdin read whole and checked as UTF-8, output written
 * only once the whole run has succeeded (a post-renderer must never emit half a stream).
 */
import { isUtf8 } from 'node:buffer';
import { fstatSync, readFileSync, writeFileSync, writeSync, writevSync } from 'node:fs';
import { KubeGracefulError } from '../core/errors.ts';

/** Returns the text of stdin (empty when Helm sends nothing, e.g. `--output-dir`). */
function readStdin(): string {
  return readStdinBytes().toString('utf8');
}

/** Returns the bytes of stdin, checked to be UTF-8 (the transform decodes only what it parses). */
export function readStdinBytes(): Buffer {
  if (stdinIsTerminal()) {
    throw new KubeGracefulError(
      'E_USAGE',
      'no input: stdin is a terminal',
      {},
      'Pipe manifests in: `helm template … | kube-graceful`, or `kube-graceful < manifests.yaml`.',
    );
  }
  const bytes = readFileSync(0);
  checkUtf8(bytes, 'stdin');
  return bytes;
}

/**
 * Whether stdin is a terminal. Pipes and files (how Helm, kustomize and kpt call us) are told by
 * one fstat; only a character device (a terminal, or /dev/null) needs node:tty, which loads
 * node:net.
 */
function stdinIsTerminal(): boolean {
  try {
    if (!fstatSync(0).isCharacterDevice()) return false;
  } catch {
    return false; // no stdin at all: reading it fails with its own message
  }
  // process.getBuiltinModule: Node 20.16+ (a synchronous load from ES modules and the bundle
  // alike).
  return typeof process.getBuiltinModule === 'function'
    ? process.getBuiltinModule('node:tty').isatty(0)
    : Boolean(process.stdin.isTTY);
}

/** Returns the text of a file, or stdin for `-`. */
export function readInputFile(path: string): string {
  if (path === '-') return readStdin();
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new KubeGracefulError(
      'E_USAGE',
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      {},
      'Check the path.',
    );
  }
  return decodeUtf8(bytes, path);
}

/** Returns the bytes as text, a BOM kept; invalid UTF-8 is an input error naming the byte
 * offset. */
export function decodeUtf8(bytes: Uint8Array, origin: string): string {
  checkUtf8(bytes, origin);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/**
 * Throws an input error naming the offset and line of the first byte that is not UTF-8. isUtf8
 * (simdutf) checks 5 MB in under a millisecond, without decoding (issue #9).
 */
function checkUtf8(bytes: Uint8Array, origin: string): void {
  if (isUtf8(bytes)) return;
  const offset = firstInvalidUtf8(bytes);
  const line = bytes.subarray(0, offset).reduce((n, b) => (b === 10 ? n + 1 : n), 1);
  throw new KubeGracefulError(
    'E_INPUT',
    `${origin} is not valid UTF-8 (first bad byte at offset ${offset})`,
    { line },
    'Kubernetes manifests are UTF-8 text; check for binary data or another encoding.',
  );
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let low = 0;
  let high = bytes.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    try {
      decoder.decode(bytes.subarray(0, mid + 1));
      low = mid + 1;
    } catch (error) {
      // A cut through a valid multi-byte sequence also fails; only a prefix that stays bad with
      // up to 3 more bytes is bad.
      const stillBad = [1, 2, 3].every((extra) => {
        try {
          decoder.decode(bytes.subarray(0, Math.min(bytes.length, mid + 1 + extra)));
          return false;
        } catch {
          return true;
        }
      });
      if (stillBad) high = mid;
      else low = mid + 1;
      void error;
    }
  }
  return low;
}

/** Writes a side file (report, log); a failure is a usage error naming the file. */
export function writeSideFile(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new KubeGracefulError(
      'E_USAGE',
      `cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      {},
      'Check that the folder exists and is writable.',
    );
  }
}

/**
 * Writes all of `data` to a file descriptor (1: stdout, 2: stderr), synchronously: text, or chunks
 * of bytes in one writev. Writing to the descriptor instead of process.stdout saves building a
 * stream (and node:net for a pipe) on every start (issue #9). A full pipe that its reader made
 * non-blocking (EAGAIN) is waited for; a reader that has gone (EPIPE, `kube-graceful … | head`)
 * ends the write quietly, as cat does: returns false.
 */
export function writeAll(fd: number, data: string | readonly Uint8Array[]): boolean {
  const chunks: Uint8Array[] =
    typeof data === 'string'
      ? [Buffer.from(data, 'utf8')]
      : data.filter((chunk) => chunk.length > 0);
  while (chunks.length > 0) {
    let written: number;
    try {
      written = chunks.length === 1 ? writeSync(fd, chunks[0]!) : writevSync(fd, chunks);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return false;
      if (code !== 'EAGAIN') throw error;
      Atomics.wait(PAUSE, 0, 0, 1); // a millisecond for the reader to drain the pipe
      continue;
    }
    // A write may stop short (a pipe, more chunks than one writev takes): go on after it.
    while (chunks.length > 0 && written >= chunks[0]!.length) written -= chunks.shift()!.length;
    if (written > 0) chunks[0] = chunks[0]!.subarray(written);
  }
  return true;
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));
