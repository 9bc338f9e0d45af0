/**
 * One EnvoyProxy spec planned from the run's settings: an EnvoyProxy's own, or the default spec in
 * Envoy Gateway's config. W comes from the load balancer its envoyService describes, unless the
 * settings give it.
 */
import { sourceText } from '../../config/schema.ts';
import type { MutatorOutcome, ObjectMutatorContext, ProposedFinding } from '../types.ts';
import { loadBalancerInputs, recognizeEnvoyServiceLoadBalancer } from './loadBalancer.ts';
import type { SpecLocation } from './objects.ts';
import type { EnvoyGatewayPlan } from './plan.ts';
import { planShutdown } from './shutdown.ts';
import type { ShutdownTimingInputs } from './shutdown.ts';

/** Plans one EnvoyProxy spec: an EnvoyProxy's, or the default spec in the controller's config. */
export function planSpec(
  location: SpecLocation,
  context: ObjectMutatorContext,
): MutatorOutcome<EnvoyGatewayPlan> & { readonly findings: readonly ProposedFinding[] } {
  const recognized = recognizeEnvoyServiceLoadBalancer(location);
  const lb = loadBalancerInputs(recognized);
  const { spec, config } = context;
  const inputs: ShutdownTimingInputs = {
    drainWindow:
      spec.loadBalancer.drainWindowSeconds !== undefined
        ? {
            value: spec.loadBalancer.drainWindowSeconds,
            source: sourceText(config, 'loadBalancer.drainWindowSeconds', 'drain-window'),
          }
        : lb.drainWindow,
    maxRequest: {
      value: spec.timing.maxRequestSeconds,
      source: sourceText(config, 'timing.maxRequestSeconds', 'max-request'),
    },
    buffer: {
      value: spec.timing.bufferSeconds,
      source: sourceText(config, 'timing.bufferSeconds', 'buffer'),
    },
    ...(lb.loadBalancer ? { loadBalancer: lb.loadBalancer } : {}),
  };
  const outcome = planShutdown(location, inputs);
  if (outcome.plan === undefined) return { changes: outcome.changes, findings: outcome.findings };
  return {
    changes: outcome.changes,
    findings: outcome.findings,
    plan: {
      label: location.label,
      inputs,
      loadBalancer: recognized.evidence,
      shutdown: outcome.plan,
    },
  };
}
