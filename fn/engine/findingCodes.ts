/**
 * Every finding code a run can emit: the mutators' (each declared in its folder's findings.ts and
 * documented on its page, docs/mutators/<id>.md) and the engine's own, documented in
 * docs/findings.md. `kube-graceful.dev/ignore`, `check --ignore` and check's SARIF rules read
 * this list.
 */
import { MUTATORS } from '../mutators/registry.ts';

/**
 * The engine's codes: annotations it cannot read, edits it refuses (pipeline.ts), admission
 * policies in the stream that would undo the plan (admissionCheck.ts), and the warning
 * `check` gives a shutdown whose outcome is not known (fn/cli/unknownOutcomes.ts).
 */
export const OUTCOME_UNKNOWN = 'OUTCOME_UNKNOWN';
export const ADMISSION_UNDOES_PLAN = 'ADMISSION_UNDOES_PLAN';
export const ENGINE_FINDING_CODES: readonly string[] = [
  ADMISSION_UNDOES_PLAN,
  'BAD_ANNOTATION',
  'EDIT_TARGET_SKIPPED',
  OUTCOME_UNKNOWN,
];

/** Who emits a code: the mutators that declare it, or `engine`. */
export type CodeOwners = ReadonlyMap<string, readonly string[]>;

let owners: CodeOwners | undefined;

/** Returns every known code with the ids of the mutators (or `engine`) that can emit it. */
export function findingCodeOwners(): CodeOwners {
  if (owners) return owners;
  const map = new Map<string, string[]>();
  const add = (code: string, owner: string) => map.set(code, [...(map.get(code) ?? []), owner]);
  for (const code of ENGINE_FINDING_CODES) add(code, 'engine');
  for (const mutator of MUTATORS)
    for (const code of new Set(mutator.findingCodes)) add(code, mutator.id);
  return (owners = map);
}
