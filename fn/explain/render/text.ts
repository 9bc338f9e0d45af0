/**
 * `explain` for terminals: per workload the inputs, the derived durations, the settings before
 * and after, and the two timelines, aligned in columns. Colour only when the caller says so (a
 * TTY without NO_COLOR, decided in fn/cli/explainCommand.ts); the text is the same without it.
 */
import { formatRef } from '../../core/kubeObject.ts';
import { printableData } from '../../core/printable.ts';
import { headline } from './headline.ts';
import { verdictMark } from './verdictMark.ts';
import { NONE, table } from './columns.ts';
import { wrapRuns } from './wrap.ts';
import type { Styler } from './wrap.ts';
import type { Explanation, LeftAlone, SettingRow, WorkloadExplanation } from '../explain.ts';
import type { Timeline, TimelineWindow } from '../../explanation/timeline.ts';
import { NODE_SHUTDOWN_TITLE } from '../../explanation/nodeShutdown.ts';

/** ANSI styles, or none. */
interface Style {
  readonly bold: Styler;
  readonly dim: Styler;
  readonly red: Styler;
  readonly yellow: Styler;
  readonly green: Styler;
}

const PLAIN: Style = {
  bold: (t) => t,
  dim: (t) => t,
  red: (t) => t,
  yellow: (t) => t,
  green: (t) => t,
};
const sgr = (open: number, close: number) => (text: string) =>
  `\u001b[${open}m${text}\u001b[${close}m`;
const ANSI: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  yellow: sgr(33, 39),
  green: sgr(32, 39),
};

/**
 * Returns the explanation as text (ends with a newline); `colour` adds ANSI styles. `width` (a
 * terminal's columns) wraps every line to fit (the last column of the tables onto continuation
 * lines under itself); without it (a pipe, a file, a report) each line stays whole, for grep.
 */
export function renderText(
  explanation: Explanation,
  options: { readonly colour?: boolean; readonly width?: number } = {},
): string {
  const style = options.colour ? ANSI : PLAIN;
  const width = options.width;
  // Every string from the input with its control characters, bidi controls and line breaks as
  // visible escapes (fn/core/printable.ts): the only ones printed are this renderer's own.
  const printable = printableData(explanation);
  const { settings, workloads, leftAlone } = printable;
  const lines: string[] = [];
  const head = headline(printable);
  lines.push(
    ...wrapRuns(
      [
        [style.bold, `kube-graceful explain: ${head}`],
        [
          style.dim,
          ` (Kubernetes ${settings.kubernetesVersion}, the oldest kubelet; ` +
            `Istio ${settings.istioVersion}` +
            ` and Linkerd ${settings.linkerdVersion} where a workload does not say)`,
        ],
      ],
      width,
      '  ',
    ),
  );
  for (const workload of workloads) lines.push('', ...renderWorkload(workload, style, width));
  if (leftAlone.length)
    lines.push(
      '',
      style.bold('Left alone'),
      ...leftAlone.flatMap((entry) => renderLeftAlone(entry, style, width)),
    );
  return `${lines.join('\n')}\n`;
}

function where(entry: {
  readonly location?: { file: string; line?: number };
  readonly document: number;
}): string {
  if (!entry.location) return `document ${entry.document}`;
  return entry.location.line === undefined
    ? entry.location.file
    : `${entry.location.file}:${entry.location.line}`;
}

function renderWorkload(w: WorkloadExplanation, style: Style, width: number | undefined): string[] {
  const lines = [
    ...wrapRuns(
      [
        [style.bold, formatRef(w.resource)],
        [NONE, '  '],
        [style.dim, where(w)],
      ],
      width,
      '  ',
    ),
    ...wrapRuns([[NONE, `  ${w.mutator}: ${w.summary}`]], width, '    '),
  ];
  lines.push(...modelTables(w, style, width));
  lines.push(
    ...renderTimeline('As written', w.timelines.asWritten, style, width),
    ...renderTimeline('Patched', w.timelines.patched, style, width),
    ...(w.timelines.nodeShutdown
      ? renderTimeline(NODE_SHUTDOWN_TITLE, w.timelines.nodeShutdown, style, width)
      : []),
  );
  lines.push(...changesAndFindings(w, style, width));
  return lines;
}

/** The Inputs, Derived and Settings tables, each where it has rows. */
function modelTables(w: WorkloadExplanation, style: Style, width: number | undefined): string[] {
  const lines: string[] = [];
  if (w.inputs.length) {
    lines.push('', style.bold('  Inputs'));
    lines.push(
      ...table(
        w.inputs.map((i) => [
          i.symbol ?? '',
          i.name,
          i.unit ? `${i.value} s` : String(i.value),
          style.dim(i.source),
        ]),
        [0, 0, 1, 0],
        '    ',
        width,
      ),
    );
  }
  if (w.derived.length) {
    lines.push('', style.bold('  Derived by the timing model'));
    lines.push(
      ...table(
        w.derived.map((d) => [d.symbol, d.name, `${d.seconds} s`, d.formula]),
        [0, 0, 1, 0],
        '    ',
        width,
      ),
    );
  }
  if (w.settings.length) {
    lines.push('', `${style.bold('  Settings')}${style.dim('  (as written → patched; plan)')}`);
    lines.push(
      ...table(
        w.settings.map((s) => settingCells(s, style)),
        [0, 1, 0, 0, 0, 0],
        '    ',
        width,
      ),
    );
  }
  return lines;
}

