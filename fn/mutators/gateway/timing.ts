/**
 * The gateway's timing plan: inputs resolved from the stream and config
 * (fn/mutators/shared/timingInputs.ts), durations decided by the one model (fn/timing/model.ts).
 * Nothing here decides a number.
 */
import { resolveTimingInputs } from '../shared/timingInputs.ts';
import type { ExistingTiming, ResolvedInputs } from '../shared/timingInputs.ts';
import { planTimingResult } from '../../timing/model.ts';
import type { TimingPlan } from '../../timing/model.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { MutatorContext, ProposedFinding } from '../types.ts';
import { withKeptMinimum } from '../shared/istioEnvMode.ts';
import type { IstioEnvEntry } from '../shared/istioEnvMode.ts';

/** Inputs with their findings, and the plan; or why no plan could be made. */
export type GatewayTiming =
  | { readonly resolved: ResolvedInputs; readonly plan: TimingPlan }
  | { readonly error: ProposedFinding };

/** Returns the plan for the gateway's pods, or an error finding when an input is out of range. */
export function planGatewayTiming(
  workload: Workload,
  context: MutatorContext,
  existing: ExistingTiming,
  minimumDrain?: IstioEnvEntry,
): GatewayTiming {
  const read = resolveTimingInputs(workload, context, existing);
  // Env mode: a user's MINIMUM_DRAIN_DURATION longer than W is the plan's S.
  const resolved = { ...read, inputs: withKeptMinimum(read.inputs, minimumDrain) };
  const result = planTimingResult(resolved.inputs);
  if (result.ok) return { resolved, plan: result.plan };
  // A value read from the manifest that is not whole seconds in 0–86400 (e.g.
  // terminationGracePeriodSeconds: 1e6): nothing can be planned.
  return {
    error: {
      severity: 'error',
      code: 'GATEWAY_TIMING_INPUT',
      message: `No drain plan: ${result.problem}. Fix that value in the manifest.`,
    },
  };
}

/**
 * Returns the model's checks as findings, same code, severity and message. The sidecar-wait
 * check is left out: it is about a mesh sidecar outliving an app container, and a gateway's
 * proxy is the workload itself (docs/background.md#istio: gateways are never sidecars).
 */
export function checkFindings(plan: TimingPlan): ProposedFinding[] {
  return plan.checks
    .filter((check) => check.code !== 'SIDECAR_WAIT_NOT_BELOW_GRACE')
    .map((check) => ({ severity: check.severity, code: check.code, message: check.message }));
}
