// Traefik's readers of durations and flags, held to the rules of paerser (types/duration.go and
// flag/flagparser.go@v0.2.0) that Traefik v2.3+ uses to read its static configuration.
import test from 'ava';
import {
  formatTraefikDuration,
  parseTraefikDurationSeconds,
} from '../../../fn/mutators/traefik/staticConfig/duration.ts';
import { lastFlag, parseFlags } from '../../../fn/mutators/traefik/staticConfig/flags.ts';

test('durations: digits alone are seconds (unlike Istio), else Go durations; what Traefik refuses is undefined', (t) => {
  t.is(parseTraefikDurationSeconds('10'), 10);
  t.is(parseTraefikDurationSeconds('+10'), 10);
  t.is(parseTraefikDurationSeconds('10s'), 10);
  t.is(parseTraefikDurationSeconds('1m30s'), 90);
  t.is(parseTraefikDurationSeconds('500ms'), 0.5);
  t.is(parseTraefikDurationSeconds('0'), 0);
  t.is(parseTraefikDurationSeconds('-5'), 0);
  t.is(parseTraefikDurationSeconds('-5s'), 0);
  t.is(parseTraefikDurationSeconds('ten seconds'), undefined);
  t.is(parseTraefikDurationSeconds(' 10'), undefined);
  t.is(parseTraefikDurationSeconds(''), undefined);
  t.is(formatTraefikDuration(180), '180s');
  t.throws(() => formatTraefikDuration(1.5), { instanceOf: RangeError });
});

test('flags: `=` and separate values, one or two dashes, case-insensitive keys, the last one wins, stops at `--` and at a non-flag', (t) => {
  const flags = parseFlags([
    'traefik',
    '--entryPoints.web.address=:80',
    '-entrypoints.WEB.transport.lifeCycle.graceTimeOut',
    '5',
    '--ping',
    '--log.level',
    'DEBUG',
    '--entryPoints.web.transport.lifecycle.gracetimeout=7',
    '--',
    '--entryPoints.late.address=:81',
  ]);
  t.deepEqual(
    flags.map((f) => [f.index, f.key, f.value, f.valueIndex]),
    [
      [1, 'entrypoints.web.address', ':80', 1],
      [2, 'entrypoints.web.transport.lifecycle.gracetimeout', '5', 3],
      [4, 'ping', undefined, undefined],
      [5, 'log.level', 'DEBUG', 6],
      [7, 'entrypoints.web.transport.lifecycle.gracetimeout', '7', 7],
    ],
  );
  t.is(lastFlag(flags, 'entrypoints.web.transport.lifecycle.gracetimeout')?.value, '7');
  t.deepEqual(parseFlags(['run', '--entryPoints.web.address=:80']), []);
});
