/**
 * What the envoy-gateway mutator planned for one EnvoyProxy, and what its `explain` reads: the
 * model's inputs with their sources (W as the envoyService or the settings give it, before the
 * health-check delay widens it) and the durations shutdown.ts derived.
 */
import type { MergeBase } from './effective.ts';
import type { ShutdownPlan, ShutdownTimingInputs } from './shutdown.ts';

export interface EnvoyGatewayPlan {
  /** `EnvoyProxy ns/name`, for messages. */
  readonly label: string;
  /** W, R, B (and the target group's deregistration settings) with their sources. */
  readonly inputs: ShutdownTimingInputs;
  /** Where the load balancer (and so W) was read from. */
  readonly loadBalancer: string;
  readonly shutdown: ShutdownPlan;
  /** What the EnvoyProxy is merged over, where its mergeType merges it (./effective.ts). */
  readonly mergedOver?: MergeBase;
}
