/**
 * `explain --summary` as text (issue #29 item 6): the header, then one line per workload — its
 * verdict as written → patched, and the numbers the timing model derived for it — for a reader
 * with many workloads who wants to see which ones to read in full.
 */
import { formatRef } from '../../core/kubeObject.ts';
import { printableData } from '../../core/printable.ts';
import type { Explanation } from '../explain.ts';
import { table } from './columns.ts';
import { headline } from './headline.ts';
import { shortVerdict } from './verdictMark.ts';
import { wrapRuns } from './wrap.ts';

/** Returns one line per workload under the header (ends with a newline). */
export function renderSummary(
  input: Explanation,
  options: { readonly width?: number } = {},
): string {
  const explanation = printableData(input);
  const lines = wrapRuns(
    [[(t) => t, `kube-graceful explain: ${headline(explanation)}`]],
    options.width,
    '  ',
  );
  if (explanation.workloads.length)
    lines.push(
      '',
      ...table(
        explanation.workloads.map((w) => [
          formatRef(w.resource),
          shortVerdict(w.timelines.asWritten.verdict),
          '→',
          shortVerdict(w.timelines.patched.verdict),
          w.derived.map((d) => `${d.symbol} ${d.seconds} s`).join(', '),
        ]),
        [0, 0, 0, 0, 0],
        '  ',
        options.width,
      ),
    );
  return `${lines.join('\n')}\n`;
}
