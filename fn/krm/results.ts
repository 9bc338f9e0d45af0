/**
 * KRM `results` derived from the change records and findings (KRM Functions Specification):
 * one `info` result per change with the field's current and proposed value, and one result per
 * finding with its own severity.
 */
import { formatPath } from '../core/fieldPath.ts';
import { addsObject, bySeverity } from '../core/records.ts';
import type { ChangeRecord, Finding } from '../core/records.ts';
import type { Resource } from '../workloads/resource.ts';
import type { KubeObject, ResourceRef } from '../core/kubeObject.ts';

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
  file?: KrmFile;
  tags?: Record<string, string>;
}

const OWN = { [OWN_RESULT_TAG.key]: OWN_RESULT_TAG.value };

/** Where an item came from in a kpt package: its file and its place among the file's objects. */
export interface KrmFile {
  readonly path: string;
  readonly index?: number;
}

/**
 * Each item's file, by its 1-based document number, as kpt's path and index annotations name it
 * (the first object of a document that has them), read from `objects` (the resources' objects as
 * read). Made as the items are read, so that a run that lets go of each item after its turn still
 * knows it (fn/engine/listPipeline.ts).
 */
export function itemFiles(
  resources: readonly Resource[],
  objects: readonly KubeObject[] = resources.map((r) => r.object),
  into = new Map<number, KrmFile>(),
): Map<number, KrmFile> {
  for (const [i, resource] of resources.entries()) {
    const document = resource.doc.place.document;
    if (into.has(document)) continue;
    const annotations = objects[i]!.metadata?.annotations ?? {};
    const path =
      annotations['internal.config.kubernetes.io/path'] ?? annotations['config.kubernetes.io/path'];
    const index =
      annotations['internal.config.kubernetes.io/index'] ??
      annotations['config.kubernetes.io/index'];
    // A document whose first object names no file names none (as a search by document finds).
    if (path)
      into.set(document, { path, ...(index !== undefined ? { index: Number(index) } : {}) });
    else into.set(document, NO_FILE);
  }
  return into;
}

/** The answer for a document whose first object has no path annotation. */
const NO_FILE: KrmFile = { path: '' };

/** Returns the results for a run, errors first; `files` give each item's file (itemFiles). */
export function krmResults(
  changes: readonly ChangeRecord[],
  findings: readonly Finding[],
  files: ReadonlyMap<number, KrmFile>,
): KrmResult[] {
  const fileOf = (document: number | undefined) => {
    const file = document === undefined ? undefined : files.get(document);
    return file?.path ? { file } : {};
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
