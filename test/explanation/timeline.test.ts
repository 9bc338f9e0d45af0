/**
 * The timeline's rules, one case each: when SIGTERM and SIGKILL come, what Istio's proxy does on
 * SIGTERM, Linkerd's wait (docs/background.md), and which windows fail.
 */
import test from 'ava';
import type { IstioDrainSettings, PreStopRead, Valued } from '../../fn/explanation/podSettings.ts';
import { appTimeline } from '../../fn/mutators/app/timeline.ts';
import { gatewayTimeline } from '../../fn/mutators/shared/istioGatewayTimeline.ts';
import { jobTimeline } from '../../fn/mutators/job/timeline.ts';
import type { Timeline, TimelineWindow, Traffic } from '../../fn/explanation/timeline.ts';
import { istioQuitExit } from '../../fn/mutators/job/istioQuit.ts';

const v = <T>(value: T, source = 'test'): Valued<T> => ({ value, source });
const NLB: Traffic = {
  drainWindowSeconds: 180,
  maxRequestSeconds: 10,
  sender: 'from the load balancer',
};
const NO_HOOK: PreStopRead = { seconds: 0, text: 'none' };
const SLEEP_15: PreStopRead = { seconds: 15, handler: 'sleep', text: 'sleep action 15 s' };
const sleep = (seconds: number): PreStopRead => ({
  seconds,
  handler: 'sleep',
  text: `sleep action ${seconds} s`,
});

/** Istio's defaults (DOMAIN §2), with overrides. */
function istio(
  over: Partial<{ exitOnZero: boolean; M: number; D: number; TDD: number }> = {},
): IstioDrainSettings {
  return {
    exitOnZero: v(over.exitOnZero ?? false),
    minimumDrainSeconds: v(over.M ?? 5),
    drainDurationSeconds: v(over.D ?? 45),
    terminationDrainSeconds: v(over.TDD ?? 5),
  };
}

const failing = (t: Timeline) =>
  t.windows.filter((w) => w.outcome === 'fail').map((w) => [w.kind, w.from, w.to]);
const risky = (t: Timeline) =>
  t.windows.filter((w) => w.outcome === 'risk').map((w) => [w.kind, w.from, w.to]);
const at = (t: Timeline, actor: string, starts: string) =>
  t.events.find((e) => e.actor === actor && e.text.startsWith(starts))?.at;

test('gateway as the chart writes it: Envoy killed after terminationDrainDuration, the NLB still sends', (t) => {
  const timeline = gatewayTimeline(
    { proxy: 'istio-proxy', grace: v(30), preStop: NO_HOOK, istio: istio() },
    NLB,
  );
  t.deepEqual(failing(timeline), [
    ['refused', 5, 180],
    ['cut', 5, 15],
  ]);
  t.is(at(timeline, 'istio-proxy', 'terminationDrainDuration'), 5);
  t.is(at(timeline, 'kubelet', 'grace deadline'), 30);
  t.is(timeline.verdict.failures, 2);
});

test('gateway in env mode (the seed thread): serves through W, exits at zero connections, before G', (t) => {
  const timeline = gatewayTimeline(
    {
      proxy: 'istio-proxy',
      grace: v(200),
      preStop: NO_HOOK,
      istio: istio({ exitOnZero: true, M: 180, D: 190 }),
    },
    NLB,
  );
  t.deepEqual(failing(timeline), []);
  t.deepEqual(risky(timeline), []);
  t.is(at(timeline, 'istio-proxy', 'MINIMUM_DRAIN_DURATION'), 180);
  t.is(at(timeline, 'istio-proxy', 'exits'), 190);
  t.is(timeline.verdict.text, 'no request fails');
});

test('gateway: listeners close at drainDuration while the LB still sends', (t) => {
  const timeline = gatewayTimeline(
    {
      proxy: 'istio-proxy',
      grace: v(200),
      preStop: NO_HOOK,
      istio: istio({ exitOnZero: true, M: 180, D: 45 }),
    },
    NLB,
  );
  t.deepEqual(failing(timeline), [['refused', 45, 180]]);
  t.is(at(timeline, 'istio-proxy', 'drainDuration'), 45);
});

