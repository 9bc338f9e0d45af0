/**
 * `explain`: for each workload a mutator handled, the model's inputs and where each came from, the
 * durations the timing model derived (with formulas), the settings before and after, and the
 * shutdown timeline as written and as patched.
 *
 * One source of truth (issue #7): every derived number is the mutator's own plan, explained by
 * that mutator (fn/mutators/<id>/explain.ts, bound to the plan by the registry), every patched
 * value is the manifest the change records produced, and the as-written values are the input
 * manifest. Nothing here computes a duration or knows a mutator.
 */
import type { Config } from '../config/schema.ts';
import { formatPath, getAt } from '../core/fieldPath.ts';
import type { FieldPath } from '../core/fieldPath.ts';
import { addsObject } from '../core/records.ts';
import type { ChangeRecord, Finding, MutatorId, Severity } from '../core/records.ts';
import { formatRef } from '../core/kubeObject.ts';
import type { KubeObject, ResourceRef } from '../core/kubeObject.ts';
import type { RunOutcome } from '../engine/pipeline.ts';
import { inputResources } from '../engine/transform.ts';
import type { TransformResult } from '../engine/transform.ts';
import type { ExplanationBody } from '../explanation/types.ts';
import { provenanceText } from '../config/schema.ts';

export type { ModelInput, ModelOutput, SettingRow } from '../explanation/types.ts';

/** Version of the JSON shape (`--output json`); documented in docs/explain-schema.md. */
const EXPLAIN_SCHEMA = 'kube-graceful.dev/explain/v1';

/** Where a document starts in the files the user named (`line` absent when only the file is
 * known). */
export interface SourceLocation {
  readonly file: string;
  readonly line?: number;
}

/** A finding about this workload, as the run reported it. */
interface ExplainedFinding {
  readonly severity: Severity;
  readonly code: string;
  readonly field?: string;
  readonly message: string;
}

/** Everything `explain` says about one workload. */
export interface WorkloadExplanation extends ExplanationBody {
  readonly resource: ResourceRef;
  readonly document: number;
  readonly location?: SourceLocation;
  readonly mutator: MutatorId;
  readonly changes: ReadonlyArray<{
    readonly field: string;
    readonly before: unknown;
    readonly after: unknown;
  }>;
  readonly findings: readonly ExplainedFinding[];
}

/** A workload no mutator planned for, and why (its findings). */
export interface LeftAlone {
  readonly resource: ResourceRef;
  readonly document: number;
  readonly location?: SourceLocation;
  readonly findings: readonly ExplainedFinding[];
}

/** The whole `explain` document (`--output json` prints exactly this). */
export interface Explanation {
  readonly schema: typeof EXPLAIN_SCHEMA;
  readonly settings: {
    readonly kubernetesVersion: string;
    readonly istioVersion: string;
    readonly linkerdVersion: string;
    /** Where each non-default setting came from, keyed by spec path. */
    readonly sources: Readonly<Record<string, string>>;
  };
  readonly workloads: readonly WorkloadExplanation[];
  readonly leftAlone: readonly LeftAlone[];
  readonly summary: {
    readonly workloads: number;
    readonly failingAsWritten: number;
    readonly failingPatched: number;
    /** Workloads whose timeline rests on something not modelled (verdict outcome `unknown`). */
    readonly unknownAsWritten: number;
    readonly unknownPatched: number;
    readonly fieldsChanged: number;
  };
}

