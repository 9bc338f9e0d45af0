/**
 * What `check` found, as data: every pending change and finding with where it is in the files,
 * what was accepted on purpose, what was read, and whether the gate fails. The text, JSON, SARIF
 * and JUnit outputs are all made from this one value, never from a second decision.
 */
import { formatPath } from '../core/fieldPath.ts';
import type { ResourceRef } from '../core/kubeObject.ts';
import { addsObject } from '../core/records.ts';
import type { ChangeRecord, Finding, Severity } from '../core/records.ts';
import type { InputCount } from '../engine/pipeline.ts';
import type { TransformResult } from '../engine/transform.ts';
import type { Inputs, Location } from './inputs.ts';

export const FAIL_ON = ['change', 'warning', 'error'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** How a finding was accepted: the object's `kube-graceful.dev/ignore`, or `check --ignore`. */
type IgnoredBy = 'annotation' | 'option';

/** One pending change, where it is. */
export interface CheckChange {
  readonly record: ChangeRecord;
  readonly location?: Location;
}

/** One finding, where it is. */
export interface CheckFinding {
  readonly finding: Finding;
  readonly location?: Location;
  /** Set when accepted on purpose: it neither prints as a line nor fails. */
  readonly ignoredBy?: IgnoredBy;
}

/** Everything `check` found and its decision. */
export interface CheckVerdict {
  readonly failOn: FailOn;
  readonly mode: TransformResult['mode'];
  readonly changes: readonly CheckChange[];
  /** The findings not accepted, in the run's order. */
  readonly findings: readonly CheckFinding[];
  readonly ignored: readonly CheckFinding[];
  /** What was read; in a ResourceList, documents are its items. */
  readonly read: InputCount;
  /** Why the gate fails; empty when it passes. */
  readonly failures: readonly Failure[];
}

/** A reason the gate fails. */
type Failure = 'error' | 'change' | 'warning' | 'empty';

/** What decides the verdict besides the run. */
export interface VerdictOptions {
  readonly failOn: FailOn;
  /** Codes accepted everywhere (`--ignore`). */
  readonly ignore: ReadonlySet<string>;
  /** An input without a Kubernetes object passes (`--allow-empty`). */
  readonly allowEmpty: boolean;
}

/**
 * Returns the verdict of a run. What fails at a level: error findings always; changes from
 * `change`; warnings at `warning`; and, unless allowed, an input with no Kubernetes object in it
 * (issue #29 item 2: a failed `helm template` writes nothing, and nothing must not pass the gate).
 */
export function checkVerdict(
  result: TransformResult,
  inputs: Inputs,
  options: VerdictOptions,
): CheckVerdict {
  const where = (document: number | undefined, resource?: ResourceRef, path?: Finding['path']) =>
    document === undefined ? undefined : inputs.locate(document, resource, path);
  const located = (finding: Finding, ignoredBy?: IgnoredBy): CheckFinding => {
    const location = where(finding.document, finding.resource, finding.path);
    return { finding, ...(location ? { location } : {}), ...(ignoredBy ? { ignoredBy } : {}) };
  };
  const changes = result.changes.map((record): CheckChange => {
    // An added object has no field of its own in the input: point at the object it goes with.
    const near = addsObject(record) ? (record.madeFor ?? record) : record;
    const location = where(near.document, near.resource, addsObject(record) ? [] : record.path);
    return { record, ...(location ? { location } : {}) };
  });
  const findings = result.findings
    .filter((f) => !options.ignore.has(f.code))
    .map((f) => located(f));
  const ignored = [
    ...result.ignored.map((f) => located(f, 'annotation')),
    ...result.findings.filter((f) => options.ignore.has(f.code)).map((f) => located(f, 'option')),
  ];
  // A ResourceList's items are counted from its text: the engine parses only those it may need.
  const read =
    result.mode === 'resourceList' && inputs.items !== undefined
      ? { ...result.read, documents: inputs.items, objects: inputs.items }
      : result.read;
  const has = (severity: Severity) => findings.some((f) => f.finding.severity === severity);
  const failures: Failure[] = [];
  if (has('error')) failures.push('error');
  if (options.failOn !== 'error' && changes.length > 0) failures.push('change');
  if (options.failOn === 'warning' && has('warning')) failures.push('warning');
  if (!options.allowEmpty && read.objects === 0) failures.push('empty');
  return { failOn: options.failOn, mode: result.mode, changes, findings, ignored, read, failures };
}

/** Returns true when the change is one of those that fail the gate. */
export function changeFails(verdict: CheckVerdict): boolean {
  return verdict.failures.includes('change');
}

/** Returns true when the finding fails the gate at the verdict's level. */
export function findingFails(verdict: CheckVerdict, finding: Finding): boolean {
  return (
    finding.severity === 'error' || (finding.severity === 'warning' && verdict.failOn === 'warning')
  );
}

/** Returns the field a change or finding is about, as check prints it (`spec.template…`). */
export function fieldOf(path: Finding['path']): string | undefined {
  return path && path.length > 0 ? formatPath(path) : undefined;
}
