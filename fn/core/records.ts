/**
 * The one record of every edit and every finding. The report, the KRM `results`, `--diff`,
 * `explain` and the idempotency check are all computed from these (docs/ARCHITECTURE.md).
 */
import { SharedStrings } from './sharedStrings.ts';
import type { FieldPath } from './fieldPath.ts';
import type { ResourceRef } from './kubeObject.ts';

/**
 * Identifies a mutator in records, config and docs: one of the registry's ids
 * (fn/mutators/registry.ts `MutatorId`; core knows no mutator, so here it is a string).
 */
export type MutatorId = string;

/** One field set (or removed) by one mutator, with the value before and after and why. */
export interface ChangeRecord {
  readonly mutator: MutatorId;
  readonly resource: ResourceRef;
  /** 1-based document (or ResourceList item) position in the input. */
  readonly document: number;
  /** Path from the object's root. */
  readonly path: FieldPath;
  /** `undefined` when the field did not exist. */
  readonly before: unknown;
  /** `undefined` when the change removes the field or list item (fieldPath.ts setAt). */
  readonly after: unknown;
  /** Why, with the numbers' derivation (e.g. "G = S + R + B = 180 + 10 + 10 = 200"). */
  readonly reason: string;
  /**
   * The object this change was made for, when it is another: a Gateway whose settings go into the
   * ConfigMap it names. A change with an empty path and nothing before adds the whole object.
   */
  readonly madeFor?: { readonly resource: ResourceRef; readonly document: number };
}

/** Returns true when the record adds a whole object to the input, rather than setting a field. */
export function addsObject(record: ChangeRecord): boolean {
  return record.path.length === 0 && record.before === undefined;
}

export type Severity = 'error' | 'warning' | 'info';

/** Orders results and findings most severe first. */
export function bySeverity(
  a: { readonly severity: Severity },
  b: { readonly severity: Severity },
): number {
  return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity];
}

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** Something the user should know or fix; errors make the run exit 1. */
export interface Finding {
  readonly severity: Severity;
  /** Stable code, e.g. `LB_DEREGISTRATION_TOO_SHORT`. */
  readonly code: string;
  readonly message: string;
  /** The mutator that found it, or `engine` for the engine's own findings (annotations, input). */
  readonly mutator?: MutatorId;
  readonly resource?: ResourceRef;
  readonly document?: number;
  /** The field the finding is about, from the object's root. */
  readonly path?: FieldPath;
}

/**
 * The lines of reasons and messages already seen, so that equal lines are one string. Records are
 * kept for the whole run, and the same reason is written for every workload with a different line
 * or two (a Service's name): bookinfo in 400 namespaces held 3.6 million characters of reasons,
 * more than its input (issue #16 item 5). Bounded, so that a process running many transforms
 * (tests, a server) does not keep every line it ever saw.
 */
const sharedLines = new SharedStrings(20_000);

/**
 * Returns `text` made of shared lines: equal to it, character for character, but held as a chain of
 * the lines already seen (V8 keeps a concatenation of two strings as a pair of references until it
 * is read), so that a run's records cost about a line per record, not a text.
 */
export function sharedText(text: string): string {
  // Each line is cut out of the text by split(): the table keeps copies (SharedStrings), or it
  // would keep every reason a line first appeared in.
  const lines = text.split('\n');
  let shared = sharedLines.share(lines[0]!);
  for (let i = 1; i < lines.length; i++) shared = shared + '\n' + sharedLines.share(lines[i]!);
  return shared;
}
