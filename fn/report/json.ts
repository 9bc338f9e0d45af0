/** The machine report of a run (`--report FILE.json`): the records as they are, with a schema version. */
import { formatPath } from '../document/path.ts';
import type { Config } from '../config/schema.ts';
import type { ChangeRecord, Finding } from '../engine/records.ts';

/** Version of the JSON report's shape; bumped on any incompatible change. */
export const REPORT_SCHEMA = 'kube-graceful.dev/report/v1';

/** Returns the JSON report text. */
export function jsonReport(changes: readonly ChangeRecord[], findings: readonly Finding[], config: Config): string {
  const report = {
    schema: REPORT_SCHEMA,
    settings: { spec: config.spec, sources: Object.fromEntries(config.provenance) },
    changes: changes.map((c) => ({ ...c, field: formatPath(c.path) })),
    findings: findings.map((f) => ({ ...f, ...(f.path ? { field: formatPath(f.path) } : {}) })),
  };
  return `${JSON.stringify(report, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v), 2)}\n`;
}
