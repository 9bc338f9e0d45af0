/**
 * Every finding code istio-gateway-api can emit, each documented in
 * docs/mutators/istio-gateway-api.md (test/mutators/registry.test.ts checks both): its own, the
 * timing model's checks that apply to a proxy with no preStop (./plan.ts), and the engine's
 * refusal to edit a ConfigMap the settings leave alone (fn/engine/pipeline.ts).
 */
import { TIMING_CHECK_CODES } from '../../timing/model.ts';
import { UNUSED_TIMING_CHECKS } from './plan.ts';

export const ISTIO_GATEWAY_API_FINDING_CODES: readonly string[] = [
  'ISTIO_GATEWAY_API_OVERLAYS_UNSUPPORTED',
  'ISTIO_GATEWAY_API_PARAMETERS_NOT_CONFIGMAP',
  'ISTIO_GATEWAY_API_PARAMETERS_NOT_IN_STREAM',
  'ISTIO_GATEWAY_API_PARAMETERS_SHARED',
  'ISTIO_GATEWAY_API_CONFIGMAP_NAME_TAKEN',
  'ISTIO_GATEWAY_API_CONFIGMAP_NAME_TOO_LONG',
  'ISTIO_GATEWAY_API_CLASS_DEFAULTS_AMBIGUOUS',
  'ISTIO_GATEWAY_API_CLASS_DEFAULTS_NOT_IN_STREAM',
  'ISTIO_GATEWAY_API_OVERLAY_NOT_MERGEABLE',
  'ISTIO_GATEWAY_API_PROXY_CONFIG_NOT_MERGEABLE',
  'ISTIO_GATEWAY_API_VALUE_KEPT',
  'ISTIO_GATEWAY_API_VALUE_OTHER',
  'ISTIO_GATEWAY_API_TIMING_INPUT',
  'ISTIO_GATEWAY_API_SLEEP_MODE',
  'ISTIO_GATEWAY_API_NODE_LOCAL',
  'ISTIO_WAYPOINT_NOT_PLANNED',
  'ISTIO_EAST_WEST_NOT_PLANNED',
  ...TIMING_CHECK_CODES.filter((code) => !UNUSED_TIMING_CHECKS.has(code)),
  'EDIT_TARGET_SKIPPED',
];
