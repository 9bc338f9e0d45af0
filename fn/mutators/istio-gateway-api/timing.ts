/**
 * The drain plan for one Gateway's generated pods, from the one timing model: W from the load
 * balancer the generated Service shows (or the settings), R and B from the settings, and what the
 * overlays in effect already set (the grace period, drainDuration, a longer minimum drain).
 * Nothing here decides a number.
 */
import { userProviderOverUnknown } from '../../timing/loadBalancerTable.ts';
import { connectionClosingInputs } from '../../timing/connectionClosing.ts';
import { planTimingResult } from '../../timing/model.ts';
import type { Sourced, TimingInputs } from '../../timing/model.ts';
import { valueForMessage } from '../../core/scalarText.ts';
import { comparableSeconds, isInt64 } from '../../workloads/grace.ts';
import { unknownOf } from '../shared/timingInputs.ts';
import { keptMinimumPlan, withKeptMinimum } from '../shared/istioEnvMode.ts';
import { layerName } from './effective.ts';
import type { EffectiveSettings } from './effective.ts';
import type { IstioGatewayApiFinding } from './finding.ts';
import { refOf } from './objects.ts';
import type { GatewayApiTiming, IstioGatewayApiInputs } from './decision.ts';
import type { readProxyConfigText } from './proxyConfigText.ts';
import type { GeneratedService } from './service.ts';

/** What the overlays in effect set, and the names of their ConfigMaps. */
export interface InEffect {
  readonly effective: EffectiveSettings;
  readonly names: { readonly parameters: string; readonly classDefaults: string };
  readonly proxyConfig: ReturnType<typeof readProxyConfigText>;
}

/** Returns the plan, or the error finding for a value that cannot be planned with. */
export function planGatewayApiTiming(
  inputs: IstioGatewayApiInputs,
  { effective, names, proxyConfig }: InEffect,
  service: GeneratedService,
):
  | { readonly ok: true; readonly timing: GatewayApiTiming }
  | { readonly ok: false; readonly error: IstioGatewayApiFinding } {
  const graceValue = effective.grace?.value;
  if (graceValue !== undefined && !isInt64(graceValue)) {
    return {
      ok: false,
      error: timingInputError(
        `terminationGracePeriodSeconds ${valueForMessage(graceValue)} ` +
          `in ${layerName(effective.grace!.layer, names)}` +
          ` is not a whole number of seconds`,
      ),
    };
  }
  const gatewayRef = refOf(inputs.gateway);
  const recognition = userProviderOverUnknown(service.recognition, inputs.provider);
  const drainWindow: Sourced = inputs.drainWindow ?? {
    value: recognition.drainWindowSeconds,
    source: { kind: 'load-balancer', evidence: recognition.evidence, generatedFor: gatewayRef },
    ...unknownOf(recognition),
  };
  // When the load balancer closes the proxy's connections: the generated Service's target-group
  // attributes (AWS) or its BackendConfig's connection draining (GKE).
  const closing = connectionClosingInputs(
    recognition,
    `on the Service istiod generates for ${gatewayRef}`,
  );
  const planned: TimingInputs = {
    drainWindow,
    maxRequest: inputs.maxRequest,
    buffer: inputs.buffer,
    ...(closing === undefined ? {} : { loadBalancer: closing }),
    ...(graceValue === undefined ? {} : { existingGraceSeconds: comparableSeconds(graceValue) }),
    ...(proxyConfig.ok && proxyConfig.drainSeconds !== undefined
      ? { existingDrainDurationSeconds: Math.ceil(proxyConfig.drainSeconds) }
      : {}),
  };
  // A user's longer minimum drain is kept, so the proxy serves that long: the model's S.
  const userMinimum = effective.env['MINIMUM_DRAIN_DURATION'];
  const timingInputs = withKeptMinimum(planned, userMinimum?.value);
  const result = planTimingResult(timingInputs);
  if (!result.ok) return { ok: false, error: timingInputError(result.problem) };
  const plan = keptMinimumPlan(
    result.plan,
    timingInputs,
    userMinimum?.value,
    userMinimum ? layerName(userMinimum.layer, names) : '',
  );
  return { ok: true, timing: { inputs: timingInputs, plan, loadBalancer: recognition } };
}

function timingInputError(message: string): IstioGatewayApiFinding {
  return {
    severity: 'error',
    code: 'ISTIO_GATEWAY_API_TIMING_INPUT',
    message: `No drain plan: ${message}. Fix that value.`,
  };
}
