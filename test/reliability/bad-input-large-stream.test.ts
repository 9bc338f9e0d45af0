/**
 * Issue #8, bad input: a 100 MB stream is answered in bounded time and memory (peak RSS of the CLI
 * process measured by test/helpers/reliability-rss.mjs). Apart from bad-input-corpus.test.ts so
 * that ava runs it in parallel with the rest.
 *
 * Scaling note: this stream is what charts render (CRD-heavy, workloads of every kind). A stream
 * made only of workloads and the Services in front of them costs more per byte (every document is
 * parsed and every workload looks at every Service); see the issue #9 benchmarks.
 */
import test from 'ava';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitStream } from '../../fn/stream/split.ts';
import { corpusNames, fixturePath } from '../helpers/fixtures.ts';
import { runBounded } from '../helpers/reliability-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'kg-large-stream-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

test('a 100 MB stream: exit 0 in bounded time and memory', async (t) => {
  const file = join(dir, 'big.yaml');
  const out = join(dir, 'big-out.yaml');
  // Real charts, over and over: CRD-heavy like kube-prometheus-stack, with workloads of every kind.
  const parts = corpusNames().map((name) => readFileSync(fixturePath('corpus', name)));
  const stream = createWriteStream(file);
  let size = 0;
  let documents = 0;
  for (let i = 0; size < 100 * 1024 * 1024; i++) {
    // Each file as Helm joins templates: `---` first, a line break last.
    const file = parts[i % parts.length]!.toString('utf8');
    const part = Buffer.from(`---\n${file}${file.endsWith('\n') ? '' : '\n'}`);
    documents += splitStream(part.toString('utf8')).segments.length;
    size += part.length;
    if (!stream.write(part)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'finish');
  // Killed only at the hang guard.
  const run = runBounded([], '', { stdinFile: file, stdoutFile: out });
  t.log(
    `${(size / 1024 / 1024).toFixed(0)} MiB, ${documents} documents: ${run.elapsedMs} ms, ` +
      `peak RSS ${run.maxRssMiB?.toFixed(0)} MiB`,
  );
  t.false(run.timedOut, 'finished before the hang guard');
  t.is(run.status, 0, run.stderr.slice(0, 2000));
  t.true(statSync(out).size >= size * 0.99, 'about as long as the input');
  t.is(
    splitStream(readFileSync(out, 'utf8')).segments.length,
    documents,
    'every document is in the output',
  );
  t.true(
    run.maxRssMiB !== undefined && run.maxRssMiB < 1024,
    `peak RSS ${run.maxRssMiB} MiB stays under 1 GiB (about 10× the input)`,
  );
});
