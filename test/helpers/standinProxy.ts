/**
 * Stand-ins for the mesh proxies' quit endpoints (pilot-agent `POST /quitquitquit`, linkerd-proxy
 * `POST /shutdown`) that answer from their own process: test/helpers/standin-proxy-server.mjs.
 *
 * Why not a server in the test process (issue #15.7): the wrapper's quit call has the product's
 * own 5 s limit (`curl --max-time 5`, fn/mutators/job/wrapper.ts). A server in the ava worker
 * answers only when the worker's event loop is free, and on a busy 2-core machine that came later
 * than 5 s: the tests failed while the wrapper was right. One helper process per test file serves
 * every listener the file opens, so the extra cost is one Node start-up per file.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { ROOT } from './fixtures.ts';

/** One request a stand-in received. */
export interface Recorded {
  readonly method: string;
  readonly path: string;
  /** Whether `doneFile` existed when the request arrived (the program had finished). */
  readonly programDone: boolean;
}

/** A listening stand-in: its port, and every request it has answered so far. */
export interface StandinProxy {
  readonly port: number;
  /** The requests answered so far, in order (read from the stand-in's log). */
  requests(): Recorded[];
  close(): Promise<void>;
}

const SERVER = join(ROOT, 'test', 'helpers', 'standin-proxy-server.mjs');

interface Helper {
  readonly child: ChildProcessByStdio<Writable, Readable, null>;
  /** Who waits for the next answer line, in the order the commands were sent. */
  readonly waiting: Array<(line: string) => void>;
  /** Where the listeners' request logs go. */
  readonly dir: string;
}

let helper: Helper | undefined;
let counter = 0;

function started(): Helper {
  if (helper) return helper;
  const child = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: Array<(line: string) => void> = [];
  // The helper never keeps this process alive by itself: its pipes are referenced only while an
  // answer is awaited. It ends when its stdin closes, or is killed at exit.
  const pipes = [child.stdout, child.stdin] as unknown as Array<{ ref(): void; unref(): void }>;
  createInterface({ input: child.stdout }).on('line', (line) => {
    waiting.shift()?.(line);
    if (waiting.length === 0) for (const pipe of pipes) pipe.unref();
  });
  child.unref();
  for (const pipe of pipes) pipe.unref();
  const dir = mkdtempSync(join(tmpdir(), 'kg-standin-'));
  process.once('exit', () => {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  helper = { child, waiting, dir };
  return helper;
}

/** Sends one command to the helper process and returns its one-line answer. */
function ask(...words: string[]): Promise<string> {
  const { child, waiting } = started();
  for (const pipe of [child.stdout, child.stdin] as unknown as Array<{ ref(): void }>) pipe.ref();
  return new Promise((resolve, reject) => {
    waiting.push((line) =>
      line.startsWith('error ') ? reject(new Error(`stand-in proxy: ${line}`)) : resolve(line),
    );
    child.stdin.write(`${words.join('\t')}\n`);
  });
}

/**
 * Starts a loopback stand-in that answers every request with `status` (default 200) and records
 * it, noting whether `doneFile` existed at that moment.
 */
export async function startStandinProxy(
  options: { status?: number; doneFile?: string } = {},
): Promise<StandinProxy> {
  const log = join(started().dir, `requests-${counter++}.jsonl`);
  const port = Number(
    await ask('open', String(options.status ?? 200), options.doneFile ?? '-', log),
  );
  if (!Number.isInteger(port) || port <= 0) throw new Error(`stand-in proxy: no port (${port})`);
  let closed = false;
  return {
    port,
    requests() {
      let text: string;
      try {
        text = readFileSync(log, 'utf8');
      } catch {
        return []; // no request yet: the log is created by the first one
      }
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Recorded);
    },
    async close() {
      if (closed) return;
      closed = true;
      await ask('close', String(port));
    },
  };
}
