/**
 * A Traefik pod in a mesh (issue #19 item 2c): traefik-drain owns Traefik's drain (no preStop), and
 * app-graceful keeps the mesh proxy up until Traefik is done, sized from Traefik's own shutdown:
 * the longest requestAcceptGraceTimeout plus what the slowest entry point still needs. Real renders
 * of the Traefik chart v41.3.0 with injection through its own values
 * (test/fixtures/gateways/traefik/README.md).
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { transform } from '../../../fn/engine/transform.ts';
import { explain } from '../../../fn/explain/explain.ts';
import { fixturePath } from '../../helpers/fixtures.ts';

const read = (file: string) => readFileSync(fixturePath('gateways', 'traefik', file), 'utf8');
const appChanges = (input: string, flags: Record<string, string> = {}) =>
  transform(input, { flags })
    .changes.filter((c) => c.mutator === 'app-graceful')
    .map((c) => [c.path.join('.'), c.after]);
const PROXY_CONFIG = 'spec.template.metadata.annotations.proxy.istio.io/config';
const LINKERD_WAIT =
  'spec.template.metadata.annotations.config.alpha.linkerd.io/proxy-wait-before-exit-seconds';

test('Istio: the classic istio-proxy stays up until Traefik is done (180 + 20 s), inbound open for 180 + 5 s', (t) => {
  t.deepEqual(appChanges(read('chart-41.3.0-nlb-istio.yaml')), [
    [
      PROXY_CONFIG,
      'proxyMetadata:\n' +
        '  EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "true"\n' +
        '  MINIMUM_DRAIN_DURATION: 200s\n' +
        'drainDuration: 185s\nparentShutdownDuration: 200s\n',
    ],
  ]);
});

test('Linkerd: linkerd-proxy waits 200 s before it exits, below the grace period of 205 s', (t) => {
  const result = transform(read('chart-41.3.0-nlb-linkerd.yaml'));
  t.deepEqual(
    result.changes
      .filter((c) => c.mutator === 'app-graceful')
      .map((c) => [c.path.join('.'), c.after]),
    [[LINKERD_WAIT, '200']],
  );
  t.true(
    result.changes.some(
      (c) =>
        c.mutator === 'traefik-drain' &&
        c.path.join('.') === 'spec.template.spec.terminationGracePeriodSeconds' &&
        c.after === 205,
    ),
  );
});

// Issue #27 item 15: Linkerd's config.linkerd.io/shutdown-grace-period (120 s by default:
// linkerd2-proxy linkerd/app/src/env.rs DEFAULT_SHUTDOWN_GRACE_PERIOD) caps the proxy's drain from
// its SIGTERM on. Here G = 205 s is raised past those 120 s; the cap still never cuts Traefik
// short, because the proxy's SIGTERM comes only after its preStop wait of S + R = 200 s, when
// Traefik is done, whatever the cap says (even 1 s).
test('Linkerd: a shutdown-grace-period below G changes nothing: the proxy is asked to stop only once Traefik is done', (t) => {
  const input = read('chart-41.3.0-nlb-linkerd.yaml');
  const capped = input.replace(
    '        linkerd.io/inject: enabled\n',
    '        linkerd.io/inject: enabled\n        config.linkerd.io/shutdown-grace-period: 1s\n',
  );
  t.not(capped, input);
  const plan = (text: string) =>
    transform(text)
      .changes.filter((c) => c.mutator === 'app-graceful' || c.mutator === 'traefik-drain')
      .map((c) => [c.path.join('.'), c.after]);
  t.deepEqual(plan(capped), plan(input));
  const changes = new Map(plan(capped).map(([path, after]) => [path, after]));
  const wait = Number(changes.get(LINKERD_WAIT));
  const grace = Number(changes.get('spec.template.spec.terminationGracePeriodSeconds'));
  // Traefik accepts until requestAcceptGraceTimeout (180 s) and is done R = 20 s later.
  t.is(wait, 180 + 20);
  t.true(grace > 120 && wait < grace);
});

test("the chart's own larger life-cycle values are outlived too: web accepts until 300 s and is done by 320 s", (t) => {
  // chart-41.3.0-nlb-lifecycle.yaml with the same pod label chart-41.3.0-nlb-istio.yaml adds.
  const input = read('chart-41.3.0-nlb-lifecycle.yaml').replace(
    '        helm.sh/chart: traefik-41.3.0\n    spec:\n',
    '        helm.sh/chart: traefik-41.3.0\n        sidecar.istio.io/inject: "true"\n    spec:\n',
  );
  t.not(input, read('chart-41.3.0-nlb-lifecycle.yaml'));
  t.deepEqual(appChanges(input), [
    [
      PROXY_CONFIG,
      'proxyMetadata:\n' +
        '  EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "true"\n' +
        '  MINIMUM_DRAIN_DURATION: 320s\n' +
        'drainDuration: 305s\nparentShutdownDuration: 320s\n',
    ],
  ]);
});

test('no mesh, or traefik-mode off: app-graceful leaves the Traefik pod alone', (t) => {
  t.deepEqual(appChanges(read('chart-41.3.0-nlb.yaml')), []);
  t.deepEqual(appChanges(read('chart-41.3.0-nlb-istio.yaml'), { 'traefik-mode': 'off' }), []);
  t.deepEqual(appChanges(read('chart-41.3.0-nlb-linkerd.yaml'), { 'traefik-mode': 'off' }), []);
});

test('a second run over the output changes nothing', (t) => {
  for (const file of ['chart-41.3.0-nlb-istio.yaml', 'chart-41.3.0-nlb-linkerd.yaml']) {
    const once = transform(read(file));
    t.deepEqual(transform(once.output).changes, [], file);
  }
});

// Explain draws the proxy in the Traefik pod's timeline: as written it is gone while Traefik still
// serves (the requests Traefik forwards to its backends go out through it), patched it outlives
// Traefik. Before, the timeline left the proxy out and called those requests finished.
for (const [file, proxy] of [
  ['chart-41.3.0-nlb-istio.yaml', 'istio-proxy'],
  ['chart-41.3.0-nlb-linkerd.yaml', 'linkerd-proxy'],
] as const) {
  test(`explain: ${proxy} in the Traefik pod's timeline, gone too early as written, last patched`, (t) => {
    const explanation = explain(transform(read(file)));
    t.is(explanation.workloads.length, 1);
    const { timelines, settings } = explanation.workloads[0]!;
    const kinds = (which: typeof timelines.asWritten) =>
      which.windows.filter((w) => w.outcome === 'fail').map((w) => w.kind);
    t.true(kinds(timelines.asWritten).includes('proxy-gone'));
    t.deepEqual(kinds(timelines.patched), []);
    const last = (actor: string) =>
      Math.max(...timelines.patched.events.filter((e) => e.actor === actor).map((e) => e.at ?? 0));
    t.true(last(proxy) >= last('traefik'), `${proxy} outlives Traefik`);
    t.true(settings.some((row) => row.name === `${proxy} sidecar`));
  });
}
