/**
 * Every finding code contour-drain can emit: its own (./decide.ts) and those of the shared modules
 * it calls. Each is documented in docs/mutators/contour-drain.md (test/mutators/registry.test.ts
 * checks both).
 */
import { TIMING_INPUT_FINDING_CODES } from '../shared/timingInputs.ts';
import type { ContourFindingCode } from './decide.ts';

const OWN = [
  'CONTOUR_ENVOY_HOOK_MISSING',
  'CONTOUR_SHUTDOWN_HOOK_MISSING',
  'CONTOUR_VERSION_UNKNOWN',
  'CONTOUR_FLAG_UNREADABLE',
  'CONTOUR_MIN_OPEN_CONNECTIONS',
  'CONTOUR_DELAY_KEPT',
  'CONTOUR_GRACE_KEPT',
  'CONTOUR_MESH_NOT_MODELLED',
] as const satisfies readonly ContourFindingCode[];

// Every member of ContourFindingCode is listed above: the compiler fails here when one is added
// there.
const EXHAUSTIVE: Exclude<ContourFindingCode, (typeof OWN)[number]> extends never ? true : never =
  true;
void EXHAUSTIVE;

export const CONTOUR_FINDING_CODES: readonly string[] = [...OWN, ...TIMING_INPUT_FINDING_CODES];
