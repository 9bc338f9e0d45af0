/**
 * Issue #16 item 5: peak memory below Node's baseline plus 4× the input, on the big ResourceList
 * (scripts/krm-schemas.mjs: 534 items, 11.9 MiB, the OpenAPI schemas of the corpus's
 * kube-prometheus-stack CRDs laid out as `kpt fn source` writes a package). Run as kpt runs it:
 * dist/cli.js with the list on stdin (a file, and a pipe), no node flags. Peak RSS is the
 * kernel's (getrusage's ru_maxrss, which a preload reports at exit), for the CLI and for
 * `node -e 0` with the same preload. It was 4.8–6.1× the input above `node -e 0` while the list
 * was decoded whole (a 25 MB two-byte string, the list holding a few non-Latin-1 characters), and
 * is about 3× since it is read from its bytes (fn/krm/resourceListFromBytes.ts). Through a pipe,
 * Node's readFileSync read it in 64 KiB buffers, freed only by a later GC: about 12 MiB more,
 * until stdin was read into one resizable buffer (fn/cli/io.ts).
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, ROOT, tempDir } from '../helpers/integration.ts';
import { exitReport, MAX_RSS_KIB, reported } from '../helpers/exitReport.ts';

const dir = tempDir('krm-memory');
const report = exitReport(MAX_RSS_KIB);

/**
 * Returns the peak RSS in MiB of `node --require report ARGS`, stdin the file: as a file (as the
 * bench measures it), or through a pipe (as kpt and kustomize send it).
 */
function peakMiB(args: readonly string[], file: string, through: 'file' | 'pipe'): number {
  const input = openSync(file, 'r');
  try {
    const result = spawnSync(process.execPath, ['--require', report, ...args], {
      ...(through === 'file'
        ? { stdio: [input, 'ignore', 'pipe'] }
        : { input: readFileSync(file), stdio: ['pipe', 'ignore', 'pipe'] }),
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
    });
    if (result.status !== 0) throw new Error(`exit ${result.status}: ${result.stderr}`);
    return reported(MAX_RSS_KIB, result.stderr) / 1024;
  } finally {
    closeSync(input);
  }
}

const list = execFileSync(process.execPath, [join(ROOT, 'scripts', 'krm-schemas.mjs')], {
  maxBuffer: 64 * 2 ** 20,
});
const file = join(dir, 'krm-schemas.yaml');
writeFileSync(file, list);

for (const through of ['file', 'pipe'] as const) {
  test(`the big ResourceList peaks below node -e 0 plus 4× its size, stdin a ${through}`, (t) => {
    const inputMiB = list.length / 2 ** 20;
    t.true(inputMiB > 11, `the list is ${inputMiB.toFixed(1)} MiB`);
    t.true(/[^\x00-\xff]/.test(list.toString('utf8')), 'it holds characters beyond Latin-1');
    const node = peakMiB(['-e', '0'], '/dev/null', through);
    const cli = peakMiB([cliPath()], file, through);
    const perInput = (cli - node) / inputMiB;
    t.log(`node -e 0 ${node.toFixed(0)} MiB, CLI ${cli.toFixed(0)} MiB: ${perInput.toFixed(1)}×`);
    t.true(perInput < 4, `${perInput.toFixed(2)}× the input above node -e 0`);
  });
}
