/**
 * One panel of the explain picture (issue #17, redrawn for issue #29 item 7): a timeline as
 * written or as patched, one lane per actor on a shared time axis. Each event is a numbered dot
 * (its words are in the notes under the panel, svgNotes.ts), an event that never happens is an
 * arrow past the end of the axis, the model's numbers are dashed lines under their labels, and the
 * windows are bands in a lane of their own, named for what they hold.
 */
import type { ModelInput, ModelOutput, WorkloadExplanation } from '../explain.ts';
import type { Timeline, TimelineWindow } from '../../explanation/timeline.ts';
import { drawNotes } from './svgNotes.ts';
import { fitLines, lineHeight, textWidth } from './svgText.ts';
import { verdictMark } from './verdictMark.ts';
import { xmlText as escape } from './xmlText.ts';

/** The picture's horizontal layout, the same for both panels of a workload. */
export interface Layout {
  /** Left of the plot: the lane names' column. */
  readonly plotLeft: number;
  /** Length of the time axis in pixels. */
  readonly plotWidth: number;
  /** The whole picture's width. */
  readonly width: number;
  /** The last second on the axis. */
  readonly end: number;
}

const WINDOW_ROW = 20;
const AXIS_HEIGHT = 40;
const LABEL_ROW = 13;
const BADGE = 8;
const LANE_ROW = 18;
const TITLE_FONT = 12;

/** Where the arrow of an event that never happens ends, past the axis. */
export const NEVER_ROOM = 64;

/** Lanes in this order when present (the path a request takes, then who stops it). */
const LANE_ORDER = ['traffic', 'load balancer', 'pod'];
const LAST_LANES = ['kubelet'];

/** Returns the lanes of a timeline, in drawing order. */
export function lanesOf(timeline: Timeline): string[] {
  const actors = [...new Set(timeline.events.map((e) => e.actor))];
  const first = LANE_ORDER.filter((a) => actors.includes(a));
  const last = LAST_LANES.filter((a) => actors.includes(a));
  return [...first, ...actors.filter((a) => !first.includes(a) && !last.includes(a)), ...last];
}

/** The windows' lane name: what a window means for a serving pod, or for a Job. */
export function windowsLane(timeline: Timeline): string {
  return timeline.origin === 'deletion' ? 'requests' : 'outcome';
}