test('gateway: exit-on-zero with a minimum drain below W may exit at a quiet moment', (t) => {
  const timeline = gatewayTimeline(
    {
      proxy: 'istio-proxy',
      grace: v(200),
      preStop: NO_HOOK,
      istio: istio({ exitOnZero: true, M: 5, D: 190 }),
    },
    NLB,
  );
  t.deepEqual(risky(timeline), [['early-exit', 5, 180]]);
  t.deepEqual(failing(timeline), []);
});

test('gateway in sleep mode: SIGTERM after the sleep, then terminationDrainDuration shorter than R cuts requests', (t) => {
  const timeline = gatewayTimeline(
    { proxy: 'istio-proxy', grace: v(200), preStop: sleep(180), istio: istio() },
    { ...NLB, maxRequestSeconds: 20 },
  );
  t.is(at(timeline, 'istio-proxy', 'SIGTERM'), 180);
  t.deepEqual(failing(timeline), [['cut', 185, 200]]);
});

test('a preStop as long as the grace period is cut: SIGTERM at G, SIGKILL 2 s later', (t) => {
  const timeline = gatewayTimeline(
    {
      proxy: 'istio-proxy',
      grace: v(30),
      preStop: { seconds: 60, handler: 'exec', text: 'exec sleep 60 s' },
      istio: istio({ exitOnZero: true, M: 180, D: 190 }),
    },
    NLB,
  );
  t.is(at(timeline, 'istio-proxy', 'SIGTERM'), 30);
  t.is(at(timeline, 'kubelet', 'grace deadline'), 32);
  t.true(failing(timeline).some(([kind, from]) => kind === 'refused' && from === 32));
});

test('a preStop sleep action longer than the grace period: the API server rejects the pod', (t) => {
  const timeline = appTimeline(
    { grace: v(30), containers: [{ name: 'web', preStop: sleep(60) }] },
    NLB,
  );
  t.true(
    timeline.windows.some((w: TimelineWindow) => w.kind === 'rejected' && w.outcome === 'fail'),
  );
});

