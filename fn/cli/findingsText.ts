/**
 * One line per finding for stderr and `check`: severity, code, resource, field, message. Names,
 * paths and messages carry the input's text: its control characters, line breaks among them, are
 * shown as escapes (fn/core/printable.ts), so a name can neither drive the terminal nor start a
 * line of its own.
 */
import { formatPath } from '../core/fieldPath.ts';
import { printable } from '../core/printable.ts';
import type { Finding } from '../core/records.ts';
import { formatRef } from '../core/kubeObject.ts';

/** Returns the finding as one line (`file:line` first when known). */
export function findingLine(finding: Finding, location?: string): string {
  const where = [
    location,
    finding.resource ? formatRef(finding.resource) : undefined,
    finding.path ? formatPath(finding.path) : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  return printable(
    `${finding.severity}: ${finding.code}${where ? ` ${where}` : ''}: ${finding.message}`,
  );
}
