/**
 * KRM `results` derived from the change records and findings (KRM Functions Specification):
 * one `info` result per change with the field's current and proposed value, and one result per
 * finding with its own severity.
 */
import { formatPath } from '../core/fieldPath.ts';
import { addsObject, bySeverity } from '../core/records.ts';
import type { ChangeRecord, Finding } from '../core/records.ts';
import type { Resource } from '../workloads/resource.ts';
import type { ResourceRef } from '../core/kubeObject.ts';

/**
 * The tag every result kube-graceful writes carries, so that a later run knows its own results and
 * replaces them instead of adding the same ones again (issue #33 item 8). A tag, because `tags` is
 * the one field of a result for a function's own data that kpt keeps (kyaml's framework.Result:
 * message, severity, resourceRef, field, file, tags; kpt v1.0.0-beta.56 reads results into it);
 * any other key would be dropped on the way.
 */
const OWN_RESULT_TAG = { key: 'function', value: 'kube-graceful' } as const;

/** Returns true when a result in a ResourceList was written by kube-graceful (OWN_RESULT_TAG). */
export function isOwnResult(result: unknown): boolean {
  const tags = (result as { tags?: unknown } | null | undefined)?.tags;
  return (
    typeof tags === 'object' &&
    tags !== null &&
    (tags as Record<string, unknown>)[OWN_RESULT_TAG.key] === OWN_RESULT_TAG.value
  );
}

/** One entry of a ResourceList's `results`. */
export interface KrmResult {
  message: string;
  severity: 'error' | 'warning' | 'info';
  resourceRef?: ResourceRef;
  field?: { path: string; currentValue?: unknown; proposedValue?: unknown };
  file?: { path: string; index?: number };
  tags?: Record<string, string>;
}

const OWN = { [OWN_RESULT_TAG.key]: OWN_RESULT_TAG.value };

/** Returns the results for a run, errors first; `resources` give each item's file (kpt's path/index
 * annotations). */
export function krmResults(
  changes: readonly ChangeRecord[],
  findings: readonly Finding[],
  resources: readonly Resource[],
): KrmResult[] {
  const fileOf = (document: number | undefined) => {
    const resource = resources.find((r) => r.doc.place.document === document);
    const annotations = resource?.object.metadata?.annotations ?? {};
    const path =
      annotations['internal.config.kubernetes.io/path'] ?? annotations['config.kubernetes.io/path'];
    const index =
      annotations['internal.config.kubernetes.io/index'] ??
      annotations['config.kubernetes.io/index'];
    return path ? { file: { path, ...(index !== undefined ? { index: Number(index) } : {}) } } : {};
  };
  const results = [
    ...changes.map((c): KrmResult =>
      // An added object has no field and no file yet (kpt names a file for it).
      addsObject(c)
        ? {
            message: c.reason,
            severity: 'info',
            resourceRef: c.resource,
            tags: { mutator: c.mutator, ...OWN },
          }
        : {
            message: c.reason,
            severity: 'info',
            resourceRef: c.resource,
            field: {
              path: formatPath(c.path),
              ...(c.before !== undefined ? { currentValue: c.before } : {}),
              // A removed field (a sidecar moved out of containers) proposes no value.
              ...(c.after !== undefined ? { proposedValue: c.after } : {}),
            },
            ...fileOf(c.document),
            tags: { mutator: c.mutator, ...OWN },
          },
    ),
    ...findings.map((f): KrmResult => ({
      message: f.message,
      severity: f.severity,
      ...(f.resource ? { resourceRef: f.resource } : {}),
      ...(f.path ? { field: { path: formatPath(f.path) } } : {}),
      ...fileOf(f.document),
      tags: { code: f.code, ...(f.mutator ? { mutator: f.mutator } : {}), ...OWN },
    })),
  ];
  // Array.prototype.sort is stable: within a severity, results keep the run's order.
  return results.sort(bySeverity);
}
