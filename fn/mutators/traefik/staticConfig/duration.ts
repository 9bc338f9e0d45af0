/**
 * Traefik's duration values: paerser `types.Duration` (types/duration.go@v0.2.0, the type of
 * `LifeCycle.RequestAcceptGraceTimeout` and `GraceTimeOut` from v2.3; before, Traefik's own
 * pkg/types/duration.go@v2.0.0 with the same `Set`): digits alone are seconds ("10" = 10 s),
 * anything else is Go's `time.ParseDuration` ("10s", "1m30s"). This differs from Istio, where a
 * bare number is ignored.
 */
import { parseGoDurationSeconds } from '../../../timing/durations.ts';

/**
 * Returns the value in seconds (possibly fractional), or undefined when Traefik would refuse it
 * (it then fails to start: the flag cannot be decoded). A negative value reads as 0: Traefik
 * only sleeps or waits for a positive one.
 */
export function parseTraefikDurationSeconds(text: string): number | undefined {
  // No trimming: Go's parsers refuse surrounding spaces, and so does Traefik.
  const trimmed = text;
  // strconv.ParseInt(s, 10, 64): an optional sign and decimal digits, nothing else.
  if (/^[+-]?\d+$/.test(trimmed)) return Math.max(0, Number(trimmed));
  if (trimmed.startsWith('-')) {
    // A negative Go duration parses in Go; parseGoDurationSeconds refuses it. Read as 0.
    return parseGoDurationSeconds(trimmed.slice(1)) === undefined ? undefined : 0;
  }
  return parseGoDurationSeconds(trimmed);
}

/** Returns whole seconds as the text kube-graceful writes: "180s", readable by every Traefik
 * version. */
export function formatTraefikDuration(seconds: number): string {
  if (!Number.isSafeInteger(seconds) || seconds < 0)
    throw new RangeError(`formatTraefikDuration: expected whole seconds ≥ 0, got ${seconds}`);
  return `${seconds}s`;
}
