/**
 * The explanation as a picture (issue #17; redrawn for issue #29 item 7): per workload, a legend,
 * then the shutdown as written and as patched (svgPanel.ts), one lane per actor on a shared time
 * axis, the model's numbers (W, R, B, S, G, M, D) marked where they fall, every window in which
 * requests fail or go right, and every event and window in words under its panel (svgNotes.ts),
 * whole. The picture is as wide as its lane names need. Drawn from the same Explanation as the text
 * and JSON outputs; self-contained (no fonts, scripts or links fetched), light and dark through
 * `prefers-color-scheme`. Each number is also in a `data-` attribute, so tests (and tools) read the
 * picture's numbers without parsing its drawing.
 */
import type { Explanation, WorkloadExplanation } from '../explain.ts';
import { formatRef } from '../../core/kubeObject.ts';
import { printableData } from '../../core/printable.ts';
import {
  drawPanel,
  lanesOf,
  NEVER_ROOM,
  secondsInputs,
  tickStep,
  windowsLane,
} from './svgPanel.ts';
import type { Drawn, Layout, Panel } from './svgPanel.ts';
import { fitLines, lineHeight, textLines, textWidth } from './svgText.ts';
import { xmlText as escape } from './xmlText.ts';
import { NODE_SHUTDOWN_TITLE } from '../../explanation/nodeShutdown.ts';

/** The time axis's length: the same on every picture, so that seconds compare across them. */
const PLOT_WIDTH = 760;
const PANEL_GAP = 18;
const LEGEND_FONT = 10;

/** Returns one SVG document holding every workload's pictures. */
export function renderSvg(explanation: Explanation): string {
  const workloads = printableData(explanation.workloads);
  const width = Math.max(...workloads.map((w) => layoutOf(w).width), widthFor(0));
  const parts: string[] = [];
  let y = 0;
  for (const workload of workloads) {
    const drawn = drawWorkload(workload, y, { ...layoutOf(workload), width });
    parts.push(drawn.svg);
    y += drawn.height;
  }
  if (workloads.length === 0) {
    parts.push(`<text class="muted" x="16" y="28">No workload to explain.</text>`);
    y = 44;
  }
  return svgDocument(parts.join('\n'), width, y + 8);
}

/** Returns a standalone SVG of one workload (for the HTML page: one figure each). */
export function renderWorkloadSvg(input: WorkloadExplanation): string {
  const workload = printableData(input);
  const layout = layoutOf(workload);
  const drawn = drawWorkload(workload, 0, layout);
  return svgDocument(drawn.svg, layout.width, drawn.height + 8);
}

/** A picture whose lane names are `column` pixels wide is this wide. */
function widthFor(column: number): number {
  return Math.max(96, Math.ceil(column)) + PLOT_WIDTH + NEVER_ROOM;
}

/** The lane names' column fits the longest name; the axis runs to the last thing that happens. */
function layoutOf(workload: WorkloadExplanation): Layout {
  const timelines = panelsOf(workload).map((panel) => panel.timeline);
  const names = timelines.flatMap((t) => [...lanesOf(t), windowsLane(t)]);
  const column = Math.max(0, ...names.map((n) => textWidth(n, 11))) + 28;
  const plotLeft = Math.max(96, Math.ceil(column));
  return { plotLeft, plotWidth: PLOT_WIDTH, width: widthFor(column), end: timeEnd(workload) };
}

function svgDocument(body: string, width: number, height: number): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}` +
      `" viewBox="0 0 ${width} ${height}" role="img" font-family="DejaVu ` +
      `Sans, Verdana, Arial, sans-serif" font-size="11">`,
    `<style>${STYLE}</style>`,
    `<rect class="bg" x="0" y="0" width="${width}" height="${height}"/>`,
    body,
    '</svg>',
    '',
  ].join('\n');
}

const STYLE = [
  '.bg{fill:#ffffff}text{fill:#1f2328}.muted{fill:#59636e}.axis{stroke:#8c959f;stroke-width:1}',
  '.lane{fill:#f6f8fa}.event{fill:#0969da}.badge{fill:#ffffff;font-weight:bold}',
  '.marker{stroke:#8250df;stroke-width:1;stroke-dasharray:4 3}',
  '.never{stroke:#0969da;stroke-width:1.5;fill:none}',
  '.symbol{fill:#8250df;font-weight:bold}',
  '.fail{fill:#cf222e;fill-opacity:.85}.risk{fill:#bf8700;fill-opacity:.85}',
  '.ok{fill:#1a7f37;fill-opacity:.7}.unknown{fill:#6e7781;fill-opacity:.85}',
  '.band text{fill:#ffffff}',
  '@media (prefers-color-scheme: dark){',
  '.bg{fill:#0d1117}text{fill:#e6edf3}.muted{fill:#9198a1}.lane{fill:#161b22}.axis{stroke:#3d444d}',
  '.event{fill:#4493f8}.never{stroke:#4493f8}.marker{stroke:#ab7df8}.symbol{fill:#ab7df8}',
  '.fail{fill:#f85149}.risk{fill:#d29922}.ok{fill:#3fb950}.unknown{fill:#9198a1}',
  '.band text{fill:#0d1117}.badge{fill:#0d1117}}',
].join('');

