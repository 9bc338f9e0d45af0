/**
 * Every finding code app-graceful can emit: its own, and those of the shared modules it calls. Each
 * is documented in docs/mutators/app-graceful.md (test/mutators/registry.test.ts checks both).
 */
import { TIMING_CHECK_CODES } from '../../timing/model.ts';
import { TIMING_INPUT_FINDING_CODES } from '../shared/timingInputs.ts';
import { AMBIENT_FINDING_CODES } from '../shared/ambient.ts';

export const APP_FINDING_CODES: readonly string[] = [
  'APP_SIDECAR_NAME_TAKEN',
  'APP_SIDECAR_STOPS_FIRST',
  'CONTROL_PLANE_LEFT_ALONE',
  'EXIT_ON_ZERO_OFF_IN_POD',
  'EXIT_ON_ZERO_UNSUPPORTED',
  'GRACE_BELOW_OWN_PRESTOP',
  'ISTIO_DURATION_IGNORED',
  'LINKERD_WAIT_NOT_BELOW_GRACE',
  'NATIVE_SIDECAR_UNSUPPORTED',
  'NO_SERVING_CONTAINER',
  'PRESTOP_NOT_WRITTEN',
  'PROXY_CONFIG_UNREADABLE',
  'PROXY_NOT_SERVING_CONTAINER',
  'RENDER_INJECTED',
  'SERVICE_PORT_NAME_UNMATCHED',
  'SERVICE_PORT_UNDECLARED',
  ...TIMING_CHECK_CODES,
  ...TIMING_INPUT_FINDING_CODES,
  ...AMBIENT_FINDING_CODES,
];
