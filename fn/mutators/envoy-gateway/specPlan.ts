/**
 * One EnvoyProxy spec planned from the run's settings: an EnvoyProxy's own, or the default spec in
 * Envoy Gateway's config. W comes from the load balancer its envoyService describes, unless the
 * settings give it.
 */
import { nodeForwardingOf, userProviderOverUnknown } from '../../timing/loadBalancers.ts';
import { controllerRelease } from './controllerConfig.ts';
import type { LoadBalancerRecognition } from '../../timing/loadBalancers.ts';
import { configuredTiming } from '../shared/timingInputs.ts';
import type { ConfiguredTiming } from '../shared/timingInputs.ts';
import type { MutatorOutcome, ObjectMutatorContext, ProposedFinding } from '../types.ts';
import { loadBalancerInputs, recognizeEnvoyServiceLoadBalancer } from './loadBalancer.ts';
import type { SpecLocation } from './objects.ts';
import type { EnvoyGatewayPlan } from './plan.ts';
import { planShutdown } from './shutdown.ts';
import type { ShutdownTimingInputs } from './shutdown.ts';
import type { KubeObject } from '../../core/kubeObject.ts';
import { effectiveSpec } from './effective.ts';
import type { EffectiveSpec } from './effective.ts';

/**
 * The run's timing settings, the oldest kubelet's version (node forwarding depends on it) and the
 * Envoy Gateway release the input's controller config names (read once per run of a mutator).
 */
export type SpecSettings = ConfiguredTiming & {
  readonly kubernetesVersion: string;
  readonly release?: string;
};

function specSettings(context: ObjectMutatorContext): SpecSettings {
  const release = controllerRelease(context.objects);
  return {
    ...configuredTiming(context),
    kubernetesVersion: context.spec.kubernetesVersion,
    ...(release !== undefined ? { release } : {}),
  };
}

/**
 * Returns one spec's timing inputs and the load balancer they come from: the one its envoyService
 * describes, unless the settings name a provider where that is only a guess (issue #27 item 1: the
 * user's statement wins), and W from the settings when they set it. The one path for the engine
 * (planSpec) and for a whole stream at once (./streamPlan.ts).
 */
export function specInputs(
  location: SpecLocation,
  configured: SpecSettings,
  objects: readonly KubeObject[],
): { readonly inputs: ShutdownTimingInputs; readonly recognized: LoadBalancerRecognition } {
  const recognized = userProviderOverUnknown(
    recognizeEnvoyServiceLoadBalancer(location, {
      backendConfigs: objects.filter((o) => o.kind === 'BackendConfig'),
    }),
    configured.provider,
  );
  const lb = loadBalancerInputs(recognized);
  const nodeForwarding = nodeForwardingOf(recognized, configured.kubernetesVersion);
  const { release } = configured;
  const inputs: ShutdownTimingInputs = {
    drainWindow: configured.drainWindow ?? lb.drainWindow,
    maxRequest: configured.maxRequest,
    buffer: configured.buffer,
    ...(lb.loadBalancer ? { loadBalancer: lb.loadBalancer } : {}),
    ...(nodeForwarding ? { nodeForwarding } : {}),
    ...(release !== undefined ? { release } : {}),
  };
  return { inputs, recognized };
}

/**
 * Returns the spec to plan for an EnvoyProxy object: the one Envoy Gateway merges it into where
 * its mergeType says so (./effective.ts), each level below as this run patches it.
 */
export function effectiveOf(
  object: KubeObject,
  configured: SpecSettings,
  objects: readonly KubeObject[],
): EffectiveSpec {
  return effectiveSpec(
    object,
    objects,
    (location) => planShutdown(location, specInputs(location, configured, objects).inputs).changes,
  );
}

/** Plans one EnvoyProxy object, as merged where its mergeType merges it. */
export function planEnvoyProxy(
  object: KubeObject,
  context: ObjectMutatorContext,
): MutatorOutcome<EnvoyGatewayPlan> & { readonly findings: readonly ProposedFinding[] } {
  const settings = specSettings(context);
  const effective = effectiveOf(object, settings, context.objects);
  if (effective.kind === 'base-unknown') return { changes: [], findings: [effective.finding] };
  const outcome = planSpec(effective.location, context, settings);
  if (effective.kind === 'own' || outcome.plan === undefined) return outcome;
  return { ...outcome, plan: { ...outcome.plan, mergedOver: effective.base } };
}

/** Plans one EnvoyProxy spec: an EnvoyProxy's, or the default spec in the controller's config. */
export function planSpec(
  location: SpecLocation,
  context: ObjectMutatorContext,
  settings: SpecSettings = specSettings(context),
): MutatorOutcome<EnvoyGatewayPlan> & { readonly findings: readonly ProposedFinding[] } {
  const { inputs, recognized } = specInputs(location, settings, context.objects);
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
