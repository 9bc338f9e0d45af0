/**
 * The explanation as a picture (issue #17): per workload, the shutdown as written and as patched,
 * one lane per actor on a shared time axis, the model's numbers (W, R, B, S, G, M, D) marked
 * where they fall, and every window in which requests fail or go right. Drawn from the same
 * Explanation as the text and JSON outputs; self-contained (no fonts, scripts or links fetched),
 * light and dark through `prefers-color-scheme`. Each number is also in a `data-` attribute, so
 * tests (and tools) read the picture's numbers without parsing its drawing.
 */
import type { Explanation, ModelInput, ModelOutput, WorkloadExplanation } from '../explain.ts';
import type { Timeline, TimelineWindow } from '../../explanation/timeline.ts';
import { formatRef } from '../../core/kubeObject.ts';
import { printableData } from '../../core/printable.ts';
import { verdictMark } from './verdictMark.ts';
import { xmlText as escape } from './xmlText.ts';

const WIDTH = 960;
const LABEL_WIDTH = 130;
const RIGHT_MARGIN = 24;
const WINDOW_ROW = 20;
const AXIS_HEIGHT = 44;
const PANEL_TITLE = 40;
const PANEL_GAP = 18;
const WORKLOAD_TITLE = 44;

/** Lanes in this order when present (the path a request takes, then who stops it); containers
 * between. */
const LANE_ORDER = ['traffic', 'load balancer', 'pod'];
const LAST_LANES = ['kubelet'];

/** Returns one SVG document holding every workload's pictures. */
export function renderSvg(explanation: Explanation): string {
  const parts: string[] = [];
  let y = 0;
  for (const workload of printableData(explanation.workloads)) {
    const drawn = drawWorkload(workload, y);
    parts.push(drawn.svg);
    y += drawn.height;
  }
  if (explanation.workloads.length === 0) {
    parts.push(`<text class="muted" x="16" y="28">No workload to explain.</text>`);
    y = 44;
  }
  return svgDocument(parts.join('\n'), y + 8);
}

/** Returns a standalone SVG of one workload (for the HTML page: one figure each). */
export function renderWorkloadSvg(workload: WorkloadExplanation): string {
  const drawn = drawWorkload(printableData(workload), 0);
  return svgDocument(drawn.svg, drawn.height + 8);
}

function svgDocument(body: string, height: number): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}` +
      `" viewBox="0 0 ${WIDTH} ${height}" role="img" font-family="DejaVu ` +
      `Sans, Verdana, Arial, sans-serif" font-size="11">`,
    `<style>${STYLE}</style>`,
    `<rect class="bg" x="0" y="0" width="${WIDTH}" height="${height}"/>`,
    body,
    '</svg>',
    '',
  ].join('\n');
}

const STYLE = [
  '.bg{fill:#ffffff}text{fill:#1f2328}.muted{fill:#59636e}.axis{stroke:#8c959f;stroke-width:1}',
  '.lane{fill:#f6f8fa}.event{fill:#0969da}',
  '.marker{stroke:#8250df;stroke-width:1;stroke-dasharray:4 3}',
  '.symbol{fill:#8250df;font-weight:bold}',
  '.fail{fill:#cf222e;fill-opacity:.85}.risk{fill:#bf8700;fill-opacity:.85}',
  '.ok{fill:#1a7f37;fill-opacity:.7}.unknown{fill:#6e7781;fill-opacity:.85}',
  '.band text{fill:#ffffff}',
  '@media (prefers-color-scheme: dark){',
  '.bg{fill:#0d1117}text{fill:#e6edf3}.muted{fill:#9198a1}.lane{fill:#161b22}.axis{stroke:#3d444d}',
  '.event{fill:#4493f8}.marker{stroke:#ab7df8}.symbol{fill:#ab7df8}',
  '.fail{fill:#f85149}.risk{fill:#d29922}.ok{fill:#3fb950}.unknown{fill:#9198a1}',
  '.band text{fill:#0d1117}}',
].join('');

interface Drawn {
  readonly svg: string;
  readonly height: number;
}

