/**
 * Issue #27 item 3: Traefik behind node targets with externalTrafficPolicy Local. A node forwards
 * to a terminating pod only while it passes readiness (kubernetes pkg/proxy/topology.go), and the
 * chart's readiness probe asks /ping, which answers ping.terminatingStatusCode (503 unless set)
 * from SIGTERM on (traefik pkg/ping/ping.go@v3.7.9). traefik-drain writes
 * --ping.terminatingStatusCode=200 there, so Traefik stays ready while requestAcceptGraceTimeout
 * keeps it accepting. Input: the chart v41.3.0 render behind an NLB with instance targets
 * (test/fixtures/gateways/traefik/README.md).
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { fixturePath } from '../../helpers/fixtures.ts';
import { runCliAsync } from '../../helpers/cli.ts';
import { verdictsOf } from '../../helpers/verdicts.ts';

const read = (file: string) => readFileSync(fixturePath('gateways', 'traefik', file), 'utf8');
const PING = '        - --ping.terminatingStatusCode=200\n';

test('node targets with Local: --ping.terminatingStatusCode=200 is written, and the patched pod is ✓', async (t) => {
  const input = read('chart-41.3.0-nlb-instance-local.yaml');
  const out = await runCliAsync([], input);
  t.is(out.status, 0, out.stderr);
  t.true(out.stdout.includes(PING));
  t.deepEqual(await verdictsOf('traefik-drain', input), { asWritten: 'fail', patched: 'ok' });
});

test('without it, /ping answers 503 from SIGTERM: unready by t=10, the node drops until W', async (t) => {
  const patched = (await runCliAsync([], read('chart-41.3.0-nlb-instance-local.yaml'))).stdout;
  const withoutPing = patched.replace(PING, '');
  t.not(withoutPing, patched);
  const text = (await runCliAsync(['explain'], withoutPing)).stdout;
  t.regex(text, /✗ {2}10–25 s {2}new connections still arrive .* at the node, but Traefik is/);
  t.regex(text, /unready by t=10 \(\/ping answers 503 from SIGTERM, then its readiness probe, /);
  t.regex(text, /readinessProbe periodSeconds 10 × failureThreshold 1\)/);
});

test('IP targets (no node in between): no ping setting is written', async (t) => {
  const out = await runCliAsync([], read('chart-41.3.0-nlb.yaml'));
  t.false(out.stdout.includes('terminatingStatusCode'));
});

test('a code the probe passes is kept; a 5xx one the user set is raised in place', async (t) => {
  const input = read('chart-41.3.0-nlb-instance-local.yaml');
  const with204 = input.replace(
    '        - --ping=true\n',
    '        - --ping=true\n        - --ping.terminatingStatusCode=204\n',
  );
  t.false((await runCliAsync([], with204)).stdout.includes('terminatingStatusCode=200'));
  const with500 = input.replace(
    '        - --ping=true\n',
    '        - --ping=true\n        - --ping.terminatingStatusCode=500\n',
  );
  const out = (await runCliAsync([], with500)).stdout;
  t.true(out.includes('        - --ping=true\n        - --ping.terminatingStatusCode=200\n'));
  t.is(out.split('terminatingStatusCode').length, 2, 'one flag, replaced where it was');
});