function drawWorkload(workload: WorkloadExplanation, top: number, layout: Layout): Drawn {
  const title = fitLines(formatRef(workload.resource), layout.width - 32, 14);
  const summary = fitLines(`${workload.mutator}: ${workload.summary}`, layout.width - 32, 11);
  const parts = [
    `<g class="workload" data-resource="${escape(formatRef(workload.resource))}` +
      `" data-mutator="${escape(workload.mutator)}">`,
    ...textLines(title, { x: 16, y: top + 22 }, 14, 'font-weight="bold"'),
    ...textLines(
      summary,
      { x: 16, y: top + 22 + title.length * lineHeight(14) },
      11,
      'class="muted"',
    ),
  ];
  let y = top + 22 + title.length * lineHeight(14) + summary.length * lineHeight(11);
  const legend = drawLegend(y, layout.width);
  parts.push(legend.svg);
  y += legend.height;
  for (const panel of panelsOf(workload)) {
    const drawn = drawPanel(workload, panel, y, layout);
    parts.push(drawn.svg);
    y += drawn.height + PANEL_GAP;
  }
  parts.push('</g>');
  return { svg: parts.join('\n'), height: y - top };
}

/** The panels of a workload: as written, patched, and patched when the node goes away. */
function panelsOf(workload: WorkloadExplanation): Panel[] {
  const { asWritten, patched, nodeShutdown } = workload.timelines;
  return [
    { title: 'As written', timeline: asWritten, patched: false },
    { title: 'Patched', timeline: patched, patched: true },
    ...(nodeShutdown
      ? [{ title: NODE_SHUTDOWN_TITLE, timeline: nodeShutdown, patched: true }]
      : []),
  ];
}

/** What each mark means, once per workload, wrapped to the picture's width. */
function drawLegend(top: number, width: number): Drawn {
  const items: Array<{ key: string; text: string }> = [
    { key: '<rect class="ok" x="0" y="-9" width="14" height="10" rx="2"/>', text: 'served' },
    { key: '<rect class="fail" x="0" y="-9" width="14" height="10" rx="2"/>', text: 'fails' },
    { key: '<rect class="risk" x="0" y="-9" width="14" height="10" rx="2"/>', text: 'at risk' },
    {
      key: '<rect class="unknown" x="0" y="-9" width="14" height="10" rx="2"/>',
      text: 'unknown: not modelled',
    },
    {
      key:
        '<circle class="event" cx="7" cy="-4" r="7"/><text class="badge" x="7" y="-0.5" ' +
        'font-size="9" text-anchor="middle">1</text>',
      text: 'event, in words under the panel',
    },
    {
      key: '<path class="never" d="M0,-4 H12 m-5,-4 l5,4 l-5,4"/>',
      text: 'never happens',
    },
    { key: '<line class="marker" x1="7" y1="-11" x2="7" y2="2"/>', text: "the model's numbers" },
  ];
  const parts = ['<g class="legend">'];
  let x = 16;
  let y = top + 16;
  for (const item of items) {
    const itemWidth = 20 + textWidth(item.text, LEGEND_FONT) + 14;
    if (x + itemWidth > width - 16) {
      x = 16;
      y += 16;
    }
    parts.push(
      `<g transform="translate(${Math.round(x)},${y})">${item.key}` +
        `<text class="muted" x="20" y="0" font-size="${LEGEND_FONT}">${escape(item.text)}` +
        '</text></g>',
    );
    x += itemWidth;
  }
  parts.push('</g>');
  return { svg: parts.join(''), height: y - top + 12 };
}

/** The time axis runs to the last thing that happens, or the grace period, with a little room. */
function timeEnd(workload: WorkloadExplanation): number {
  const times = panelsOf(workload).flatMap(({ timeline: t }) => [
    ...t.events.map((e) => e.at ?? 0),
    ...t.windows.flatMap((w) => [w.from, w.to ?? w.from]),
  ]);
  times.push(
    ...workload.derived.map((d) => d.seconds),
    ...secondsInputs(workload).map((i) => i.value),
  );
  const last = Math.max(10, ...times);
  const step = tickStep(last);
  return Math.ceil((last * 1.08) / step) * step;
}
