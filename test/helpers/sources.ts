/** Sources of the timing model's inputs for tests, as the settings and recognisers make them. */
import type { Source } from '../../fn/core/source.ts';

/** A setting left at its default; `flag` is the flat key that changes it. */
export function fromDefault(flag: string): Source {
  return { kind: 'setting', origin: { kind: 'default' }, flag };
}

/** A setting given on the command line. */
export function fromFlag(flag: string): Source {
  return { kind: 'setting', origin: { kind: 'flag', flag }, flag };
}

/** A load balancer the stream shows, in its recogniser's words. */
export function fromEvidence(evidence: string): Source {
  return { kind: 'load-balancer', evidence };
}
