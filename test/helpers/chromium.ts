/**
 * Runs the real headless Chromium (Debian's package) on a file, as the picture tests and the
 * Markdown rendering test do: no network, no sandbox (root in CI), a fresh profile each run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireTool } from './tools.ts';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Returns what `chromium FLAGS ARGS` printed and its exit status. */
export function chromium(args: readonly string[]): {
  stdout: string;
  stderr: string;
  status: number | null;
} {
  const profile = mkdtempSync(join(tmpdir(), 'kg-chromium-'));
  const run = spawnSync(
    requireTool('chromium'),
    [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, ...args],
    // A page of every corpus picture dumps megabytes (spawnSync's default buffer is 1 MB).
    { encoding: 'utf8', timeout: 170_000, maxBuffer: 256 * 1024 * 1024 },
  );
  return { stdout: run.stdout, stderr: run.stderr, status: run.status };
}
