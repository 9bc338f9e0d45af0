/**
 * Every finding code kong-drain can emit: its own (./decide.ts) and those of the shared modules it
 * calls. Each is documented in docs/mutators/kong-drain.md (test/mutators/registry.test.ts checks
 * both).
 */
import { TIMING_INPUT_FINDING_CODES } from '../shared/timingInputs.ts';
import type { KongFindingCode } from './decide.ts';

const OWN = [
  'KONG_PRESTOP_NOT_QUIT',
  'KONG_VERSION_UNKNOWN',
  'KONG_OPTION_UNREADABLE',
  'KONG_SEVERAL_CONTAINERS',
  'KONG_WAIT_KEPT',
  'KONG_GRACE_KEPT',
  'KONG_MESH_NOT_MODELLED',
] as const satisfies readonly KongFindingCode[];

// Every member of KongFindingCode is listed above: the compiler fails here when one is added there.
const EXHAUSTIVE: Exclude<KongFindingCode, (typeof OWN)[number]> extends never ? true : never =
  true;
void EXHAUSTIVE;

export const KONG_FINDING_CODES: readonly string[] = [...OWN, ...TIMING_INPUT_FINDING_CODES];
