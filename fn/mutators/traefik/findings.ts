/**
 * Every finding code traefik-drain can emit: its own (./decide.ts) and those of the shared modules
 * it calls. Each is documented in docs/mutators/traefik-drain.md (test/mutators/registry.test.ts
 * checks both).
 */
import { TIMING_INPUT_FINDING_CODES } from '../shared/timingInputs.ts';
import type { TraefikFindingCode } from './decide.ts';

const OWN = [
  'TRAEFIK_LIFECYCLE_KEPT',
  'TRAEFIK_LIFECYCLE_UNREADABLE',
  'TRAEFIK_GRACE_KEPT',
  'TRAEFIK_STATIC_CONFIG_FILE',
  'TRAEFIK_ENTRY_POINTS_UNKNOWN',
  'TRAEFIK_UDP_ENTRY_POINT',
  'TRAEFIK_PRESTOP_KEPT',
  'TRAEFIK_PRESTOP_LENGTH_UNKNOWN',
  'TRAEFIK_SEVERAL_CONTAINERS',
  'TRAEFIK_TIMING_INPUT',
  'TRAEFIK_PING_TERMINATING',
  'LB_DEREGISTRATION_TOO_SHORT',
  'LB_DEREGISTRATION_OUTLIVES_GRACE',
] as const satisfies readonly TraefikFindingCode[];

// Every member of TraefikFindingCode is listed above: the compiler fails here when one is added
// there.
const EXHAUSTIVE: Exclude<TraefikFindingCode, (typeof OWN)[number]> extends never ? true : never =
  true;
void EXHAUSTIVE;

export const TRAEFIK_FINDING_CODES: readonly string[] = [...OWN, ...TIMING_INPUT_FINDING_CODES];
