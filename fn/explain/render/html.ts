/**
 * The explanation as one HTML page (issue #17), for CI artifacts and pull-request previews: one
 * picture per workload (render/svg.ts) with its verdicts, and the text explanation under it. No
 * script, no network: the page is the pictures and their words.
 */
import type { Explanation } from '../explain.ts';
import { formatRef } from '../../core/kubeObject.ts';
import { printableData } from '../../core/printable.ts';
import type { Timeline } from '../../explanation/timeline.ts';
import { outcomeSentence } from './headline.ts';
import { renderWorkloadSvg } from './svg.ts';
import { verdictMark } from './verdictMark.ts';
import { renderText } from './text.ts';
import { xmlText as escape } from './xmlText.ts';

/** Returns a standalone HTML page. */
export function renderHtml(input: Explanation): string {
  // Every text from the input shown as itself, control characters as visible escapes.
  const explanation = printableData(input);
  const { summary } = explanation;
  const figures = explanation.workloads.map((w) =>
    [
      '<figure>',
      renderWorkloadSvg(w).trimEnd(),
      `<figcaption>${escape(formatRef(w.resource))}: ` +
        `as written ${caption(w.timelines.asWritten)}` +
        `; patched ${caption(w.timelines.patched)}</figcaption>`,
      '</figure>',
    ].join('\n'),
  );
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="color-scheme" content="light dark">',
    '<title>kube-graceful explain</title>',
    '<style>body{font-family:DejaVu ' +
      'Sans,Verdana,Arial,sans-serif;margin:24px;background:#fff;color:#1f2328}figure{margin:0 ' +
      '0 32px}figcaption{font-size:13px;margin-top:4px}pre{font-size:12px;overflow-x:auto}@media ' +
      '(prefers-color-scheme: ' +
      'dark){body{background:#0d1117;color:#e6edf3}}</style>',
    '</head>',
    '<body>',
    `<h1>kube-graceful explain</h1>`,
    `<p>${summary.workloads} workload${summary.workloads === 1 ? '' : 's'}. ` +
      `${outcomeSentence(summary)}</p>`,
    ...figures,
    '<details><summary>The explanation as text</summary>',
    `<pre>${escape(renderText(explanation))}</pre>`,
    '</details>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A verdict in a caption: its mark, then its words. */
function caption(timeline: Timeline): string {
  return `${verdictMark(timeline.verdict.outcome)} ${escape(timeline.verdict.text)}`;
}