export function secondsInputs(
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

/**
 * Returns the distance between ticks: about ten ticks on any axis. Past the table a step grows
 * with the axis (1, 2 or 5 times a power of ten), so a manifest's int64 grace period (up to
 * 2^63 s) still draws ten ticks, not 10^15 of them.
 */
export function tickStep(end: number): number {
  const step = [5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200].find((s) => end / s <= 10);
  if (step !== undefined) return step;
  const magnitude = 10 ** Math.floor(Math.log10(end / 10));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((s) => end / s <= 10) ?? 10 * magnitude;
}

/** A drawn part and its height. */
export interface Drawn {
  readonly svg: string;
  readonly height: number;
}

/** A horizontal extent, for placing labels and dots in rows that do not overlap. */
interface Box {
  readonly from: number;
  readonly to: number;
}

/** Returns the row of each box: the first row where it overlaps no earlier box (4 px apart). */
function placeRows(boxes: readonly Box[]): number[] {
  const rows: Box[][] = [];
  return boxes.map((box) => {
    let row = rows.findIndex((placed) =>
      placed.every((b) => b.to + 4 <= box.from || box.to + 4 <= b.from),
    );
    if (row === -1) row = rows.push([]) - 1;
    rows[row]!.push(box);
    return row;
  });
}

const round = (n: number): number => Math.round(n * 10) / 10;

/** One panel of a workload: a timeline, and whether it is of the patched pods. */
export interface Panel {
  readonly title: string;
  readonly timeline: Timeline;
  readonly patched: boolean;
}

/** Draws one panel of `workload` from `top`. */
export function drawPanel(
  workload: WorkloadExplanation,
  { title, timeline, patched }: Panel,
  top: number,
  layout: Layout,
): Drawn {
  const x = (seconds: number) => layout.plotLeft + (seconds / layout.end) * layout.plotWidth;
  const { outcome } = timeline.verdict;
  const heading = fitLines(
    `${title}: ${verdictMark(outcome)} ${timeline.verdict.text}`,
    layout.width - 32,
    TITLE_FONT,
  );
  const markers = modelMarkers(workload, patched, x, layout);
  const lanesTop = top + heading.length * lineHeight(TITLE_FONT) + 10 + markers.rows * LABEL_ROW;
  // Each event's number is its place in the timeline, as in the notes.
  const numbered = timeline.events.map((event, i) => ({ event, n: i + 1 }));
  const lanes = lanesOf(timeline).map((name) =>
    laneDots(
      name,
      numbered.filter((e) => e.event.actor === name),
      x,
      layout,
    ),
  );
  const rows = windowRows(timeline.windows);
  const windowsTop = lanesTop + lanes.reduce((sum, lane) => sum + lane.height, 0);
  const axisY = windowsTop + rows.length * WINDOW_ROW + 6;
  const parts = [
    `<g class="panel" data-state="${patched ? 'patched' : 'as-written'}" ` +
      `data-outcome="${outcome}" ` +
      `data-failures="${timeline.verdict.failures}" data-risks="${timeline.verdict.risks}` +
      `" data-unknowns="${timeline.verdict.unknowns.length}">`,
    ...heading.map((line, i) => {
      const y = top + 14 + i * lineHeight(TITLE_FONT);
      const [lead, rest] = i === 0 ? [`${title}: `, line.slice(title.length + 2)] : ['', line];
      return (
        `<text x="16" y="${y}" font-size="${TITLE_FONT}" font-weight="bold">${escape(lead)}` +
        `<tspan class="${outcome}">${escape(rest)}</tspan></text>`
      );
    }),
  ];
  // Backgrounds and lane names, then the model's lines over them, then dots and bands on top.
  let y = lanesTop;
  for (const lane of lanes) {
    parts.push(
      `<rect class="lane" x="${layout.plotLeft}" y="${y + 1}" ` +
        `width="${layout.plotWidth}" height="${lane.height - 2}"/>`,
      `<text x="16" y="${round(y + lane.height / 2 + 4)}">${escape(lane.name)}</text>`,
    );
    y += lane.height;
  }
  if (rows.length)
    parts.push(`<text x="16" y="${windowsTop + 14}">${escape(windowsLane(timeline))}</text>`);
  parts.push(...markers.draw(top + heading.length * lineHeight(TITLE_FONT) + 6, axisY));
  y = lanesTop;
  for (const lane of lanes) {
    parts.push(...lane.draw(y));
    y += lane.height;
  }
  rows.forEach((row, index) =>
    row.forEach((window) =>
      parts.push(drawWindow(window, windowsTop + index * WINDOW_ROW, x, layout.end)),
    ),
  );
  if (patched) parts.push(...drawSpans(workload, axisY, x));
  parts.push(...drawAxis(axisY, x, layout));
  const notes = drawNotes(timeline, axisY + AXIS_HEIGHT, layout.width);
  parts.push(...notes.svg, '</g>');
  return { svg: parts.join('\n'), height: axisY + AXIS_HEIGHT + notes.height - top };
}

/** A lane's numbered dots, in rows where they would overlap; never-events past the axis. */
function laneDots(
  name: string,
  events: ReadonlyArray<{ event: Timeline['events'][number]; n: number }>,
  x: (s: number) => number,
  layout: Layout,
): { name: string; height: number; draw: (top: number) => string[] } {
  const axisEnd = layout.plotLeft + layout.plotWidth;
  const placed = events.map(({ event, n }) => {
    const cx = event.at === null ? axisEnd + NEVER_ROOM - BADGE - 6 : x(event.at);
    return { event, n, cx, box: { from: cx - BADGE, to: cx + BADGE } };
  });
  const rows = placeRows(placed.map((p) => p.box));
  const count = Math.max(1, ...rows.map((r) => r + 1));
  return {
    name,
    height: 6 + count * LANE_ROW,
    draw: (top) =>
      placed.map(({ event, n, cx }, index) => {
        const cy = top + 3 + LANE_ROW / 2 + rows[index]! * LANE_ROW;
        const at = event.at === null ? 'never' : `${event.at} s`;
        const arrow =
          event.at === null
            ? `<path class="never" d="M${round(axisEnd)},${cy} H${round(cx - BADGE - 2)} ` +
              `m-5,-4 l5,4 l-5,4"/>`
            : '';
        return (
          `<g class="event-mark" data-at="${event.at ?? 'never'}" data-actor="${escape(name)}"` +
          `${event.unknown ? ' data-unknown="true"' : ''}>` +
          `<title>${escape(`${n}. ${at}  ${name}: ${event.text}`)}</title>${arrow}` +
          `<circle class="event${event.unknown ? ' unknown' : ''}" ` +
          `cx="${round(cx)}" cy="${cy}" r="${BADGE}"/>` +
          `<text class="badge" x="${round(cx)}" y="${cy + 3.5}" font-size="${n > 9 ? 8 : 10}" ` +
          `text-anchor="middle">${n}</text></g>`
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
  // The words are in the notes: the band says only what fits in it, whole.
  const label =
    textWidth(`${mark} ${span}`, 10) + 8 <= width
      ? `${mark} ${span}`
      : textWidth(mark, 10) + 8 <= width
        ? mark
        : '';
  return (
    `<g class="band" data-outcome="${window.outcome}" data-kind="${window.kind}" ` +
    (window.unknown ? `data-unknown="true" ` : '') +
    `data-from="${window.from}" data-to="${window.to ?? ''}">` +
    `<title>${escape(`${mark} ${span}: ${window.text}`)}</title>` +
    (`<rect class="${shown}" x="${round(from)}" y="${y + 2}" ` +
      `width="${round(width)}" height="${WINDOW_ROW - 4}" rx="3"/>`) +
    (label
      ? `<text x="${round(from + 4)}" y="${y + 14}" font-size="10">${escape(label)}</text>`
      : '') +
    '</g>'
  );
}

/**
 * The model's numbers where they fall: W in both states (the load balancer does not change), the
 * derived S, G, M, D in the patched state (they are the plan). Numbers at the same second share
 * one line and one label ("W = S = M = 180 s"); labels sit in rows above the lanes, turned to the
 * left of their line near the right edge.
 */
function modelMarkers(
  workload: WorkloadExplanation,
  patched: boolean,
  x: (s: number) => number,
  layout: Layout,
): { rows: number; draw: (labelsTop: number, bottom: number) => string[] } {
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
      const at = x(seconds);
      const width = textWidth(text, 11);
      const left = at + 3 + width > layout.width - 8;
      return {
        seconds,
        symbols,
        text,
        at,
        left,
        box: left ? { from: at - 3 - width, to: at } : { from: at, to: at + 3 + width },
      };
    });
  const rows = placeRows(bySecond.map((m) => m.box));
  return {
    rows: bySecond.length ? Math.max(...rows.map((r) => r + 1)) : 0,
    draw: (labelsTop, bottom) =>
      bySecond.map((mark, index) => {
        const at = round(mark.at);
        const labelY = labelsTop + 10 + rows[index]! * LABEL_ROW;
        return (
          `<g class="model-number" data-symbols="${mark.symbols.join(' ')}" ` +
          `data-seconds="${mark.seconds}"><title>${escape(mark.text)}</title>` +
          `<line class="marker" x1="${at}" y1="${labelY + 2}" x2="${at}" y2="${bottom}"/>` +
          `<text class="symbol" x="${round(mark.left ? at - 3 : at + 3)}" y="${labelY}"` +
          `${mark.left ? ' text-anchor="end"' : ''}>${escape(mark.text)}</text></g>`
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
  return (
    [
      ['R', s, s + r],
      ['B', s + r, g],
    ] as const
  ).map(
    ([symbol, from, to]) =>
      `<g class="model-number" data-symbols="${symbol}" data-seconds="${to - from}">` +
      `<title>${symbol} = ${to - from} s</title>` +
      (`<line class="marker" x1="${round(x(from))}" y1="${y + 24}" ` +
        `x2="${round(x(to))}" y2="${y + 24}" stroke-dasharray="0"/>`) +
      (`<text class="symbol" x="${round((x(from) + x(to)) / 2)}" y="${y + 36}" ` +
        `text-anchor="middle" font-size="10">${symbol}</text></g>`),
  );
}

function drawAxis(y: number, x: (s: number) => number, layout: Layout): string[] {
  const step = tickStep(layout.end / 1.08);
  const parts = [
    `<line class="axis" x1="${layout.plotLeft}" y1="${y}" ` +
      `x2="${layout.plotLeft + layout.plotWidth}" y2="${y}"/>`,
  ];
  for (let t = 0; t <= layout.end; t += step) {
    parts.push(
      `<line class="axis" x1="${round(x(t))}" y1="${y}" x2="${round(x(t))}" ` +
        `y2="${y + 4}"/><text class="muted" x="${round(x(t))}" y="${y + 16}" ` +
        `text-anchor="middle" font-size="10">${t} s</text>`,
    );
  }
  return parts;
}
