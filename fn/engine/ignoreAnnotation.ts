/**
 * `kube-graceful.dev/ignore: CODE,CODE` (issue #29 item 4): findings accepted on purpose for one
 * object. Its findings of those codes are kept out of `findings` (so they neither print nor fail a
 * run) and counted apart (`ignored`), as an eslint-disable comment accepts one rule at one place.
 */
import type { ProposedFinding } from '../mutators/types.ts';
import { valueForMessage } from '../core/scalarText.ts';
import { findingCodeOwners } from './findingCodes.ts';

export const IGNORE_ANNOTATION = 'kube-graceful.dev/ignore';

/** The codes an object accepts, and the finding for a value not understood. */
export interface IgnoreRead {
  readonly codes: ReadonlySet<string>;
  readonly finding?: ProposedFinding;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Reads the annotation: codes separated by commas (blanks around them allowed). A code no run can
 * emit is refused with an error finding, and the others still apply: a misspelt code would
 * otherwise accept nothing, in silence.
 */
export function readIgnore(annotations: Readonly<Record<string, unknown>>): IgnoreRead {
  if (!(IGNORE_ANNOTATION in annotations)) return { codes: NONE };
  const text = annotations[IGNORE_ANNOTATION];
  const codes = typeof text === 'string' ? text.split(',').map((code) => code.trim()) : [];
  const known = findingCodeOwners();
  const unknown = codes.filter((code) => !known.has(code));
  const accepted = new Set(codes.filter((code) => known.has(code)));
  if (typeof text === 'string' && unknown.length === 0 && accepted.size > 0)
    return { codes: accepted };
  return {
    codes: accepted,
    finding: {
      severity: 'error',
      code: 'BAD_ANNOTATION',
      message:
        `${IGNORE_ANNOTATION}: got ${valueForMessage(text)}; write finding codes separated by ` +
        'commas, as check prints them (e.g. "GATEWAY_NO_PDB,NO_SERVICE_IN_STREAM")' +
        (unknown.filter(Boolean).length
          ? `; not a finding code: ${unknown.filter(Boolean).join(', ')}`
          : ''),
      path: ['metadata', 'annotations', IGNORE_ANNOTATION],
    },
  };
}
