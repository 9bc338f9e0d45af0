/**
 * The grace-period write of a proxy that drains on its own terms (ingress-nginx, Contour's Envoy,
 * Kong): G from the timing model's coveringGrace, written only where it changes what the pod gets
 * (graceToWrite), with the formula and where W, R and B came from.
 */
import type { FieldPath } from '../../core/fieldPath.ts';
import { sourceLine } from '../../core/source.ts';
import { graceToWrite } from '../../timing/model.ts';
import type { Derived, TimingInputs } from '../../timing/model.ts';
import type { ProposedChange } from '../types.ts';

/** Returns the change that sets terminationGracePeriodSeconds to G at `path`, or undefined. */
export function graceChange(
  path: FieldPath,
  grace: Derived,
  inputs: TimingInputs,
): ProposedChange | undefined {
  const toWrite = graceToWrite(grace.value, inputs.existingGraceSeconds);
  if (toWrite === undefined) return undefined;
  return {
    path,
    value: toWrite,
    reason: [
      `terminationGracePeriodSeconds = ${toWrite}: ${grace.formula}. ${grace.explanation}`,
      sourceLine('W', inputs.drainWindow.source),
      sourceLine('R', inputs.maxRequest.source),
      sourceLine('B', inputs.buffer.source),
    ].join('\n'),
  };
}
