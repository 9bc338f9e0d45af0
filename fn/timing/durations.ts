/**
 * Go duration text ("180s", "1m30s", "500ms") to and from seconds.
 *
 * Istio reads `MINIMUM_DRAIN_DURATION` and the ProxyConfig durations with Go's
 * `time.ParseDuration`; a value it cannot parse is silently ignored and the 5 s default applies
 * (docs/background.md#istio: a bare "30" falls back to 5 s). So this parser follows Go's grammar
 * exactly, and a bare number is invalid here too: reading "30" as 30 s would tell the platform
 * engineer the proxy drains for 30 s when Istio actually drains for 5 s.
 */

const NANOS_PER_UNIT: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign, accepted by Go
  μs: 1_000n, // U+03BC Greek mu, accepted by Go
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** Go's time.Duration is an int64 of nanoseconds; larger values fail to parse in Go. */
const MAX_NANOS = (1n << 63n) - 1n;

/** One `<number><unit>` component: digits with an optional fraction, then a unit. */
const COMPONENT = /(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/y;

/**
 * Parses Go duration text the way Go's `time.ParseDuration` does.
 *
 * Returns the duration in seconds (possibly fractional: "500ms" → 0.5), or `undefined` when
 * the text is not a valid Go duration (including bare numbers such as "30", which Istio
 * silently ignores) or is negative (no drain or grace time can be negative; the caller then
 * treats the value as unreadable). "0" alone is valid, as in Go.
 */
export function parseGoDurationSeconds(text: string): number | undefined {
  if (typeof text !== 'string') return undefined;
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  // Go special-cases "0" (with or without sign) as the only unitless duration.
  if (rest === '0') return 0;
  if (rest === '') return undefined;

  let totalNanos = 0n;
  COMPONENT.lastIndex = 0;
  while (COMPONENT.lastIndex < rest.length) {
    const start = COMPONENT.lastIndex;
    const match = COMPONENT.exec(rest);
    if (match?.index !== start) return undefined;
    const whole = match[1] ?? '';
    const fraction = match[2] ?? '';
    // Go requires a digit before or after the dot: ".5s" and "5.s" parse, ".s" does not.
    if (whole === '' && fraction === '') return undefined;
    const unit = NANOS_PER_UNIT[match[3] ?? ''];
    if (unit === undefined) return undefined;
    let nanos = BigInt(whole === '' ? '0' : whole) * unit;
    if (fraction !== '') {
      // Go truncates a fraction finer than a nanosecond; integer maths keeps "1.1s" exact.
      nanos += (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    }
    totalNanos += nanos;
    if (totalNanos > MAX_NANOS) return undefined;
  }
  if (negative && totalNanos > 0n) return undefined;
  return Number(totalNanos) / 1e9;
}

/**
 * Formats whole seconds as Go duration text in the form Istio's ProxyConfig expects for
 * `drainDuration` and `MINIMUM_DRAIN_DURATION` (docs/background.md#istio: whole seconds, e.g.
 * "180s").
 *
 * Returns text such as "180s". Throws a RangeError for a negative, fractional or
 * non-finite number: the timing model only produces whole seconds, so anything else is a
 * caller bug that must not reach a manifest.
 */
export function formatGoDurationSeconds(seconds: number): string {
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new RangeError(
      `formatGoDurationSeconds: expected a whole, non-negative number of seconds, ` +
        `got ${String(seconds)}`,
    );
  }
  return `${seconds}s`;
}
