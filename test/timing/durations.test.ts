import test from 'ava';
import { formatGoDurationSeconds, parseGoDurationSeconds } from '../../fn/timing/durations.ts';

// Cases follow Go's time.ParseDuration; bare numbers are invalid because Istio ignores them
// (docs/background.md#istio: MINIMUM_DRAIN_DURATION "30" silently falls back to 5 s).
const parseCases: Array<[string, number | undefined]> = [
  ['180s', 180],
  ['1m30s', 90],
  ['1.5s', 1.5],
  ['500ms', 0.5],
  ['2h', 7200],
  ['1h2m3s', 3723],
  ['.5s', 0.5],
  ['5.s', 5],
  ['1.1s', 1.1],
  ['1500us', 0.0015],
  ['1500µs', 0.0015],
  ['1500μs', 0.0015],
  ['2000000000ns', 2],
  ['+45s', 45],
  ['0', 0],
  ['0s', 0],
  ['-0s', 0],
  ['30', undefined],
  ['1.5', undefined],
  ['', undefined],
  ['s', undefined],
  ['.s', undefined],
  ['30 s', undefined],
  [' 30s', undefined],
  ['30sec', undefined],
  ['30S', undefined],
  ['1d', undefined],
  ['-5s', undefined],
  ['1m30', undefined],
  ['9999999999h', undefined], // beyond Go's int64 nanoseconds
];

for (const [text, expected] of parseCases) {
  test(`parseGoDurationSeconds(${JSON.stringify(text)}) → ${String(expected)}`, (t) => {
    t.is(parseGoDurationSeconds(text), expected);
  });
}

test('formatGoDurationSeconds writes whole seconds', (t) => {
  t.is(formatGoDurationSeconds(180), '180s');
  t.is(formatGoDurationSeconds(0), '0s');
  t.is(parseGoDurationSeconds(formatGoDurationSeconds(190)), 190);
});

for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
  test(`formatGoDurationSeconds(${bad}) throws RangeError`, (t) => {
    t.throws(() => formatGoDurationSeconds(bad), { instanceOf: RangeError });
  });
}
