/**
 * The human report of a run, derived from the change records and findings only: per resource,
 * each field set (before → after) with its reason, then the findings; last the settings used.
 * Every line that holds the input's text (names, values, messages) is made printable
 * (fn/core/printable.ts): its control characters and line breaks are shown as escapes.
 */
import { formatPath } from '../core/fieldPath.ts';
import { printable } from '../core/printable.ts';
import type { Config } from '../config/schema.ts';
import { addsObject } from '../core/records.ts';
import type { ChangeRecord, Finding } from '../core/records.ts';
import { formatRef } from '../core/kubeObject.ts';
import type { ResourceRef } from '../core/kubeObject.ts';
import { originText } from '../core/source.ts';

/** Returns the report text (ends with a newline). */
export function textReport(
  changes: readonly ChangeRecord[],
  findings: readonly Finding[],
  config: Config,
): string {
  const groups = new Map<
    string,
    { ref?: ResourceRef; document?: number; changes: ChangeRecord[]; findings: Finding[] }
  >();
  const group = (ref: ResourceRef | undefined, document: number | undefined) => {
    const key = ref ? `${document}:${formatRef(ref)}` : 'stream';
    let entry = groups.get(key);
    if (!entry)
      groups.set(
        key,
        (entry = {
          ...(ref ? { ref } : {}),
          ...(document !== undefined ? { document } : {}),
          changes: [],
          findings: [],
        }),
      );
    return entry;
  };
  for (const c of changes) group(c.resource, c.document).changes.push(c);
  for (const f of findings) group(f.resource, f.document).findings.push(f);
  const lines: string[] = [];
  const counts = ['error', 'warning', 'info'].map(
    (s) => `${findings.filter((f) => f.severity === s).length} ${s}`,
  );
  const fields = `${changes.length} field${changes.length === 1 ? '' : 's'}`;
  const resources = new Set(changes.map((c) => `${c.document}:${formatRef(c.resource)}`)).size;
  lines.push(
    `kube-graceful: ${fields} set in ${resources} resource(s); findings: ${counts.join(', ')}`,
  );
  for (const entry of groups.values()) {
    lines.push('', entry.ref ? printable(`${formatRef(entry.ref)}${placeOf(entry)}`) : 'stream');
    for (const c of entry.changes) {
      lines.push(
        addsObject(c)
          ? `  add the object  [${c.mutator}]`
          : c.after === undefined
            ? printable(`  remove ${formatPath(c.path)}: ${show(c.before)}  [${c.mutator}]`)
            : printable(
                `  set ${formatPath(c.path)}: ${show(c.before)} → ${show(c.after)}  [${c.mutator}]`,
              ),
      );
      // A reason is ours, several lines: each stays a line, indented under its change.
      for (const reason of c.reason.split('\n')) lines.push(`      ${printable(reason)}`);
    }
    for (const f of entry.findings) {
      lines.push(
        printable(
          `  ${f.severity} ${f.code}${f.path ? ` at ${formatPath(f.path)}` : ''}: ${f.message}`,
        ),
      );
    }
  }
  const settings = [...config.provenance.entries()].map(
    ([path, origin]) => `${path} from ${originText(origin)}`,
  );
  lines.push(
    '',
    printable(
      `Settings: ${settings.length ? settings.join('; ') : 'all defaults'} (Kubernetes ` +
        `${config.spec.kubernetesVersion}, Istio ${config.spec.istioVersion}, ` +
        `Linkerd ${config.spec.linkerdVersion}).`,
    ),
  );
  return `${lines.join('\n')}\n`;
}

/**
 * Longest value shown in full; longer ones (a wrapper script) are cut, the output holds them whole.
 */
const MAX_SHOWN = 400;

/** A value as it reads in a report: absent, a scalar, or compact JSON, cut when long. */
export function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text =
    typeof value === 'string' && !value.includes('\n')
      ? `"${value}"`
      : JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
  return text.length <= MAX_SHOWN
    ? text
    : `${text.slice(0, MAX_SHOWN)}… (${text.length} characters)`;
}

/** Where a group's resource is: its document, or after which one it is added. */
function placeOf(entry: { document?: number; changes: readonly ChangeRecord[] }): string {
  if (entry.document === undefined) return '';
  return entry.changes.some(addsObject)
    ? ` (added after document ${entry.document})`
    : ` (document ${entry.document})`;
}
