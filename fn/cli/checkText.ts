/**
 * `check`'s text: one line per pending change and per warning or error finding (`file:line`,
 * resource, field), then the verdict line, the only one that starts with `kube-graceful check:`.
 * Names carry the input's text and are made printable (fn/core/printable.ts) before any colour is
 * added, so a name can neither drive the terminal nor forge a line.
 */
import { formatRef } from '../core/kubeObject.ts';
import { printable } from '../core/printable.ts';
import { show } from '../report/text.ts';
import { addsObject } from '../core/records.ts';
import type { CheckChange, CheckFinding, CheckVerdict } from './checkVerdict.ts';
import { fieldOf } from './checkVerdict.ts';
import { findingLine } from './findingsText.ts';
import { formatLocation } from './inputs.ts';

/** ANSI SGR codes, or none. */
interface Paint {
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly green: (text: string) => string;
  readonly cyan: (text: string) => string;
}

const sgr = (code: number) => (text: string) => `\u001b[${code}m${text}\u001b[0m`;
const ANSI: Paint = { red: sgr(31), yellow: sgr(33), green: sgr(32), cyan: sgr(36) };
const same = (text: string) => text;
const PLAIN: Paint = { red: same, yellow: same, green: same, cyan: same };

/** Returns check's lines (no trailing newline); `colour` adds ANSI colours to the line heads. */
export function checkLines(verdict: CheckVerdict, colour = false): string[] {
  const paint = colour ? ANSI : PLAIN;
  const head = (line: string, word: string, tint: (t: string) => string) =>
    line.startsWith(word) ? tint(word) + line.slice(word.length) : line;
  return [
    ...verdict.changes.map((c) => head(changeLine(c), 'change:', paint.cyan)),
    ...verdict.findings
      .filter((f) => f.finding.severity !== 'info')
      .map((f) => findingLine(f.finding, formatLocation(f.location)))
      .map((line) => head(head(line, 'error:', paint.red), 'warning:', paint.yellow)),
    summaryLine(verdict, paint),
  ];
}

/**
 * One pending change, in findingLine's shape: `change: MUTATOR file:line Kind ns/name field: before
 * → after`, on one line whatever the names hold.
 */
function changeLine({ record, location }: CheckChange): string {
  const at = formatLocation(location);
  if (addsObject(record))
    return printable(
      `change: ${record.mutator} ${at ? `${at} ` : ''}add ${formatRef(record.resource)}`,
    );
  const where = [at, formatRef(record.resource), fieldOf(record.path)].filter(Boolean).join(' ');
  const before = clip(show(record.before));
  return printable(`change: ${record.mutator} ${where}: ${before} → ${clip(show(record.after))}`);
}

/**
 * Long values (a wrapped command) are cut: the line is for finding the field, `--diff` shows it
 * all.
 */
function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The verdict line: pass or fail and at which level, what would change, the findings by severity,
 * what was accepted on purpose (by code) and what was read.
 */
function summaryLine(verdict: CheckVerdict, paint: Paint): string {
  const failed = verdict.failures.length > 0;
  const count = (s: string) => verdict.findings.filter((f) => f.finding.severity === s).length;
  const workloads = new Set(
    verdict.changes.map((c) => `${c.record.document}:${formatRef(c.record.resource)}`),
  ).size;
  const changed = verdict.changes.length
    ? `${plural(verdict.changes.length, 'field')} in ${plural(workloads, 'workload')} would change`
    : 'nothing would change';
  const { read } = verdict;
  const unit = verdict.mode === 'resourceList' ? 'item' : 'document';
  const empty = verdict.failures.includes('empty')
    ? ': no Kubernetes object in the input (a failed render?); --allow-empty passes it'
    : '';
  return (
    `kube-graceful check: ${failed ? paint.red('FAIL') : paint.green('ok')} ` +
    `(--fail-on ${verdict.failOn}): ${changed}; ` +
    `findings: ${count('error')} error, ${count('warning')} warning, ` +
    `${count('info')} info (info not shown: kube-graceful explain shows them)` +
    ignoredText(verdict.ignored) +
    `; read ${plural(read.workloads, 'workload')} in ${plural(read.documents, unit)}${empty}`
  );
}

/** `; ignored: 2 (GATEWAY_NO_PDB ×2)`, or nothing. */
function ignoredText(ignored: readonly CheckFinding[]): string {
  if (ignored.length === 0) return '';
  const byCode = new Map<string, number>();
  for (const { finding } of ignored) byCode.set(finding.code, (byCode.get(finding.code) ?? 0) + 1);
  const codes = [...byCode].map(([code, n]) => (n === 1 ? code : `${code} ×${n}`)).join(', ');
  return `; ignored: ${ignored.length} (${codes})`;
}
