/**
 * Envoy Gateway's graceful shutdown, decided at render time (issue #19 item 2): for every
 * EnvoyProxy spec in the stream, spec.shutdown from the timing model and the load balancer its
 * envoyService describes; for every Gateway of an Envoy Gateway class, whether its proxy settings
 * are in the stream, all at once (the tests read a whole input this way; the engine calls the
 * mutator in ./index.ts once per EnvoyProxy).
 */
import type { KubeObject } from '../../core/kubeObject.ts';
import { resolveAttachments } from './attachment.ts';
import type { ShutdownTarget } from './attachment.ts';
import type { ConfiguredTiming } from '../shared/timingInputs.ts';
import { defaultSpec as defaultSpecSettings } from '../../config/schema.ts';
import type { EnvoyGatewayFinding } from './outcome.ts';
import { planShutdown } from './shutdown.ts';
import { effectiveOf, specInputs } from './specPlan.ts';
import { controllerRelease } from './controllerConfig.ts';
import { ENVOY_PROXY_GROUP, ENVOY_PROXY_KIND } from './facts.ts';
import { isKind } from './objects.ts';
import type { ShutdownOutcome } from './shutdown.ts';

/**
 * R, B, and W or the provider when the settings give them (they win over a guess); the oldest
 * kubelet's version, the run's default when not given.
 */
export type EnvoyGatewaySettings = ConfiguredTiming & { readonly kubernetesVersion?: string };

export interface EnvoyGatewayPlan {
  readonly outcomes: ReadonlyArray<{
    readonly target: ShutdownTarget;
    readonly outcome: ShutdownOutcome;
  }>;
  readonly gatewayFindings: ReadonlyArray<{
    readonly gateway: KubeObject;
    readonly finding: EnvoyGatewayFinding;
  }>;
}

/** Plans every EnvoyProxy spec in `objects` (and the default spec, when given). */
export function planEnvoyGateway(
  objects: readonly KubeObject[],
  settings: EnvoyGatewaySettings,
  defaultSpec?: ShutdownTarget,
): EnvoyGatewayPlan {
  const { targets, findings } = resolveAttachments(objects, defaultSpec);
  const release = controllerRelease(objects);
  const specSettings = {
    ...settings,
    kubernetesVersion: settings.kubernetesVersion ?? defaultSpecSettings().kubernetesVersion,
    ...(release !== undefined ? { release } : {}),
  };
  const outcomes = targets.map((target) => {
    // An EnvoyProxy is planned as merged where its mergeType merges it; the default spec as is.
    const effective = isKind(target.object, ENVOY_PROXY_KIND, ENVOY_PROXY_GROUP)
      ? effectiveOf(target.object, specSettings, objects)
      : { kind: 'own' as const, location: target.location };
    if (effective.kind === 'base-unknown')
      return { target, outcome: { changes: [], findings: [effective.finding] } };
    const location = effective.location;
    return {
      target,
      outcome: planShutdown(location, specInputs(location, specSettings, objects).inputs),
    };
  });
  return { outcomes, gatewayFindings: findings };
}
