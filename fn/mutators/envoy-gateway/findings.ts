/**
 * Every finding code envoy-gateway can emit (./outcome.ts EnvoyGatewayFindingCode), each documented
 * in docs/mutators/envoy-gateway.md (test/mutators/registry.test.ts checks both).
 */
import type { EnvoyGatewayFindingCode } from './outcome.ts';

const CODES = {
  EG_MIN_DRAIN_BELOW_WINDOW: true,
  EG_DRAIN_TIMEOUT_BELOW_NEED: true,
  EG_PATCHED_GRACE_BELOW_DRAIN: true,
  EG_SHUTDOWN_DURATION_UNREADABLE: true,
  EG_TIMING_INPUT: true,
  EG_NO_ENVOYPROXY: true,
  EG_ENVOYPROXY_NOT_IN_STREAM: true,
  EG_GATEWAY_PROXY_REPLACES_CLASS: true,
  EG_MERGE_BASE_NOT_IN_STREAM: true,
  EG_NODE_LOCAL_READINESS: true,
  EG_CONTROLLER_CONFIG_UNREADABLE: true,
  EG_DEFAULT_SPEC_IGNORED: true,
  LB_DEREGISTRATION_TOO_SHORT: true,
  LB_DEREGISTRATION_OUTLIVES_GRACE: true,
} as const satisfies Record<EnvoyGatewayFindingCode, true>;

export const ENVOY_GATEWAY_FINDING_CODES: readonly string[] = Object.keys(CODES);
