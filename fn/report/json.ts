/**
 * The machine report of a run (`--report FILE.json`): the records as they are, with a schema
 * version.
 */
import { formatPath } from '../core/fieldPath.ts';
import { printableJson } from '../core/printable.ts';
import type { Config } from '../config/schema.ts';
import type { ChangeRecord, Finding } from '../core/records.ts';
import { provenanceText } from '../config/schema.ts';

/** Version of the JSON report's shape; bumped on any incompatible change. */
const REPORT_SCHEMA = 'kube-graceful.dev/report/v1';

/**
 * Returns the JSON report as data (the records with formatted field paths and the settings used).
 */
export function reportData(
  changes: readonly ChangeRecord[],
  findings: readonly Finding[],
  config: Config,
): Record<string, unknown> {
  return {
    schema: REPORT_SCHEMA,
    settings: { spec: config.spec, sources: provenanceText(config) },
    changes: changes.map((c) => ({ ...c, field: formatPath(c.path) })),
    findings: findings.map((f) => ({ ...f, ...(f.path ? { field: formatPath(f.path) } : {}) })),
  };
}

/**
 * Returns JSON text for report data (ints beyond 2^53 written as numbers; C1 and bidi controls
 * in strings as `\u` escapes, as JSON.stringify writes the C0 ones).
 */
export function toJsonText(data: unknown): string {
  return `${printableJson(
    JSON.stringify(data, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v), 2),
  )}\n`;
}