test('a hook of unknown length makes the outcome unknown: no "keeps serving", no ✓ (issue #26)', (t) => {
  const timeline = appTimeline(
    {
      grace: v(60),
      containers: [
        {
          name: 'web',
          preStop: { seconds: 'unknown', handler: 'httpGet', text: 'httpGet (length unknown)' },
        },
      ],
    },
    { drainWindowSeconds: 15, maxRequestSeconds: 20, sender: 'from clients' },
  );
  // Placed where the plan assumed it ends, only to draw the rest; marked as not known.
  t.is(at(timeline, 'web', 'SIGTERM'), 15);
  t.false(timeline.events.some((e) => e.text.includes('starts; keeps serving')));
  t.deepEqual(risky(timeline), []);
  t.deepEqual(failing(timeline), []);
  t.is(timeline.verdict.outcome, 'unknown');
  t.is(timeline.verdict.unknowns.length, 1);
  t.regex(timeline.verdict.unknowns[0]!.what, /web's preStop hook \(httpGet \(length unknown\)\)/);
  t.regex(timeline.verdict.unknowns[0]!.tell, /sleep action or exec sleep N/);
  t.regex(timeline.verdict.text, /^unknown: .*; tell kube-graceful with /);
});

test('a guessed drain window makes the outcome unknown; the same window given is ✓', (t) => {
  const state = { grace: v(60), containers: [{ name: 'web', preStop: SLEEP_15 }] };
  const traffic = { drainWindowSeconds: 15, maxRequestSeconds: 20, sender: 'from the LB' };
  const guess = { what: 'which load balancer', tell: '--lb-provider' };
  const guessed = appTimeline(state, { ...traffic, unknown: guess });
  t.is(guessed.verdict.outcome, 'unknown');
  t.deepEqual(guessed.verdict.unknowns, [guess]);
  t.is(appTimeline(state, traffic).verdict.outcome, 'ok');
});

const IN_CLUSTER: Traffic = {
  drainWindowSeconds: 5,
  maxRequestSeconds: 20,
  sender: 'from clients',
};

test('app with a classic Istio sidecar as written: refused until W, proxy gone while the app serves', (t) => {
  const timeline = appTimeline(
    {
      grace: v(30),
      containers: [{ name: 'httpbin', preStop: NO_HOOK }],
      istio: { kind: v('classic' as const), drain: istio() },
    },
    IN_CLUSTER,
  );
  t.deepEqual(failing(timeline), [
    ['refused', 0, 5],
    ['proxy-gone', 5, 20],
  ]);
});

test('app patched for exit-on-zero: preStop S = W, the proxy stays until the app has no connection', (t) => {
  const timeline = appTimeline(
    {
      grace: v(30),
      containers: [{ name: 'httpbin', preStop: sleep(5) }],
      istio: { kind: v('classic' as const), drain: istio({ exitOnZero: true, M: 5 }) },
    },
    IN_CLUSTER,
  );
  t.deepEqual(failing(timeline), []);
  t.deepEqual(risky(timeline), []);
  t.is(at(timeline, 'httpbin', 'SIGTERM'), 5);
  t.is(at(timeline, 'istio-proxy', 'exits'), 25);
});

test('app with terminationDrainDuration = S + R: the proxy outlives the app exactly', (t) => {
  const timeline = appTimeline(
    {
      grace: v(30),
      containers: [{ name: 'web', preStop: sleep(5) }],
      istio: { kind: v('classic' as const), drain: istio({ TDD: 25 }) },
    },
    IN_CLUSTER,
  );
  t.deepEqual(failing(timeline), []);
  const short = appTimeline(
    {
      grace: v(30),
      containers: [{ name: 'web', preStop: sleep(5) }],
      istio: { kind: v('classic' as const), drain: istio({ TDD: 10 }) },
    },
    IN_CLUSTER,
  );
  t.deepEqual(failing(short), [['proxy-gone', 10, 25]]);
});

test('app with a native Istio sidecar: stopped after the app', (t) => {
  const timeline = appTimeline(
    {
      grace: v(30),
      containers: [{ name: 'web', preStop: sleep(5) }],
      istio: { kind: v('native' as const), drain: istio() },
    },
    IN_CLUSTER,
  );
  t.deepEqual(failing(timeline), []);
  t.is(at(timeline, 'istio-proxy', 'SIGTERM once'), 25);
});

test('app behind a long drain window: a classic Envoy closes the inbound listeners at drainDuration; a native one never does', (t) => {
  const classic = appTimeline(
    {
      grace: v(205),
      containers: [{ name: 'web', preStop: sleep(180) }],
      istio: { kind: v('classic' as const), drain: istio({ exitOnZero: true, M: 200 }) },
    },
    NLB,
  );
  t.deepEqual(failing(classic), [['refused', 45, 180]]);
  // Istio's native preStop drains with skip_exit (pkg/envoy/agent.go@1.24.0 DrainNow): whatever
  // drainDuration says.
  const native = appTimeline(
    {
      grace: v(205),
      containers: [{ name: 'web', preStop: sleep(180) }],
      istio: { kind: v('native' as const), drain: istio() },
    },
    NLB,
  );
  t.deepEqual(failing(native), []);
  t.false(native.events.some((e) => e.text.includes('drainDuration')));
  t.regex(native.events.find((e) => e.actor === 'istio-proxy' && e.at === 0)!.text, /skip_exit/);
  t.is(at(native, 'istio-proxy', 'SIGTERM'), 190); // the app's last request: W + R
});

test('app: the grace period shorter than preStop + R ends in SIGKILL', (t) => {
  const timeline = appTimeline(
    { grace: v(20), containers: [{ name: 'web', preStop: sleep(5) }] },
    IN_CLUSTER,
  );
  t.deepEqual(failing(timeline), [['cut', 20, 25]]);
  t.regex(timeline.events.find((e) => e.actor === 'kubelet')!.text, /SIGKILL to web/);
});

test('app with Linkerd: no wait means the proxy goes at once; the wait S + R keeps it', (t) => {
  const bare = appTimeline(
    {
      grace: v(65),
      containers: [{ name: 'web', preStop: sleep(40) }],
      linkerd: { kind: v('classic' as const), wait: v(0) },
    },
    { ...IN_CLUSTER, drainWindowSeconds: 40 },
  );
  t.deepEqual(failing(bare), [
    ['refused', 0, 40],
    ['proxy-gone', 0, 20],
  ]);
  const waiting = appTimeline(
    {
      grace: v(65),
      containers: [{ name: 'web', preStop: sleep(40) }],
      linkerd: { kind: v('classic' as const), wait: v(60) },
    },
    { ...IN_CLUSTER, drainWindowSeconds: 40 },
  );
  t.deepEqual(failing(waiting), []);
});

test('load balancer deregistration delay shorter than the drain cuts connections; longer, without termination, is a risk', (t) => {
  const state = {
    proxy: 'istio-proxy',
    grace: v(200),
    preStop: NO_HOOK,
    istio: istio({ exitOnZero: true, M: 180, D: 190 }),
  };
  t.deepEqual(
    failing(
      gatewayTimeline(state, {
        ...NLB,
        deregistration: { seconds: 120, connectionTermination: true },
      }),
    ),
    [['lb-cut', 120, 190]],
  );
  t.deepEqual(
    risky(
      gatewayTimeline(state, {
        ...NLB,
        deregistration: { seconds: 300, connectionTermination: false },
      }),
    ),
    [['lb-stale', 190, 300]],
  );
});

test('Job: a classic sidecar never stops; native or a quit call lets the pod complete', (t) => {
  const proxy = (kind: 'native' | 'classic') => [
    { mesh: 'istio' as const, name: 'istio-proxy', kind: v(kind) },
  ];
  const stuck = jobTimeline({
    proxies: proxy('classic'),
    containers: [{ name: 'migrate', quitUrls: [] }],
  });
  t.deepEqual(failing(stuck), [['never-completes', 0, null]]);
  t.is(at(stuck, 'pod', 'never'), null);
  t.deepEqual(
    failing(
      jobTimeline({ proxies: proxy('native'), containers: [{ name: 'migrate', quitUrls: [] }] }),
    ),
    [],
  );
  const wrapped = jobTimeline({
    proxies: proxy('classic'),
    containers: [{ name: 'migrate', quitUrls: ['http://127.0.0.1:15020/quitquitquit'] }],
  });
  t.deepEqual(failing(wrapped), []);
  t.is(wrapped.verdict.text, 'the Job completes');
  // A Linkerd quit URL does not stop istio-proxy.
  t.deepEqual(
    failing(
      jobTimeline({
        proxies: proxy('classic'),
        containers: [{ name: 'migrate', quitUrls: ['http://127.0.0.1:4191/shutdown'] }],
      }),
    ),
    [['never-completes', 0, null]],
  );
});

test('Job on Istio: quitquitquit exits at once from 1.26; before, the pod completes after the drain (istio/istio#55424)', (t) => {
  const quit = ['http://127.0.0.1:15020/quitquitquit'];
  const drain = { exitOnZero: false, minimumDrainSeconds: 5, terminationDrainSeconds: 5 };
  const job = (version: string, d = drain) =>
    jobTimeline({
      proxies: [
        {
          mesh: 'istio',
          name: 'istio-proxy',
          kind: v('classic' as const),
          quitExit: istioQuitExit(version, d),
        },
      ],
      containers: [{ name: 'migrate', quitUrls: quit, httpClient: v('curl' as const) }],
    });
  t.is(at(job('1.26'), 'pod', 'completes'), 0);
  t.is(at(job('1.25'), 'pod', 'completes'), 5);
  t.regex(
    job('1.25').events.find((e) => e.actor === 'istio-proxy' && e.at === 0)!.text,
    /terminationDrainDuration \(5 s\)/,
  );
  t.is(
    at(job('1.21', { ...drain, exitOnZero: true, minimumDrainSeconds: 30 }), 'pod', 'completes'),
    30,
  );
  t.deepEqual(failing(job('1.25')), []);
});

test('Job wrapper: with neither curl nor wget the proxy is never asked; an unknown image is a risk, not a plain ✓', (t) => {
  const proxies = [{ mesh: 'istio' as const, name: 'istio-proxy', kind: v('classic' as const) }];
  const job = (client: 'curl' | 'none' | 'unknown') =>
    jobTimeline({
      proxies,
      containers: [
        {
          name: 'migrate',
          quitUrls: ['http://127.0.0.1:15020/quitquitquit'],
          httpClient: v(client),
        },
      ],
    });
  t.deepEqual([failing(job('curl')), risky(job('curl'))], [[], []]);
  t.deepEqual(failing(job('none')), [['never-completes', 0, null]]);
  t.deepEqual(risky(job('unknown')), [['needs-http-client', 0, null]]);
  t.not(job('unknown').verdict.text, 'the Job completes');
});
