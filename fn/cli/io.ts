/**
 * Input and output of the command line: stdin read whole and checked as UTF-8, output written
 * only once the whole run has succeeded (a post-renderer must never emit half a stream).
 */
import { constants, isUtf8 } from 'node:buffer';
import { fstatSync, readFileSync, readSync, writeSync, writevSync } from 'node:fs';
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
  let bytes: Buffer;
  try {
    bytes = readStdinWhole();
  } catch (error) {
    // A directory given as stdin (`kube-graceful < dir/`) reads as EISDIR: the user's mistake, not
    // ours; any other error reading stdin as well (exit 2 with the code, not 70).
    if (error instanceof KubeGracefulError) throw error;
    throw new KubeGracefulError(
      'E_USAGE',
      `cannot read stdin: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      {},
      'Send manifests on stdin from a file or a pipe (`kube-graceful < manifests.yaml`), or name ' +
        'the files: `kube-graceful FILE…`.',
    );
  }
  checkUtf8(bytes, 'stdin');
  return bytes;
}

/** An ArrayBuffer made with `maxByteLength` (ES2024; not in the ES2022 lib this project types). */
interface ResizableArrayBuffer extends ArrayBuffer {
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}

/**
 * Returns an empty resizable buffer to read stdin into, or undefined when stdin is a file (or has
 * no fstat, whose error readFileSync then gives) or the runtime cannot make one.
 */
function pipeBuffer(): ResizableArrayBuffer | undefined {
  try {
    if (fstatSync(0).isFile()) return undefined;
    const buffer = new (
      ArrayBuffer as unknown as new (
        length: number,
        options: { maxByteLength: number },
      ) => ResizableArrayBuffer
    )(0, { maxByteLength: constants.MAX_LENGTH });
    return typeof buffer.resize === 'function' ? buffer : undefined;
  } catch {
    return undefined; // the address range could not be reserved (a low `ulimit -v`)
  }
}

/** How much a pipe gives at most per read on Linux (its default capacity, pipe(7)). */
const PIPE_READ = 64 * 1024;

/**
 * Returns all of stdin. A file is read at its size (readFileSync). A pipe, how kpt, kustomize and
 * Helm send their input, has none: readFileSync reads it in 64 KiB buffers and joins them, and the
 * buffers are freed only by a later GC, so a 12.5 MB ResourceList peaked with two copies of itself
 * (issue #16 item 5: 87 MiB through a pipe, 75 from a file). A pipe is read into one resizable
 * ArrayBuffer instead, which grows in place: its address range is reserved when it is made, and
 * its pages are committed as it grows and count in RSS only once written. V8 ships resizable
 * buffers from 11.1 (harmony_rab_gsab in flag-definitions.h's HARMONY_SHIPPING; Node 20 has 11.3,
 * `node --v8-options` there: `default: --harmony-rab-gsab`); without them, readFileSync.
 */
function readStdinWhole(): Buffer {
  const buffer = pipeBuffer();
  if (!buffer) return readFileSync(0);
  let length = 0;
  for (;;) {
    if (buffer.byteLength - length < PIPE_READ) {
      if (buffer.byteLength === buffer.maxByteLength)
        throw new KubeGracefulError(
          'E_USAGE',
          `stdin is larger than ${buffer.maxByteLength} bytes, the most a Buffer holds`,
          {},
          'Split the input.',
        );
      buffer.resize(Math.min(buffer.maxByteLength, Math.max(2 * buffer.byteLength, 1 << 20)));
    }
    const read = readSync(0, new Uint8Array(buffer, length, buffer.byteLength - length));
    if (read === 0) break;
    length += read;
  }
  buffer.resize(length);
  return Buffer.from(buffer, 0, length);
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
