/** The pod's terminationGracePeriodSeconds from the plan (DOMAIN §5: G = S + R + B, never lowered). */
import type { TimingInputs, TimingPlan } from '../../timing/model.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedChange } from '../types.ts';
import { derivation } from './reasons.ts';

/**
 * Returns the change that sets G. When the manifest's value is larger the model keeps it, and the
 * engine drops the change as a no-op. `note` says what S stands for in the mode used.
 */
export function graceChange(workload: Workload, plan: TimingPlan, inputs: TimingInputs, note: string): ProposedChange {
  const value = plan.graceSeconds.value;
  return {
    path: workload.at('spec', 'terminationGracePeriodSeconds'),
    value,
    reason: derivation('terminationGracePeriodSeconds', String(value), [plan.graceSeconds, plan.preStopSeconds], inputs, ['W'], [note]),
  };
}
