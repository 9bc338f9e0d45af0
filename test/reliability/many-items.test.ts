/**
 * Input sizes decide how many items a run gathers, and an array appended with push(...items)
 * takes each as an argument: past about 120,000 V8 throws "Maximum call stack size exceeded" and
 * the run exits 70 (fn/core/appendAll.ts). A `kind: List` of 130,000 items beside a ConfigMap
 * did so in the stream pipeline; so did `--diff` on a part of 300,000 kept lines
 * (test/report/diff.test.ts).
 */
import test from 'ava';
import { runCliAsync } from '../helpers/cli.ts';

test('a List of 130,000 items: the run completes and writes the stream back', async (t) => {
  const items = '- {kind: Service}\n'.repeat(130_000);
  const input =
    `apiVersion: v1\nkind: List\nitems:\n${items}` +
    '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n';
  const run = await runCliAsync([], input);
  t.is(run.status, 0, run.stderr.slice(0, 500));
  t.is(run.stdout, input);
});
