/**
 * `check -o junit`: JUnit XML, which Jenkins, GitLab and most CI servers show as tests. One test
 * case per workload × finding (classname: the object, name: the finding code) and per workload ×
 * mutator with pending changes (name: the mutator id, its fields in the text); a case fails when
 * what it reports fails the gate, is skipped when accepted on purpose, and passes otherwise
 * (a warning under `--fail-on change`). A first case, `input`, fails when nothing was read.
 * test/cli/check-formats.test.ts parses the output back with an XML parser.
 */
import { formatRef } from '../core/kubeObject.ts';
import { IGNORE_ANNOTATION } from '../engine/ignoreAnnotation.ts';
import { printable } from '../core/printable.ts';
import { xmlText } from '../explain/render/xmlText.ts';
import { changeFails, findingFails, fieldOf } from './checkVerdict.ts';
import type { CheckVerdict } from './checkVerdict.ts';
import { checkLines } from './checkText.ts';
import { formatLocation } from './inputs.ts';
import type { Location } from './inputs.ts';

interface TestCase {
  readonly classname: string;
  readonly name: string;
  readonly location?: Location;
  readonly outcome?: { readonly kind: 'failure' | 'skipped'; readonly message: string };
  readonly text: string;
}

/** Returns the words that are there, joined by spaces. */
const words = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(' ');

/** Returns the JUnit XML document. */
export function renderJunit(verdict: CheckVerdict): string {
  const summary = checkLines(verdict).at(-1)!;
  const cases: TestCase[] = [
    {
      classname: 'kube-graceful',
      name: 'input',
      text: summary,
      ...(verdict.failures.includes('empty')
        ? { outcome: { kind: 'failure', message: 'no Kubernetes object in the input' } }
        : {}),
    },
  ];
  // Pending changes: one case per object and mutator, its fields listed.
  const byObject = new Map<
    string,
    { classname: string; name: string; location?: Location; lines: string[] }
  >();
  for (const { record, location } of verdict.changes) {
    const object = record.madeFor ?? record;
    const key = `${object.document}\u0000${formatRef(object.resource)}\u0000${record.mutator}`;
    const entry = byObject.get(key) ?? {
      classname: formatRef(object.resource),
      name: record.mutator,
      ...(location ? { location } : {}),
      lines: [],
    };
    const what = fieldOf(record.path) ?? `add ${formatRef(record.resource)}`;
    entry.lines.push(`${words(formatLocation(location), what)}: ${record.reason}`);
    byObject.set(key, entry);
  }
  for (const entry of byObject.values()) {
    const n = entry.lines.length;
    const message = `${n} field${n === 1 ? '' : 's'} would change`;
    cases.push({
      classname: entry.classname,
      name: entry.name,
      ...(entry.location ? { location: entry.location } : {}),
      text: entry.lines.join('\n'),
      ...(changeFails(verdict) ? { outcome: { kind: 'failure', message } } : {}),
    });
  }
  for (const { finding, location, ignoredBy } of [...verdict.findings, ...verdict.ignored]) {
    if (finding.severity === 'info' && !ignoredBy) continue;
    const where = words(formatLocation(location), fieldOf(finding.path));
    const text = `${finding.severity}: ${where ? `${where}: ` : ''}${finding.message}`;
    const outcome = ignoredBy
      ? {
          kind: 'skipped' as const,
          message: `ignored (${ignoredBy === 'annotation' ? IGNORE_ANNOTATION : '--ignore'})`,
        }
      : findingFails(verdict, finding)
        ? { kind: 'failure' as const, message: finding.message }
        : undefined;
    cases.push({
      classname: finding.resource ? formatRef(finding.resource) : 'kube-graceful',
      name: finding.code,
      ...(location ? { location } : {}),
      text,
      ...(outcome ? { outcome } : {}),
    });
  }
  const failures = cases.filter((c) => c.outcome?.kind === 'failure').length;
  const skipped = cases.filter((c) => c.outcome?.kind === 'skipped').length;
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="kube-graceful check" ${counts}>`,
    `  <testsuite name="kube-graceful check" ${counts}>`,
    ...cases.map(caseXml),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * Attribute and text values: the input's names made printable, then escaped for XML; a text's
 * lines stay lines.
 */
const x = (text: string) =>
  text
    .split('\n')
    .map((line) => xmlText(printable(line)))
    .join('\n');

function caseXml(c: TestCase): string {
  const line = c.location?.line !== undefined ? ` line="${c.location.line}"` : '';
  const where = c.location ? ` file="${x(c.location.file)}"${line}` : '';
  const open = `    <testcase classname="${x(c.classname)}" name="${x(c.name)}"${where}>`;
  const outcome = c.outcome
    ? c.outcome.kind === 'failure'
      ? `      <failure message="${x(c.outcome.message)}" type="${x(c.name)}">${x(c.text)}` +
        '</failure>'
      : `      <skipped message="${x(c.outcome.message)}"/>`
    : `      <system-out>${x(c.text)}</system-out>`;
  return [open, outcome, '    </testcase>'].join('\n');
}
