/**
 * Every finding code gateway-drain can emit: its own, and those of the shared modules it calls.
 * Each is documented in docs/mutators/gateway-drain.md (test/mutators/registry.test.ts checks
 * both).
 */
import { TIMING_CHECK_CODES } from '../../timing/model.ts';
import { TIMING_INPUT_FINDING_CODES } from '../shared/timingInputs.ts';

export const GATEWAY_FINDING_CODES: readonly string[] = [
  'AWS_READINESS_GATE_LABEL_MISSING',
  'AWS_READINESS_GATE_NAMESPACE_NOT_IN_STREAM',
  'GATEWAY_DRAIN_DURATION_NOT_DELIVERED',
  'GATEWAY_DRAIN_DURATION_TOO_LONG',
  'GATEWAY_ENV_MODE_UNSUPPORTED',
  'GATEWAY_ENV_NOT_A_LIST',
  'GATEWAY_ENV_VALUE_FROM',
  'GATEWAY_ENV_VALUE_OTHER',
  'GATEWAY_NODE_LOCAL',
  'GATEWAY_NO_PDB',
  'GATEWAY_NO_PRESTOP',
  'GATEWAY_OBSOLETE_SETTING',
  'GATEWAY_PRESTOP_IN_ENV_MODE',
  'GATEWAY_ROLLOUT_UNAVAILABLE',
  'GATEWAY_SLEEP_MODE_FOR_LOCAL',
  'GATEWAY_TERMINATION_DRAIN_SHORT',
  'GATEWAY_TIMING_INPUT',
  'PROXY_CONFIG_NOT_MERGEABLE',
  // The model's checks, but the sidecar wait: a gateway's proxy is the workload itself
  // (./timing.ts).
  ...TIMING_CHECK_CODES.filter((code) => code !== 'SIDECAR_WAIT_NOT_BELOW_GRACE'),
  ...TIMING_INPUT_FINDING_CODES,
];
