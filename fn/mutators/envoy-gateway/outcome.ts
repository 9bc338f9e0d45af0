/**
 * What the Envoy Gateway logic returns: the same shapes as ProposedChange and ProposedFinding
 * (fn/mutators/types.ts), declared here so this folder depends on nothing but the timing model
 * until it is wired into the engine (issue #14's mutator redesign).
 */
import type { FieldPath } from '../../core/fieldPath.ts';

/** A field to set (path from the object's root) and why, with the derivation. */
export interface EnvoyGatewayChange {
  readonly path: FieldPath;
  readonly value: unknown;
  readonly reason: string;
}

export interface EnvoyGatewayFinding {
  readonly severity: 'error' | 'warning' | 'info';
  readonly code: EnvoyGatewayFindingCode;
  readonly message: string;
  /** The field the finding is about, from the object's root. */
  readonly path?: FieldPath;
}

/** Every code this folder emits; docs/mutators/envoy-gateway.md gives each a one-line meaning. */
export type EnvoyGatewayFindingCode =
  | 'EG_MIN_DRAIN_BELOW_WINDOW'
  | 'EG_DRAIN_TIMEOUT_BELOW_NEED'
  | 'EG_PATCHED_GRACE_BELOW_DRAIN'
  | 'EG_SHUTDOWN_DURATION_UNREADABLE'
  | 'EG_TIMING_INPUT'
  | 'EG_NO_ENVOYPROXY'
  | 'EG_ENVOYPROXY_NOT_IN_STREAM'
  | 'EG_GATEWAY_PROXY_REPLACES_CLASS'
  | 'EG_MERGE_BASE_NOT_IN_STREAM'
  | 'EG_NODE_LOCAL_READINESS'
  | 'EG_CONTROLLER_CONFIG_UNREADABLE'
  | 'EG_DEFAULT_SPEC_IGNORED'
  | 'LB_DEREGISTRATION_TOO_SHORT'
  | 'LB_DEREGISTRATION_OUTLIVES_GRACE';
