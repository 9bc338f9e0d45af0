/**
 * explain's header names what it explains: pod-template workloads as workloads, an object
 * mutator's object (an Envoy Gateway EnvoyProxy) by its kind (issue #19 item 3).
 */
import test from 'ava';
import { runInProcess } from './run.ts';

const TRAEFIK = 'test/fixtures/gateways/traefik/chart-41.3.0-nlb.yaml';
const ENVOY_PROXY =
  'test/fixtures/gateways/envoy-gateway/examples-v1.9.0-envoy-proxy-config-nlb.yaml';

test('an EnvoyProxy alone is counted as an EnvoyProxy, not a workload', async (t) => {
  const run = await runInProcess(['explain', ENVOY_PROXY]);
  t.is(run.exitCode, 0, run.stderr.join('\n'));
  t.regex(run.stdout, /^kube-graceful explain: 1 EnvoyProxy\. As written, /);
});

test('the Traefik chart and an EnvoyProxy in one run: each counted as what it is', async (t) => {
  for (const output of ['text', 'markdown'] as const) {
    const run = await runInProcess(['explain', TRAEFIK, ENVOY_PROXY, '--output', output]);
    t.is(run.exitCode, 0, run.stderr.join('\n'));
    t.true(run.stdout.includes('1 workload, 1 EnvoyProxy. As written, '), output);
  }
});

test('the header is a sentence: how many lose requests as written and patched, and how many are unknown', async (t) => {
  const run = await runInProcess(['explain', TRAEFIK, ENVOY_PROXY]);
  const head = run.stdout.split('\n')[0]!;
  // The Traefik chart behind an NLB refuses connections as written; patched, nothing fails.
  t.regex(head, /^kube-graceful explain: 1 workload, 1 EnvoyProxy\. As written, \d lose/);
  t.regex(head, /; patched, none loses requests[ .]/);
});
