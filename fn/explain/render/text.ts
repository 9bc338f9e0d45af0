/**
 * `explain` for terminals: per workload the inputs, the derived durations, the settings before
 * and after, and the two timelines, aligned in columns. Colour only when the caller says so (a
 * TTY without NO_COLOR, decided in fn/cli/explainCommand.ts); the text is the same without it.
 */
import { formatRef } from '../../workloads/kubeObject.ts';
import type { Explanation, LeftAlone, SettingRow, WorkloadExplanation } from '../explain.ts';
import type { Timeline, TimelineWindow } from '../timeline.ts';

/** ANSI styles, or none. */
interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
}

const PLAIN: Style = { bold: (t) => t, dim: (t) => t, red: (t) => t, yellow: (t) => t, green: (t) => t };
const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const ANSI: Style = { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), yellow: sgr(33, 39), green: sgr(32, 39) };

/** Returns the explanation as text (ends with a newline); `colour` adds ANSI styles. */
export function renderText(explanation: Explanation, options: { readonly colour?: boolean } = {}): string {
  const style = options.colour ? ANSI : PLAIN;
  const { settings, summary } = explanation;
  const lines: string[] = [];
  const head = summary.workloads === 0
    ? 'no workload was handled by a mutator'
    : `${summary.workloads} workload${summary.workloads === 1 ? '' : 's'}; with failure windows: ${summary.failingAsWritten} as written, ${summary.failingPatched} patched`;
  lines.push(style.bold(`kube-graceful explain: ${head}`) + style.dim(` (Kubernetes ${settings.kubernetesVersion}, Istio ${settings.istioVersion}, Linkerd ${settings.linkerdVersion})`));
  for (const workload of explanation.workloads) lines.push('', ...renderWorkload(workload, style));
  if (explanation.leftAlone.length) lines.push('', style.bold('Left alone'), ...explanation.leftAlone.flatMap((entry) => renderLeftAlone(entry, style)));
  return `${lines.join('\n')}\n`;
}

function where(entry: { readonly location?: { file: string; line?: number }; readonly document: number }): string {
  if (!entry.location) return `document ${entry.document}`;
  return entry.location.line === undefined ? entry.location.file : `${entry.location.file}:${entry.location.line}`;
}

function renderWorkload(w: WorkloadExplanation, style: Style): string[] {
  const lines = [`${style.bold(formatRef(w.resource))}  ${style.dim(where(w))}`, `  ${w.mutator}: ${w.summary}`];
  if (w.inputs.length) {
    lines.push('', style.bold('  Inputs'));
    lines.push(...table(w.inputs.map((i) => [i.symbol ?? '', i.name, i.unit ? `${i.value} s` : String(i.value), style.dim(i.source)]), [0, 0, 1, 0], '    '));
  }
  if (w.derived.length) {
    lines.push('', style.bold('  Derived by the timing model'));
    lines.push(...table(w.derived.map((d) => [d.symbol, d.name, `${d.seconds} s`, d.formula]), [0, 0, 1, 0], '    '));
  }
  if (w.settings.length) {
    lines.push('', `${style.bold('  Settings')}${style.dim('  (as written → patched; plan)')}`);
    lines.push(...table(w.settings.map((s) => settingCells(s, style)), [0, 1, 0, 0, 0, 0], '    '));
  }
  lines.push(...renderTimeline('As written', w.timelines.asWritten, style), ...renderTimeline('Patched', w.timelines.patched, style));
  if (w.changes.length) {
    lines.push('', style.bold(`  Fields set (${w.changes.length})`), ...w.changes.map((c) => `    ${c.field}`));
  }
  if (w.findings.length) {
    lines.push('', style.bold('  Findings'), ...w.findings.map((f) => `    ${severity(f.severity, style)} ${f.code}${f.field ? ` at ${f.field}` : ''}: ${f.message}`));
  }
  return lines;
}

function settingCells(s: SettingRow, style: Style): string[] {
  const plan = s.planned ? (s.planned.met ? style.green(`${s.planned.symbol === 'mode' ? '' : `${s.planned.symbol} `}✓`) : style.red(`${s.planned.symbol === 'mode' ? '' : `${s.planned.symbol} `}✗ plan ${s.planned.relation} ${String(s.planned.value)}`)) : '';
  const source = s.asWritten.source !== s.patched.source ? `${s.asWritten.source} → ${s.patched.source}` : s.patched.source;
  return [s.name, s.asWritten.display, s.changed ? '→' : ' ', s.changed ? style.bold(s.patched.display) : s.patched.display, plan, style.dim(source)];
}

function renderTimeline(title: string, timeline: Timeline, style: Style): string[] {
  const verdict = timeline.verdict.failures ? style.red(`✗ ${timeline.verdict.text}`) : timeline.verdict.risks ? style.yellow(`! ${timeline.verdict.text}`) : style.green(`✓ ${timeline.verdict.text}`);
  const origin = timeline.origin === 'deletion' ? 't = 0: the pod starts terminating' : 't = 0: the main program exits';
  const lines = ['', `${style.bold(`  ${title}`)}: ${verdict}  ${style.dim(`(${origin})`)}`];
  lines.push(...table(timeline.events.map((e) => [e.at === null ? 'never' : `${e.at} s`, e.actor, e.text]), [1, 0, 0], '    '));
  lines.push(...table(timeline.windows.map((w) => [mark(w, style), span(w), w.text]), [0, 1, 0], '    '));
  return lines;
}

function mark(w: TimelineWindow, style: Style): string {
  return w.outcome === 'fail' ? style.red('✗') : w.outcome === 'risk' ? style.yellow('!') : style.green('✓');
}

function span(w: TimelineWindow): string {
  if (w.to === null) return `from ${w.from} s`;
  return w.to === w.from ? `${w.from} s` : `${w.from}–${w.to} s`;
}

function severity(level: string, style: Style): string {
  return level === 'error' ? style.red(level) : level === 'warning' ? style.yellow(level) : style.dim(level);
}

function renderLeftAlone(entry: LeftAlone, style: Style): string[] {
  return [`  ${formatRef(entry.resource)}  ${style.dim(where(entry))}`, ...entry.findings.map((f) => `    ${severity(f.severity, style)} ${f.code}: ${f.message}`)];
}

/** Returns rows padded to aligned columns (`right[i]` = 1 aligns column i right); the last column is never padded. */
function table(rows: readonly string[][], right: readonly number[], indent: string): string[] {
  const width = (text: string) => [...text.replace(/\u001b\[[0-9;]*m/g, '')].length;
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(0, ...rows.map((r) => width(r[i] ?? ''))));
  return rows.map((cells) =>
    (indent + cells.map((cell, i) => {
      if (i === cells.length - 1) return cell;
      const pad = ' '.repeat(widths[i]! - width(cell));
      return right[i] ? pad + cell : cell + pad;
    }).join('  ')).trimEnd(),
  );
}
