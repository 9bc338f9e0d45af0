/** One line per finding for stderr and `check`: severity, code, resource, field, message. */
import { formatPath } from '../core/fieldPath.ts';
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
  return `${finding.severity}: ${finding.code}${where ? ` ${where}` : ''}: ${finding.message}`;
}
