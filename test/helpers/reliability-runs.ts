/**
 * How big the reliability suite's random parts are (issue #8): small by default so `npm test`
 * stays well under a minute on 2 cores, larger through environment variables, and always
 * reproducible from a printed seed.
 *
 *   KUBE_GRACEFUL_PROPERTY_RUNS   runs per property (default below)
 *   KUBE_GRACEFUL_PROPERTY_SEED   fast-check seed; fast-check prints `seed` and `path` on failure
 *   KUBE_GRACEFUL_PROPERTY_PATH   fast-check path, to replay exactly the failing case
 *   KUBE_GRACEFUL_FUZZ_ROUNDS     rounds of stream-reader fuzzing (default below)
 *   KUBE_GRACEFUL_FUZZ_SECONDS    fuzz for this many seconds instead (long runs by hand)
 *   KUBE_GRACEFUL_FUZZ_SEED       first seed of the fuzzer (each round uses the next one)
 */
import type { Parameters } from 'fast-check';

function integerFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new Error(`${name} must be an integer, got ${JSON.stringify(text)}`);
  return value;
}

/**
 * Returns fast-check parameters: `defaultRuns` unless KUBE_GRACEFUL_PROPERTY_RUNS says more, seed
 * and path from the environment.
 */
export function propertyParameters<T>(defaultRuns: number): Parameters<T> {
  const seed = process.env['KUBE_GRACEFUL_PROPERTY_SEED'];
  const path = process.env['KUBE_GRACEFUL_PROPERTY_PATH'];
  return {
    numRuns: integerFromEnv('KUBE_GRACEFUL_PROPERTY_RUNS', defaultRuns),
    ...(seed !== undefined && seed !== ''
      ? { seed: integerFromEnv('KUBE_GRACEFUL_PROPERTY_SEED', 0) }
      : {}),
    ...(path !== undefined && path !== '' ? { path } : {}),
  };
}

/**
 * Returns how much the fuzzer does: a number of rounds, so that a run does the same work however
 * busy the machine is (issue #15.7: a time budget made the suite's work depend on the load), or,
 * when KUBE_GRACEFUL_FUZZ_SECONDS asks for it, a time budget in milliseconds.
 */
export function fuzzBudget(
  defaultRounds: number,
): { readonly rounds: number } | { readonly milliseconds: number } {
  const seconds = process.env['KUBE_GRACEFUL_FUZZ_SECONDS'];
  if (seconds !== undefined && seconds.trim() !== '')
    return { milliseconds: integerFromEnv('KUBE_GRACEFUL_FUZZ_SECONDS', 0) * 1000 };
  return { rounds: integerFromEnv('KUBE_GRACEFUL_FUZZ_ROUNDS', defaultRounds) };
}

/**
 * Returns the fuzzer's first seed: fixed from the environment, else random (and printed by the
 * test).
 */
export function fuzzSeed(): number {
  return integerFromEnv('KUBE_GRACEFUL_FUZZ_SEED', Math.floor(Math.random() * 0x7fffffff));
}

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
