/**
 * `check`'s view of the third outcome (issue #26): a workload whose patched timeline rests on
 * something kube-graceful does not model gets no ✓ from `explain`, and `check` says so as a warning
 * (`--fail-on warning` fails on it). Derived from the explanation's verdict, never decided again.
 */
import type { Finding } from '../core/records.ts';
import { explain } from '../explain/explain.ts';
import type { TransformResult } from '../engine/transform.ts';
import { OUTCOME_UNKNOWN } from '../engine/findingCodes.ts';

/** Returns one warning per workload whose patched shutdown has an unknown outcome. */
export function unknownOutcomeFindings(result: TransformResult): Finding[] {
  return explain(result).workloads.flatMap((w): Finding[] => {
    const { verdict } = w.timelines.patched;
    if (verdict.outcome !== 'unknown') return [];
    return [
      {
        severity: 'warning',
        code: OUTCOME_UNKNOWN,
        mutator: w.mutator,
        resource: w.resource,
        document: w.document,
        message:
          `whether a request fails at shutdown is not known: ` +
          verdict.unknowns.map((u) => `${u.what}; tell kube-graceful with ${u.tell}`).join('; '),
      },
    ];
  });
}