/** Returns the explanation of a run. `locate` maps a document number to its file and line. */
export function explain(
  result: TransformResult,
  locate: (document: number) => SourceLocation | undefined = () => undefined,
): Explanation {
  const before = inputObjects(result);
  const workloads: WorkloadExplanation[] = [];
  for (const outcome of result.outcomes) {
    const resource = outcome.subject === 'workload' ? outcome.workload.resource : outcome.resource;
    const document = resource.doc.place.document;
    const key = objectKey(document, resource.base);
    const original = before.get(key);
    if (!original) continue;
    workloads.push(explainOutcome(outcome, original, result, locate(document)));
  }
  const handled = new Set(workloads.map((w) => `${w.document}:${formatRef(w.resource)}`));
  const leftAlone = new Map<string, LeftAlone>();
  for (const finding of result.findings) {
    if (!finding.resource || finding.document === undefined) continue;
    const key = `${finding.document}:${formatRef(finding.resource)}`;
    if (handled.has(key)) continue;
    const location = locate(finding.document);
    const entry = leftAlone.get(key) ?? {
      resource: finding.resource,
      document: finding.document,
      ...(location ? { location } : {}),
      findings: [],
    };
    (entry.findings as ExplainedFinding[]).push(explainedFinding(finding));
    leftAlone.set(key, entry);
  }
  return {
    schema: EXPLAIN_SCHEMA,
    settings: settingsOf(result.config),
    workloads,
    leftAlone: [...leftAlone.values()],
    summary: summarize(workloads, result.changes.length),
  };
}

/** Returns the counts of the explanation's header for these workloads. */
export function summarize(
  workloads: readonly WorkloadExplanation[],
  fieldsChanged: number,
): Explanation['summary'] {
  return {
    workloads: workloads.length,
    failingAsWritten: workloads.filter((w) => w.timelines.asWritten.verdict.failures > 0).length,
    failingPatched: workloads.filter((w) => w.timelines.patched.verdict.failures > 0).length,
    unknownAsWritten: workloads.filter((w) => w.timelines.asWritten.verdict.outcome === 'unknown')
      .length,
    unknownPatched: workloads.filter((w) => w.timelines.patched.verdict.outcome === 'unknown')
      .length,
    fieldsChanged,
  };
}

function settingsOf(config: Config): Explanation['settings'] {
  return {
    kubernetesVersion: config.spec.kubernetesVersion,
    istioVersion: config.spec.istioVersion,
    linkerdVersion: config.spec.linkerdVersion,
    sources: provenanceText(config),
  };
}

/** The input's objects, keyed by document and place in it: the manifest as written. */
function inputObjects(result: TransformResult): Map<string, KubeObject> {
  return new Map(
    inputResources(result).map((r) => [objectKey(r.doc.place.document, r.base), r.object]),
  );
}

function objectKey(document: number, base: FieldPath): string {
  return `${document}:${JSON.stringify(base)}`;
}

/** A workload's explanation reads its pod template as written and as patched; an object mutator's,
 * the object itself. */
function explainOutcome(
  outcome: RunOutcome,
  original: KubeObject,
  result: TransformResult,
  location: SourceLocation | undefined,
): WorkloadExplanation {
  const { spec } = result.config;
  const [ref, resource, body] =
    outcome.subject === 'workload'
      ? [
          outcome.workload.ref,
          outcome.workload.resource,
          outcome.explain({
            before: getAt(original, outcome.workload.templatePath) ?? {},
            after: outcome.workload.template,
            spec,
          }),
        ]
      : [
          outcome.ref,
          outcome.resource,
          outcome.explain({ before: original, after: outcome.resource.object, spec }),
        ];
  const document = resource.doc.place.document;
  const sameResource = (r: { resource?: ResourceRef; document?: number }) =>
    r.document === document && r.resource !== undefined && formatRef(r.resource) === formatRef(ref);
  return {
    resource: ref,
    document,
    ...(location ? { location } : {}),
    mutator: outcome.mutator,
    ...body,
    // With the changes made for it elsewhere: the ConfigMap a Gateway's settings go into.
    changes: result.changes
      .filter((c) => sameResource(c) || (c.madeFor !== undefined && sameResource(c.madeFor)))
      .map((c) => ({ field: changedField(c), before: c.before, after: c.after })),
    findings: result.findings.filter(sameResource).map(explainedFinding),
  };
}

/** The field a change set, named with its object when that is not the one explained. */
function changedField(change: ChangeRecord): string {
  if (change.madeFor === undefined) return formatPath(change.path);
  const object = formatRef(change.resource);
  return addsObject(change) ? `${object} (added)` : `${object} ${formatPath(change.path)}`;
}

function explainedFinding(finding: Finding): ExplainedFinding {
  return {
    severity: finding.severity,
    code: finding.code,
    ...(finding.path ? { field: formatPath(finding.path) } : {}),
    message: finding.message,
  };
}
