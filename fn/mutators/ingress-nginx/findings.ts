/**
 * Every finding code ingress-nginx-drain can emit: its own (./decide.ts) and those of the shared
 * modules it calls. Each is documented in docs/mutators/ingress-nginx-drain.md
 * (test/mutators/registry.test.ts checks both).
 */
import { TIMING_INPUT_FINDING_CODES } from '../shared/timingInputs.ts';
import type { IngressNginxFindingCode } from './decide.ts';

const OWN = [
  'INGRESS_NGINX_SHUTDOWN_GRACE_KEPT',
  'INGRESS_NGINX_SHUTDOWN_GRACE_UNREADABLE',
  'INGRESS_NGINX_GRACE_KEPT',
  'INGRESS_NGINX_VERSION_UNKNOWN',
  'INGRESS_NGINX_PRESTOP_NOT_WAIT_SHUTDOWN',
  'INGRESS_NGINX_SEVERAL_CONTAINERS',
  'INGRESS_NGINX_MESH_NOT_MODELLED',
  'INGRESS_NGINX_NODE_LOCAL',
] as const satisfies readonly IngressNginxFindingCode[];

// Every member of IngressNginxFindingCode is listed above: the compiler fails here when one is
// added there.
const EXHAUSTIVE: Exclude<IngressNginxFindingCode, (typeof OWN)[number]> extends never
  ? true
  : never = true;
void EXHAUSTIVE;

export const INGRESS_NGINX_FINDING_CODES: readonly string[] = [
  ...OWN,
  ...TIMING_INPUT_FINDING_CODES,
];
