/**
 * Every finding code job-sidecar-quit can emit: its own, and those of the shared modules it calls.
 * Each is documented in docs/mutators/job-sidecar-quit.md (test/mutators/registry.test.ts checks
 * both).
 */
import { AMBIENT_FINDING_CODES } from '../shared/ambient.ts';

export const JOB_FINDING_CODES: readonly string[] = [
  'JOB_ALREADY_COMPLETES',
  'JOB_DAPR_NATIVE',
  'JOB_CONSUL_NATIVE',
  'JOB_CONSUL_NOT_STOPPED',
  'JOB_KUMA_NOT_STOPPED',
  'JOB_ENTRYPOINT_UNKNOWN',
  'JOB_HELM3_HOOK',
  'JOB_HOLD_KEPT_FALSE',
  'JOB_IMAGE_HTTP_CLIENT_UNKNOWN',
  'JOB_IMAGE_WITHOUT_HTTP_CLIENT',
  'JOB_IMAGE_WITHOUT_SHELL',
  'JOB_MAIN_CONTAINER_NOT_FOUND',
  'JOB_NATIVE_SIDECAR_MATURITY',
  'JOB_NATIVE_UNAVAILABLE',
  'JOB_NO_MAIN_CONTAINER',
  'JOB_NO_MESH',
  'JOB_NO_QUIT_ENDPOINT',
  'JOB_PROXY_CONFIG_INVALID',
  'JOB_SEVERAL_MAIN_CONTAINERS',
  'JOB_SIDECAR_NAME_TAKEN',
  'JOB_SIDECAR_NOT_FOUND',
  'JOB_SIDECAR_NOT_STOPPED',
  'JOB_VAULT_AGENT_KEPT',
  'RENDER_INJECTED',
  ...AMBIENT_FINDING_CODES,
];
