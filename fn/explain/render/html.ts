/**
 * The explanation as one HTML page (issue #17), for CI artifacts and pull-request previews. It
 * opens with what a reader needs first (issue #29 item 8): the input's name, the tool's version,
 * the settings, and a verdict table whose rows link to each workload's picture (render/svg.ts);
 * each picture links back. The text explanation is under them. No script, no network.
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

/** What the page says about the run besides the explanation. */
export interface PageContext {
  /** The files read (`<stdin>` for stdin). */
  readonly files?: readonly string[];
  /** The tool's version and commit. */
  readonly version?: string;
}

/** Returns a standalone HTML page. */
export function renderHtml(input: Explanation, context: PageContext = {}): string {
  // Every text from the input shown as itself, control characters as visible escapes.
  const explanation = printableData(input);
  const { summary } = explanation;
  const id = (i: number) => `workload-${i + 1}`;
  const figures = explanation.workloads.map((w, i) =>
    [
      `<figure id="${id(i)}">`,
      renderWorkloadSvg(w).trimEnd(),
      `<figcaption>${escape(formatRef(w.resource))}: ` +
        `as written ${caption(w.timelines.asWritten)}` +
        `; patched ${caption(w.timelines.patched)} · <a href="#verdicts">back to the table</a>` +
        '</figcaption>',
      '</figure>',
    ].join('\n'),
  );
  const rows = explanation.workloads.map(
    (w, i) =>
      `<tr><td><a href="#${id(i)}">${escape(formatRef(w.resource))}</a></td>` +
      `<td>${caption(w.timelines.asWritten)}</td><td>${caption(w.timelines.patched)}</td></tr>`,
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
      '0 32px}figcaption{font-size:13px;margin-top:4px}pre{font-size:12px;overflow-x:auto}' +
      'table{border-collapse:collapse;margin:12px 0 24px}th,td{border:1px solid #8c959f;' +
      'padding:4px 8px;text-align:left;font-size:13px}dt{font-weight:bold}' +
      'dd{margin:0 0 6px}@media ' +
      '(prefers-color-scheme: ' +
      'dark){body{background:#0d1117;color:#e6edf3}}</style>',
    '</head>',
    '<body>',
    `<h1>kube-graceful explain</h1>`,
    ...runFacts(explanation, context),
    `<p>${summary.workloads} workload${summary.workloads === 1 ? '' : 's'}. ` +
      `${outcomeSentence(summary)}</p>`,
    ...(rows.length
      ? [
          '<table id="verdicts">',
          '<thead><tr><th>workload</th><th>as written</th><th>patched</th></tr></thead>',
          '<tbody>',
          ...rows,
          '</tbody>',
          '</table>',
        ]
      : []),
    ...figures,
    '<details><summary>The explanation as text</summary>',
    `<pre>${escape(renderText(explanation))}</pre>`,
    '</details>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The input's name, the version and the settings, as a definition list. */
function runFacts(explanation: Explanation, context: PageContext): string[] {
  const { settings } = explanation;
  const sources = Object.entries(settings.sources).map(
    ([path, source]) => `${escape(path)} (${escape(source)})`,
  );
  return [
    '<dl>',
    ...(context.files?.length
      ? [
          `<dt>input</dt><dd>` +
            `${context.files.map((f) => `<code>${escape(f)}</code>`).join(', ')}</dd>`,
        ]
      : []),
    ...(context.version ? [`<dt>kube-graceful</dt><dd>${escape(context.version)}</dd>`] : []),
    `<dt>settings</dt><dd>Kubernetes ${escape(settings.kubernetesVersion)} (the oldest ` +
      `kubelet); Istio ${escape(settings.istioVersion)} and Linkerd ` +
      `${escape(settings.linkerdVersion)} where a workload does not say` +
      (sources.length ? `; set: ${sources.join(', ')}` : '; all defaults') +
      '</dd>',
    '</dl>',
  ];
}

/** A verdict in a caption: its mark, then its words. */
function caption(timeline: Timeline): string {
  return `${verdictMark(timeline.verdict.outcome)} ${escape(timeline.verdict.text)}`;
}
