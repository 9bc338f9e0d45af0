/**
 * The pod's terminationGracePeriodSeconds from the plan (docs/background.md#the-timing-model: G = S
 * + R + B, never lowered).
 */
import { graceToWrite } from '../../timing/model.ts';
import type { TimingInputs, TimingPlan } from '../../timing/model.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedChange } from '../types.ts';
import { derivation } from './reasons.ts';

/**
 * Returns the change that sets G, or none when the Kubernetes default already gives it. When the
 * manifest's value is larger the model keeps it, and the engine drops the change as a no-op.
 * `note` says what S stands for in the mode used.
 */
export function graceChange(
  workload: Workload,
  plan: TimingPlan,
  inputs: TimingInputs,
  note: string,
): ProposedChange[] {
  const value = graceToWrite(plan.graceSeconds.value, inputs.existingGraceSeconds);
  if (value === undefined) return [];
  return [
    {
      path: workload.at('spec', 'terminationGracePeriodSeconds'),
      value,
      reason: derivation(
        'terminationGracePeriodSeconds',
        String(value),
        [plan.graceSeconds, plan.preStopSeconds],
        { inputs, symbols: ['W'], notes: [note] },
      ),
    },
  ];
}
