/** One line per finding for stderr and `check`: severity, code, resource, field, message. */
import { formatPath } from '../document/path.ts';
import type { Finding } from '../engine/records.ts';
import { formatRef } from '../workloads/kubeObject.ts';

/** Returns the finding as one line (`file:line` first when known). */
export function findingLine(finding: Finding, location?: string): string {
  const where = [location, finding.resource ? formatRef(finding.resource) : undefined, finding.path ? formatPath(finding.path) : undefined].filter(Boolean).join(' ');
  return `${finding.severity}: ${finding.code}${where ? ` ${where}` : ''}: ${finding.message}`;
}