function drawWorkload(workload: WorkloadExplanation, top: number): Drawn {
  const end = timeEnd(workload);
  const x = (seconds: number) =>
    LABEL_WIDTH + (seconds / end) * (WIDTH - LABEL_WIDTH - RIGHT_MARGIN);
  const parts = [
    `<g class="workload" data-resource="${escape(formatRef(workload.resource))}` +
      `" data-mutator="${escape(workload.mutator)}">`,
    `<text x="16" y="${top + 22}" font-size="14" font-weight="bold">` +
      `${escape(formatRef(workload.resource))}</text>`,
    `<text class="muted" x="16" y="${top + 38}">` +
      `${escape(clip(`${workload.mutator}: ${workload.summary}`, 150))}</text>`,
  ];
  let y = top + WORKLOAD_TITLE;
  for (const [title, timeline, patched] of [
    ['As written', workload.timelines.asWritten, false],
    ['Patched', workload.timelines.patched, true],
  ] as const) {
    const panel = drawPanel(title, timeline, workload, patched, y, x, end);
    parts.push(panel.svg);
    y += panel.height + PANEL_GAP;
  }
  parts.push('</g>');
  return { svg: parts.join('\n'), height: y - top };
}

/** The time axis runs to the last thing that happens, or the grace period, with a little room. */
function timeEnd(workload: WorkloadExplanation): number {
  const times = [workload.timelines.asWritten, workload.timelines.patched].flatMap((t) => [
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

/**
 * Returns the distance between ticks: about ten ticks on any axis. Past the table a step grows
 * with the axis (1, 2 or 5 times a power of ten), so a manifest's int64 grace period (up to
 * 2^63 s) still draws ten ticks, not 10^15 of them.
 */
function tickStep(end: number): number {
  const step = [5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200].find((s) => end / s <= 10);
  if (step !== undefined) return step;
  const magnitude = 10 ** Math.floor(Math.log10(end / 10));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((s) => end / s <= 10) ?? 10 * magnitude;
}

function secondsInputs(
  workload: WorkloadExplanation,
): Array<ModelInput & { readonly symbol: string; readonly value: number }> {
  return workload.inputs.filter(
    (i): i is ModelInput & { symbol: string; value: number } =>
      i.unit === 's' &&
      typeof i.value === 'number' &&
      typeof i.symbol === 'string' &&
      i.symbol.length > 0,
  );
}

function lanesOf(timeline: Timeline): string[] {
  const actors = [...new Set(timeline.events.map((e) => e.actor))];
  const first = LANE_ORDER.filter((a) => actors.includes(a));
  const last = LAST_LANES.filter((a) => actors.includes(a));
  return [...first, ...actors.filter((a) => !first.includes(a) && !last.includes(a)), ...last];
}

function drawPanel(
  title: string,
  timeline: Timeline,
  workload: WorkloadExplanation,
  patched: boolean,
  top: number,
  x: (s: number) => number,
  end: number,
): Drawn {
  const lanes = lanesOf(timeline).map((name) => ({ name, ...laneEvents(timeline, name, x, end) }));
  const rows = windowRows(timeline.windows);
  const markers = modelMarkers(workload, patched, x);
  const lanesTop = top + PANEL_TITLE + markers.rows * LABEL_ROW;
  const heights = lanes.map((lane) => 8 + lane.rows * LABEL_ROW);
  const windowsTop = lanesTop + heights.reduce((a, b) => a + b, 0);
  const axisY = windowsTop + Math.max(1, rows.length) * WINDOW_ROW + 6;
  const { outcome } = timeline.verdict;
  const parts = [
    `<g class="panel" data-state="${patched ? 'patched' : 'as-written'}" ` +
      `data-outcome="${outcome}" ` +
      `data-failures="${timeline.verdict.failures}" data-risks="${timeline.verdict.risks}` +
      `" data-unknowns="${timeline.verdict.unknowns.length}">`,
    `<text x="16" y="${top + 17}" font-size="12" font-weight="bold">${title}` +
      `: <tspan class="${outcome}">${verdictMark(outcome)}` +
      ` ${escape(timeline.verdict.text)}</tspan></text>`,
  ];
  let y = lanesTop;
  lanes.forEach((lane, index) => {
    const height = heights[index]!;
    parts.push(
      `<rect class="lane" x="${LABEL_WIDTH}" y="${y + 1}" ` +
        `width="${WIDTH - LABEL_WIDTH - RIGHT_MARGIN}" height="${height - 2}"/>`,
    );
    parts.push(`<text x="16" y="${y + height / 2 + 4}">${escape(lane.name)}</text>`);
    parts.push(...lane.draw(y));
    y += height;
  });
  parts.push(`<text x="16" y="${windowsTop + 14}">requests</text>`);
  rows.forEach((row, index) =>
    row.forEach((window) =>
      parts.push(drawWindow(window, windowsTop + index * WINDOW_ROW, x, end)),
    ),
  );
  parts.push(...markers.draw(top + PANEL_TITLE - 4, lanesTop, axisY));
  if (patched) parts.push(...drawSpans(workload, axisY, x));
  parts.push(...drawAxis(axisY, x, end));
  parts.push('</g>');
  return { svg: parts.join('\n'), height: axisY + AXIS_HEIGHT - top };
}

/** A label's horizontal extent, for placing labels in rows that do not overlap. */
interface Box {
  readonly from: number;
  readonly to: number;
}

/** Returns the row of each box: the first row where it overlaps no earlier box (8 px apart). */
function placeRows(boxes: readonly Box[]): number[] {
  const rows: Box[][] = [];
  return boxes.map((box) => {
    let row = rows.findIndex((placed) =>
      placed.every((b) => b.to + 8 <= box.from || box.to + 8 <= b.from),
    );
    if (row === -1) row = rows.push([]) - 1;
    rows[row]!.push(box);
    return row;
  });
}

const LABEL_ROW = 13;
/** An estimate of a label's width at font size 10 (DejaVu Sans averages about 6 px a character). */
const labelWidth = (text: string) => [...text].length * 6;

/** A lane's events with their labels placed; the lane is as tall as its rows of labels. */
function laneEvents(
  timeline: Timeline,
  lane: string,
  x: (s: number) => number,
  end: number,
): { rows: number; draw: (top: number) => string[] } {
  const events = timeline.events.filter((e) => e.actor === lane);
  const labels = events.map((event) => {
    const cx = x(event.at ?? end);
    const text = clip(`${event.at === null ? 'never: ' : ''}${event.text}`, 60);
    const width = labelWidth(text);
    const atEnd = cx + 6 + width > WIDTH - 4;
    return {
      event,
      cx,
      text,
      atEnd,
      box: atEnd ? { from: cx - 6 - width, to: cx } : { from: cx, to: cx + 6 + width },
    };
  });
  const rows = placeRows(labels.map((l) => l.box));
  return {
    rows: Math.max(1, ...rows.map((r) => r + 1)),
    draw: (top) =>
      labels.map((label, index) => {
        const y = top + 12 + rows[index]! * LABEL_ROW;
        const { event } = label;
        const at = event.at === null ? 'never' : `${event.at} s`;
        return (
          `<g class="event-mark" data-at="${event.at ?? 'never'}" data-actor="${escape(lane)}"` +
          `${event.unknown ? ' data-unknown="true"' : ''}>` +
          `<title>${escape(`${at}  ${lane}: ${event.text}`)}</title>` +
          `<circle class="event${event.unknown ? ' unknown' : ''}" ` +
          `cx="${round(label.cx)}" cy="${y - 4}" r="4"/>` +
          (`<text x="${round(label.atEnd ? label.cx - 6 : label.cx + 6)}" y="${y}` +
            `" font-size="10"${label.atEnd ? ' text-anchor="end"' : ''}>${escape(label.text)}` +
            `</text></g>`)
        );
      }),
  };
}

/** Windows placed in rows so that none overlaps another in its row. */
function windowRows(windows: readonly TimelineWindow[]): TimelineWindow[][] {
  const rows: TimelineWindow[][] = [];
  for (const window of [...windows].sort((a, b) => a.from - b.from)) {
    const end = (w: TimelineWindow) => w.to ?? Infinity;
    const row = rows.find((r) => r.every((w) => end(w) <= window.from || end(window) <= w.from));
    if (row) row.push(window);
    else rows.push([window]);
  }
  return rows;
}

function drawWindow(
  window: TimelineWindow,
  y: number,
  x: (s: number) => number,
  end: number,
): string {
  const from = x(window.from);
  const to = x(window.to ?? end);
  const width = Math.max(3, to - from);
  // A window that rests on something not modelled is drawn as unknown, whatever it would mean.
  const shown = window.unknown ? 'unknown' : window.outcome;
  const mark = verdictMark(shown);
  const span = window.to === null ? `from ${window.from} s` : `${window.from}–${window.to} s`;
  const label = width > 40 ? clip(`${mark} ${span}`, Math.floor(width / 6)) : mark;
  return (
    `<g class="band" data-outcome="${window.outcome}" data-kind="${window.kind}" ` +
    (window.unknown ? `data-unknown="true" ` : '') +
    `data-from="${window.from}" data-to="${window.to ?? ''}">` +
    `<title>${escape(`${mark} ${span}: ${window.text}`)}</title>` +
    (`<rect class="${shown}" x="${round(from)}" y="${y + 2}" ` +
      `width="${round(width)}" height="${WINDOW_ROW - 4}" rx="3"/>`) +
    `<text x="${round(from + 4)}" y="${y + 14}" font-size="10">${escape(label)}</text></g>`
  );
}

/**
 * The model's numbers where they fall: W in both states (the load balancer does not change), the
 * derived S, G, M, D in the patched state (they are the plan). Numbers at the same second share
 * one line and one label ("W = S = M = 180 s"); labels sit in rows above the lanes.
 */
function modelMarkers(
  workload: WorkloadExplanation,
  patched: boolean,
  x: (s: number) => number,
): { rows: number; draw: (labelsTop: number, lanesTop: number, bottom: number) => string[] } {
  const marks: Array<{ symbol: string; seconds: number }> = secondsInputs(workload)
    .filter((i) => i.symbol === 'W')
    .map((i) => ({ symbol: i.symbol, seconds: i.value }));
  if (patched)
    marks.push(
      ...workload.derived.map((d: ModelOutput) => ({ symbol: d.symbol, seconds: d.seconds })),
    );
  const bySecond = [...new Set(marks.map((m) => m.seconds))]
    .sort((a, b) => a - b)
    .map((seconds) => {
      const symbols = marks.filter((m) => m.seconds === seconds).map((m) => m.symbol);
      const text = `${symbols.join(' = ')} = ${seconds} s`;
      return {
        seconds,
        symbols,
        text,
        box: { from: x(seconds), to: x(seconds) + 3 + labelWidth(text) },
      };
    });
  const rows = placeRows(bySecond.map((m) => m.box));
  return {
    rows: Math.max(1, ...rows.map((r) => r + 1)),
    draw: (labelsTop, _lanesTop, bottom) =>
      bySecond.map((mark, index) => {
        const at = round(x(mark.seconds));
        const labelY = labelsTop + rows[index]! * LABEL_ROW;
        return (
          `<g class="model-number" data-symbols="${mark.symbols.join(' ')}" ` +
          `data-seconds="${mark.seconds}"><title>${escape(mark.text)}</title>` +
          `<line class="marker" x1="${at}" y1="${labelY + 2}" x2="${at}" y2="${bottom}"/>` +
          `<text class="symbol" x="${round(at + 3)}" y="${labelY}">${escape(mark.text)}</text></g>`
        );
      }),
  };
}

function drawSpans(workload: WorkloadExplanation, y: number, x: (s: number) => number): string[] {
  const s = workload.derived.find((d) => d.symbol === 'S')?.seconds;
  const g = workload.derived.find((d) => d.symbol === 'G')?.seconds;
  const r = secondsInputs(workload).find((i) => i.symbol === 'R')?.value;
  const b = secondsInputs(workload).find((i) => i.symbol === 'B')?.value;
  if (s === undefined || g === undefined || r === undefined || b === undefined || s + r + b !== g)
    return [];
  return [
    ['R', s, s + r],
    ['B', s + r, g],
  ].map(
    ([symbol, from, to]) =>
      `<g class="model-number" data-symbols="${symbol}" ` +
      `data-seconds="${(to as number) - (from as number)}">` +
      `<title>${symbol} = ${(to as number) - (from as number)} s</title>` +
      (`<line class="marker" x1="${round(x(from as number))}" y1="${y + 24}" ` +
        `x2="${round(x(to as number))}" y2="${y + 24}" stroke-dasharray="0"/>`) +
      (`<text class="symbol" x="${round((x(from as number) + x(to as number)) / 2)}` +
        `" y="${y + 36}" text-anchor="middle" font-size="10">${symbol}` +
        `</text></g>`),
  );
}

function drawAxis(y: number, x: (s: number) => number, end: number): string[] {
  const step = tickStep(end / 1.08);
  const parts = [
    `<line class="axis" x1="${LABEL_WIDTH}" y1="${y}" x2="${WIDTH - RIGHT_MARGIN}" y2="${y}"/>`,
  ];
  for (let t = 0; t <= end; t += step) {
    parts.push(
      `<line class="axis" x1="${round(x(t))}" y1="${y}" x2="${round(x(t))}" ` +
        `y2="${y + 4}"/><text class="muted" x="${round(x(t))}" y="${y + 16}" ` +
        `text-anchor="middle" font-size="10">${t} s</text>`,
    );
  }
  return parts;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