/** The fields set and the findings, each where there are any. */
function changesAndFindings(
  w: WorkloadExplanation,
  style: Style,
  width: number | undefined,
): string[] {
  const lines: string[] = [];
  if (w.changes.length) {
    lines.push(
      '',
      style.bold(`  Fields set (${w.changes.length})`),
      ...w.changes.flatMap((c) => wrapRuns([[NONE, `    ${c.field}`]], width, '      ')),
    );
  }
  if (w.findings.length) {
    lines.push(
      '',
      style.bold('  Findings'),
      ...w.findings.flatMap((f) =>
        wrapRuns(
          [
            [NONE, '    '],
            [severity(f.severity, style), f.severity],
            [NONE, ` ${f.code}${f.field ? ` at ${f.field}` : ''}: ${f.message}`],
          ],
          width,
          '      ',
        ),
      ),
    );
  }
  return lines;
}

/** The longest value a Settings cell shows: an existing preStop command can be hundreds of
 * characters (its whole text is in the JSON output). */
const VALUE_CELL_MAX = 28;

function shorten(text: string): string {
  return [...text].length <= VALUE_CELL_MAX
    ? text
    : `${[...text].slice(0, VALUE_CELL_MAX - 1).join('')}…`;
}

function settingCells(s: SettingRow, style: Style): string[] {
  const plan = s.planned
    ? s.planned.met
      ? style.green(`${s.planned.symbol === 'mode' ? '' : `${s.planned.symbol} `}✓`)
      : style.red(
          `${s.planned.symbol === 'mode' ? '' : `${s.planned.symbol} `}✗ ` +
            `plan ${s.planned.relation} ${String(s.planned.value)}`,
        )
    : '';
  const source =
    s.asWritten.source !== s.patched.source
      ? `${s.asWritten.source} → ${s.patched.source}`
      : s.patched.source;
  const patched = shorten(s.patched.display);
  return [
    s.name,
    shorten(s.asWritten.display),
    s.changed ? '→' : ' ',
    s.changed ? style.bold(patched) : patched,
    plan,
    style.dim(source),
  ];
}

function renderTimeline(
  title: string,
  timeline: Timeline,
  style: Style,
  width: number | undefined,
): string[] {
  const { outcome } = timeline.verdict;
  const words = `${verdictMark(outcome)} ${timeline.verdict.text}`;
  const verdict: Styler =
    outcome === 'fail' ? style.red : outcome === 'ok' ? style.green : style.yellow;
  const origin =
    timeline.origin === 'deletion'
      ? 't = 0: the pod starts terminating'
      : 't = 0: the main program exits';
  const lines = [
    '',
    ...wrapRuns(
      [
        [style.bold, `  ${title}`],
        [NONE, ': '],
        [verdict, words],
        [NONE, '  '],
        [style.dim, `(${origin})`],
      ],
      width,
      '    ',
    ),
  ];
  lines.push(
    ...table(
      timeline.events.map((e) => [e.at === null ? 'never' : `${e.at} s`, e.actor, e.text]),
      [1, 0, 0],
      '    ',
      width,
    ),
  );
  lines.push(
    ...table(
      timeline.windows.map((w) => [mark(w, style), span(w), w.text]),
      [0, 1, 0],
      '    ',
      width,
    ),
  );
  return lines;
}

function mark(w: TimelineWindow, style: Style): string {
  // A window that rests on something not modelled is no ✓ or ✗: it is as unknown as its verdict.
  if (w.unknown) return style.yellow(verdictMark('unknown'));
  return w.outcome === 'fail'
    ? style.red('✗')
    : w.outcome === 'risk'
      ? style.yellow('!')
      : style.green('✓');
}

function span(w: TimelineWindow): string {
  if (w.to === null) return `from ${w.from} s`;
  return w.to === w.from ? `${w.from} s` : `${w.from}–${w.to} s`;
}

function severity(level: string, style: Style): Styler {
  return level === 'error' ? style.red : level === 'warning' ? style.yellow : style.dim;
}

function renderLeftAlone(entry: LeftAlone, style: Style, width: number | undefined): string[] {
  return [
    ...wrapRuns(
      [
        [NONE, `  ${formatRef(entry.resource)}  `],
        [style.dim, where(entry)],
      ],
      width,
      '    ',
    ),
    ...entry.findings.flatMap((f) =>
      wrapRuns(
        [
          [NONE, '    '],
          [severity(f.severity, style), f.severity],
          [NONE, ` ${f.code}: ${f.message}`],
        ],
        width,
        '      ',
      ),
    ),
  ];
}
