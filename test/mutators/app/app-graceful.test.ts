// app-graceful through the whole engine: inline YAML in, edited YAML and records out. Every
// output of every run in this file is also scanned for a changed istio-proxy lifecycle.
import test from 'ava';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import { formatPath } from '../../../fn/core/fieldPath.ts';
import { transform } from '../../../fn/engine/transform.ts';
import type { TransformResult } from '../../../fn/engine/transform.ts';
import { appGraceful } from '../../../fn/mutators/app/index.ts';
import type { AppPlan } from '../../../fn/mutators/app/index.ts';
import { corpus, corpusNames } from '../../helpers/fixtures.ts';
import { validateChangedDocuments } from '../../helpers/golden.ts';

type Flags = Record<string, string>;
const ISTIO: Flags = { 'istio-injected-namespaces': 'shop' };
const LINKERD: Flags = { 'linkerd-injected-namespaces': 'shop' };
const ANN = 'spec.template.metadata.annotations';
const PRESTOP = 'spec.template.spec.containers[name=app].lifecycle.preStop';
const GRACE = 'spec.template.spec.terminationGracePeriodSeconds';

const runs: TransformResult[] = [];

/** Runs app-graceful alone; `spec` is a typed config spec, `flags` flat settings. */
function run(yaml: string, flags: Flags = {}, spec?: Record<string, unknown>): TransformResult {
  const config = spec
    ? {
        data: { apiVersion: 'kube-graceful.dev/v1alpha1', kind: 'GracefulShutdown', spec },
        origin: 'test config',
      }
    : undefined;
  const result = transform(yaml, { mutators: [appGraceful], flags, ...(config ? { config } : {}) });
  runs.push(result);
  const again = transform(result.output, {
    mutators: [appGraceful],
    flags,
    ...(config ? { config } : {}),
  });
  if (again.changes.length > 0)
    throw new Error(`not idempotent: ${again.changes.map((c) => formatPath(c.path)).join(', ')}`);
  return result;
}

/** A Deployment `web` in namespace `shop`, with the given pod metadata, spec lines and
 * containers. */
function deployment(
  o: {
    labels?: string;
    podMeta?: string;
    podSpec?: string;
    containers?: string;
    kind?: string;
    apiVersion?: string;
    namespace?: string;
  } = {},
): string {
  return `apiVersion: ${o.apiVersion ?? 'apps/v1'}
kind: ${o.kind ?? 'Deployment'}
metadata:
  name: web
  namespace: ${o.namespace ?? 'shop'}
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web${o.labels ?? ''}}
${o.podMeta ?? ''}    spec:
${o.podSpec ?? ''}      containers:
${
  o.containers ??
  `        - name: app
          image: example/web:1
          ports:
            - containerPort: 8080
`
}`;
}

const service = (spec = '  ports: [{port: 80, targetPort: 8080}]', annotations = ''): string => `---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
${annotations}spec:
  selector: {app: web}
${spec}
`;

/**
 * A Service behind an AWS NLB with IP targets (W = 180:
 * docs/background.md#load-balancers-in-front-of-gateways).
 */
const NLB =
  '  annotations:\n    service.beta.kubernetes.io/aws-load-balancer-type: ' +
  'external\n    service.beta.kubernetes.io/aws-load-balancer-nlb-target-type: ' +
  'ip\n';
const nlbService = (): string =>
  service('  type: LoadBalancer\n  ports: [{port: 80, targetPort: 8080}]', NLB);

/** Returns `path → after` of every change, paths as text. */
function changed(result: TransformResult): Record<string, unknown> {
  return Object.fromEntries(result.changes.map((c) => [formatPath(c.path), c.after]));
}
const codes = (result: TransformResult): string[] =>
  result.findings.map((f) => `${f.severity} ${f.code}`);
const appPlan = (result: TransformResult): AppPlan =>
  result.outcomes.find((o) => o.mutator === 'app-graceful')!.plan as AppPlan;

// ---------------------------------------------------------------------------------------------
// preStop and grace
// ---------------------------------------------------------------------------------------------

test('no mesh: sleep action S = W for an in-cluster Service, grace left at the default that covers it', (t) => {
  const result = run(deployment() + service());
  t.deepEqual(changed(result), { [PRESTOP]: { sleep: { seconds: 5 } } });
  t.regex(result.changes[0]!.reason, /S = W = 5/);
  t.regex(result.changes[0]!.reason, /Service shop\/web/);
  t.regex(
    result.changes[0]!.reason,
    /G = S \+ R \+ B = 5 \+ 20 \+ 5 = 30, which the Kubernetes default/,
  );
  t.is(appPlan(result).sidecar, 'none');
  t.is(appPlan(result).effectiveGraceSeconds, 30);
  t.true(validateChangedDocuments(result) > 0);
});

test('behind an AWS NLB (IP targets): sleep 180, grace 205, reason names the Service', (t) => {
  const result = run(deployment() + nlbService());
  const c = changed(result);
  t.deepEqual(c[PRESTOP], { sleep: { seconds: 180 } });
  t.is(c[GRACE], 205);
  const grace = result.changes.find((x) => formatPath(x.path) === GRACE)!;
  t.regex(grace.reason, /G = S \+ R \+ B = 180 \+ 20 \+ 5 = 205/);
  t.regex(grace.reason, /AWS NLB/);
  t.true(validateChangedDocuments(result) > 0);
});

test('a larger grace period is never touched', (t) => {
  const result = run(
    deployment({ podSpec: '      terminationGracePeriodSeconds: 600\n' }) + service(),
  );
  t.false(GRACE in changed(result));
  t.is(appPlan(result).plan.graceSeconds.value, 600);
});

test('a shorter explicit grace period is raised to S + R + B', (t) => {
  const result = run(
    deployment({ podSpec: '      terminationGracePeriodSeconds: 10\n' }) + service(),
    { 'drain-window': '15' },
  );
  t.is(changed(result)[GRACE], 40);
  t.deepEqual(changed(result)[PRESTOP], { sleep: { seconds: 15 } });
});

for (const [label, hook, seconds] of [
  ['sleep action', '{sleep: {seconds: 40}}', 40],
  ['exec sleep N', '{exec: {command: [sleep, "40"]}}', 40],
  ['exec /bin/sleep Ns', '{exec: {command: [/bin/sleep, "40s"]}}', 40],
  ['sh -c "sleep N"', '{exec: {command: [/bin/sh, -c, "sleep 40"]}}', 40],
] as const) {
  test(`existing preStop (${label}) is left alone and its length feeds the model`, (t) => {
    const containers =
      `        - name: app\n          image: example/web:1\n          ports: ` +
      `[{containerPort: 8080}]\n          lifecycle:\n            preStop: ${hook}` +
      `\n`;
    const result = run(
      deployment({ containers, podSpec: '      terminationGracePeriodSeconds: 30\n' }) + service(),
    );
    const c = changed(result);
    t.false(PRESTOP in c);
    t.is(c[GRACE], seconds + 25);
    t.is(appPlan(result).plan.preStopSeconds.value, seconds);
    // 30 s of grace cannot even hold the 40 s hook: the chart is broken, not just tight.
    t.true(codes(result).includes('warning GRACE_BELOW_OWN_PRESTOP'));
  });
}

test('existing preStop of unreadable length: kept, warning that the grace could not be checked', (t) => {
  const containers =
    '        - name: app\n          image: example/web:1\n          ports: ' +
    '[{containerPort: 8080}]\n          lifecycle:\n            preStop: ' +
    '{httpGet: {path: /drain, port: 8080}}\n';
  const result = run(deployment({ containers }) + service());
  t.deepEqual(result.changes, []);
  const finding = result.findings.find((f) => f.code === 'PRESTOP_LENGTH_UNKNOWN')!;
  t.is(finding.severity, 'warning');
  t.is(formatPath(finding.path!), PRESTOP);
});

test('existing short preStop: kept, warning that it is below the drain window', (t) => {
  const containers =
    '        - name: app\n          image: example/web:1\n          ports: ' +
    '[{containerPort: 8080}]\n          lifecycle:\n            preStop: ' +
    '{sleep: {seconds: 2}}\n';
  const result = run(deployment({ containers }) + service(), { 'drain-window': '10' });
  t.false(PRESTOP in changed(result));
  t.true(codes(result).includes('warning PRESTOP_BELOW_WINDOW'));
});

test('Kubernetes 1.29 without a shell: no preStop, a warning; with a shell: exec sleep', (t) => {
  const without = run(deployment() + service(), { 'kube-version': '1.29' });
  t.false(PRESTOP in changed(without));
  t.true(codes(without).includes('warning PRESTOP_NOT_WRITTEN'));
  const withShell = run(deployment() + service(), {
    'kube-version': '1.29',
    'app-image-has-shell': 'true',
  });
  t.deepEqual(changed(withShell)[PRESTOP], { exec: { command: ['sleep', '5'] } });
  t.true(validateChangedDocuments(withShell) > 0);
});

test('the sleep action never exceeds the grace period, whatever W, R, B and the manifest say', (t) => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 400 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 0, max: 30 }),
      fc.option(fc.integer({ min: 0, max: 900 }), { nil: undefined }),
      (W, R, B, grace) => {
        const podSpec =
          grace === undefined ? '' : `      terminationGracePeriodSeconds: ${grace}\n`;
        const result = transform(deployment({ podSpec }) + service(), {
          mutators: [appGraceful],
          flags: { 'drain-window': String(W), 'max-request': String(R), buffer: String(B) },
        });
        const pod = (
          parseAllDocuments(result.output)[0]!.toJS() as {
            spec: {
              template: {
                spec: {
                  terminationGracePeriodSeconds?: number;
                  containers: Array<{
                    lifecycle?: { preStop?: { sleep?: { seconds: number } } };
                  }>;
                };
              };
            };
          }
        ).spec.template.spec;
        const seconds = pod.containers[0]!.lifecycle?.preStop?.sleep?.seconds;
        const effective = pod.terminationGracePeriodSeconds ?? 30;
        return seconds === undefined
          ? W === 0
          : seconds === W && seconds <= effective && effective >= W + R + B;
      },
    ),
    { numRuns: 200 },
  );
  t.pass();
});

// ---------------------------------------------------------------------------------------------
// which containers serve
// ---------------------------------------------------------------------------------------------

test('only serving containers get a preStop: ports, or a Service targetPort by name', (t) => {
  const containers = `        - name: app
          image: example/web:1
          ports: [{containerPort: 8080, name: http}]
        - name: log-shipper
          image: example/fluent-bit:3
        - name: metrics
          image: example/exporter:1
`;
  const result = run(
    deployment({ containers }) + service('  ports: [{port: 80, targetPort: http}]'),
  );
  t.deepEqual(Object.keys(changed(result)), [PRESTOP]);
  t.regex(result.changes[0]!.reason, /declares container ports/);
});

test('a Service port no container declares reaches the only app container', (t) => {
  const containers = '        - name: app\n          image: example/web:1\n';
  const result = run(deployment({ containers }) + service('  ports: [{port: 80}]'));
  t.deepEqual(changed(result)[PRESTOP], { sleep: { seconds: 5 } });
  t.regex(result.changes[0]!.reason, /the pod's only app container/);
});

test('app.servingContainers decides, and never picks a mesh proxy', (t) => {
  const containers = `        - name: app
          image: example/web:1
          ports: [{containerPort: 8080}]
        - name: worker
          image: example/worker:1
`;
  const result = run(
    deployment({ containers }) + service(),
    {},
    { app: { servingContainers: ['worker', 'istio-proxy'] } },
  );
  t.deepEqual(Object.keys(changed(result)), [
    'spec.template.spec.containers[name=worker].lifecycle.preStop',
  ]);
  t.true(codes(result).includes('warning PROXY_NOT_SERVING_CONTAINER'));
});

test('a pod with nothing serving is left alone', (t) => {
  const containers = '        - name: app\n          image: example/worker:1\n';
  const result = run(deployment({ containers }));
  t.deepEqual(result.changes, []);
  t.true(codes(result).includes('info NO_SERVING_CONTAINER'));
});

// ---------------------------------------------------------------------------------------------
// Istio
// ---------------------------------------------------------------------------------------------

test('Istio auto: native only where Istio itself runs native (Istio ≥ 1.27, oldest kubelet ≥ 1.33), pinned', (t) => {
  const result = run(deployment() + service(), {
    ...ISTIO,
    'istio-version': '1.27',
    'kube-version': 'v1.33.2',
  });
  const c = changed(result);
  t.is(c[`${ANN}["sidecar.istio.io/nativeSidecar"]`], 'true');
  t.false(`${ANN}["proxy.istio.io/config"]` in c);
  t.is(appPlan(result).sidecar, 'native');
  t.truthy(appPlan(result).mesh.istio);
  t.true(validateChangedDocuments(result) > 0);
});

test('Istio auto: classic below that (the defaults, Istio 1.26; or an oldest kubelet 1.32), not pinned', (t) => {
  for (const flags of [{}, { 'istio-version': '1.28', 'kube-version': '1.32.9' }] as Flags[]) {
    const result = run(deployment() + service(), { ...ISTIO, ...flags });
    t.is(appPlan(result).sidecar, 'classic', JSON.stringify(flags));
    t.false(`${ANN}["sidecar.istio.io/nativeSidecar"]` in changed(result));
    t.regex(
      changed(result)[`${ANN}["proxy.istio.io/config"]`] as string,
      /EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "true"/,
    );
  }
});

test('Istio classic where Istio would pick native by itself: pinned "false" so the classic settings apply', (t) => {
  const result = run(deployment() + service(), {
    ...ISTIO,
    'istio-version': '1.28',
    'kube-version': '1.33',
    'sidecar-mode': 'classic',
  });
  t.is(changed(result)[`${ANN}["sidecar.istio.io/nativeSidecar"]`], 'false');
  t.regex(
    result.changes.find((ch) => formatPath(ch.path).includes('nativeSidecar'))!.reason,
    /webhook\.go@1\.27\.0/,
  );
});

test('sidecar-mode native forces native wherever the versions allow it (Istio 1.24, kubelet 1.29)', (t) => {
  const result = run(deployment() + service(), {
    ...ISTIO,
    'sidecar-mode': 'native',
    'istio-version': '1.24',
    'kube-version': '1.29',
  });
  t.is(changed(result)[`${ANN}["sidecar.istio.io/nativeSidecar"]`], 'true');
});

test('Istio auto picks classic below Kubernetes 1.29 or Istio 1.24', (t) => {
  const cases: Flags[] = [
    { 'kube-version': '1.28', 'app-image-has-shell': 'true' },
    { 'istio-version': '1.23' },
  ];
  for (const flags of cases) {
    const result = run(deployment() + service(), { ...ISTIO, ...flags });
    t.is(appPlan(result).sidecar, 'classic');
    t.truthy(changed(result)[`${ANN}["proxy.istio.io/config"]`]);
    t.deepEqual(
      codes(result).filter((c) => c.includes('NATIVE')),
      [],
    );
  }
});

test('Istio native asked for where the versions lack it: classic and a warning', (t) => {
  const result = run(deployment() + service(), {
    ...ISTIO,
    'sidecar-mode': 'native',
    'istio-version': '1.22',
  });
  t.is(appPlan(result).sidecar, 'classic');
  t.true(codes(result).includes('warning NATIVE_SIDECAR_UNSUPPORTED'));
});

test('Istio classic (exit-on-zero): proxyMetadata merged, Go duration text, no removed settings', (t) => {
  const result = run(deployment() + service(), {
    ...ISTIO,
    'sidecar-mode': 'classic',
    'kube-version': '1.29',
    'app-image-has-shell': 'true',
  });
  const config = changed(result)[`${ANN}["proxy.istio.io/config"]`] as string;
  // S + R = 5 + 20: the proxy must not leave at the first idle second after the app's SIGTERM.
  t.is(
    config,
    'proxyMetadata:\n  EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "true"\n  MINIMUM_DRAIN_DURATION: 25s\n',
  );
  t.false(/TERMINATION_DRAIN_DURATION|parentShutdownDuration/.test(result.output));
  t.is(appPlan(result).sidecar, 'classic');
  t.true(validateChangedDocuments(result) > 0);
});

test('Istio classic keeps what it does not own in proxy.istio.io/config, and a longer MINIMUM_DRAIN_DURATION', (t) => {
  const podMeta =
    '      annotations:\n        proxy.istio.io/config: |\n          ' +
    'holdApplicationUntilProxyStarts: true\n          proxyMetadata:\n     ' +
    '       MINIMUM_DRAIN_DURATION: "60s"\n            FOO: bar\n';
  const result = run(deployment({ podMeta }) + service(), {
    ...ISTIO,
    'sidecar-mode': 'classic',
  });
  const config = changed(result)[`${ANN}["proxy.istio.io/config"]`] as string;
  t.is(
    config,
    'holdApplicationUntilProxyStarts: true\nproxyMetadata:\n  ' +
      'MINIMUM_DRAIN_DURATION: "60s"\n  FOO: bar\n  ' +
      'EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "true"\n',
  );
});

test('Istio classic replaces a bare-number MINIMUM_DRAIN_DURATION Istio would ignore', (t) => {
  const podMeta =
    '      annotations:\n        proxy.istio.io/config: |\n          ' +
    'proxyMetadata:\n            MINIMUM_DRAIN_DURATION: "30"\n';
  const result = run(deployment({ podMeta }) + service(), { ...ISTIO, 'sidecar-mode': 'classic' });
  t.regex(
    changed(result)[`${ANN}["proxy.istio.io/config"]`] as string,
    /MINIMUM_DRAIN_DURATION: "?25s"?/,
  );
  t.true(codes(result).includes('info ISTIO_DURATION_IGNORED'));
});

test('Istio classic (termination-drain): terminationDrainDuration = S + R', (t) => {
  const result = run(
    deployment() + service(),
    { ...ISTIO, 'sidecar-mode': 'classic' },
    { app: { classicDrain: 'termination-drain' } },
  );
  t.is(changed(result)[`${ANN}["proxy.istio.io/config"]`], 'terminationDrainDuration: 25s\n');
  t.regex(
    result.changes.find((c) => formatPath(c.path).includes('proxy.istio.io'))!.reason,
    /T = S \+ R = 5 \+ 20 = 25/,
  );
});

test('Istio behind an NLB: classic gets drainDuration W + B (past the 45 s default); native needs none (skip_exit drain)', (t) => {
  const native = changed(run(deployment() + nlbService(), { ...ISTIO, 'sidecar-mode': 'native' }));
  t.is(native[`${ANN}["sidecar.istio.io/nativeSidecar"]`], 'true');
  t.false(
    `${ANN}["proxy.istio.io/config"]` in native,
    'no setting that does nothing in a native sidecar',
  );
  const classic = run(deployment() + nlbService(), { ...ISTIO, 'sidecar-mode': 'classic' });
  t.is(
    changed(classic)[`${ANN}["proxy.istio.io/config"]`],
    'proxyMetadata:\n  EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "true"\n  ' +
      'MINIMUM_DRAIN_DURATION: 200s\ndrainDuration: ' +
      '185s\nparentShutdownDuration: 200s\n',
    'no Istio version stated: kept above drainDuration for injectors up to 1.16',
  );
  t.regex(
    classic.changes.find((c) => formatPath(c.path).includes('proxy.istio.io'))!.reason,
    /D = W \+ B = 180 \+ 5 = 185/,
  );
});

test("Istio: the pod's own longer drainDuration is kept; a shorter one is raised with a note", (t) => {
  const longer = '      annotations:\n        proxy.istio.io/config: "drainDuration: 300s"\n';
  const kept = changed(run(deployment({ podMeta: longer }) + nlbService(), ISTIO))[
    `${ANN}["proxy.istio.io/config"]`
  ] as string;
  t.regex(kept, /drainDuration: 300s/);
  t.notRegex(kept, /185s/);
  const shorter = '      annotations:\n        proxy.istio.io/config: "drainDuration: 60s"\n';
  const result = run(deployment({ podMeta: shorter }) + nlbService(), ISTIO);
  t.regex(changed(result)[`${ANN}["proxy.istio.io/config"]`] as string, /drainDuration: 185s/);
  t.true(codes(result).includes('info DRAIN_DURATION_BELOW_WINDOW'));
});

test("the pod's own nativeSidecar annotation wins", (t) => {
  const podMeta = '      annotations:\n        sidecar.istio.io/nativeSidecar: "false"\n';
  const result = run(deployment({ podMeta }) + service(), ISTIO);
  t.is(appPlan(result).sidecar, 'classic');
  t.false(`${ANN}["sidecar.istio.io/nativeSidecar"]` in changed(result));
});

test('a pre-injected istio-proxy container is never a serving container and its lifecycle is never touched', (t) => {
  const containers = `        - name: app
          image: example/web:1
          ports: [{containerPort: 8080}]
        - name: istio-proxy
          image: docker.io/istio/proxyv2:1.26.0
          args: [proxy, sidecar]
          ports: [{containerPort: 15090, name: http-envoy-prom}]
`;
  for (const mode of ['native', 'classic']) {
    const result = run(deployment({ containers }) + service(), {
      ...ISTIO,
      'sidecar-mode': mode,
    });
    t.false(result.changes.some((c) => formatPath(c.path).includes('istio-proxy')));
  }
});

// ---------------------------------------------------------------------------------------------
// Linkerd
// ---------------------------------------------------------------------------------------------

// auto: native only where Linkerd itself runs native (2.20+); classic before, where Linkerd calls
// the feature experimental (2.15–2.18) or beta (2.19). `pin` is the annotation set to "false".
const linkerdMatrix: Array<{ flags: Flags; key: string /* a mode, or 'classic' */; pin?: string }> =
  [
    { flags: { 'linkerd-version': '2.14' }, key: 'classic' },
    { flags: { 'linkerd-version': '2.15' }, key: 'classic' },
    { flags: { 'linkerd-version': '2.18' }, key: 'classic' },
    { flags: { 'linkerd-version': '2.19' }, key: 'classic' },
    { flags: { 'linkerd-version': '2.20' }, key: 'config.linkerd.io/proxy-enable-native-sidecar' },
    {
      flags: { 'linkerd-version': '2.18', 'kube-version': '1.28', 'app-image-has-shell': 'true' },
      key: 'classic',
    },
    {
      flags: { 'linkerd-version': '2.20', 'kube-version': '1.28', 'app-image-has-shell': 'true' },
      key: 'classic',
      pin: 'config.linkerd.io/proxy-enable-native-sidecar',
    },
    {
      flags: { 'linkerd-version': '2.19', 'sidecar-mode': 'native' },
      key: 'config.beta.linkerd.io/proxy-enable-native-sidecar',
    },
    {
      flags: { 'linkerd-version': '2.15', 'sidecar-mode': 'native' },
      key: 'config.alpha.linkerd.io/proxy-enable-native-sidecar',
    },
  ];
for (const { flags, key, pin } of linkerdMatrix) {
  test(`Linkerd with ${JSON.stringify(flags)} → ${key}${pin ? ', pinned false' : ''}`, (t) => {
    const result = run(deployment() + service(), { ...LINKERD, ...flags });
    const c = changed(result);
    if (key === 'classic') {
      t.is(c[`${ANN}["config.alpha.linkerd.io/proxy-wait-before-exit-seconds"]`], '25');
      t.is(appPlan(result).sidecar, 'classic');
      const pinned = Object.keys(c).filter((k) => k.includes('proxy-enable-native-sidecar'));
      t.deepEqual(pinned, pin ? [`${ANN}[${JSON.stringify(pin)}]`] : []);
      if (pin) t.is(c[pinned[0]!], 'false');
    } else {
      t.is(c[`${ANN}[${JSON.stringify(key)}]`], 'true');
      t.false(Object.keys(c).some((k) => k.includes('proxy-wait-before-exit')));
    }
  });
}

test('Linkerd classic: wait S + R stays below G, grace raised with it', (t) => {
  const result = run(deployment() + service(), {
    ...LINKERD,
    'sidecar-mode': 'classic',
    'drain-window': '60',
  });
  const c = changed(result);
  t.is(c[`${ANN}["config.alpha.linkerd.io/proxy-wait-before-exit-seconds"]`], '80');
  t.is(c[GRACE], 85);
  t.deepEqual(
    codes(result).filter((x) => x.startsWith('error')),
    [],
  );
});

test('Linkerd classic with no buffer: the plan check says the wait is not below G', (t) => {
  const result = run(deployment() + service(), {
    ...LINKERD,
    'sidecar-mode': 'classic',
    buffer: '0',
  });
  t.true(codes(result).includes('error SIDECAR_WAIT_NOT_BELOW_GRACE'));
  // Without a sidecar wait the same numbers raise no such error.
  t.false(
    codes(run(deployment() + service(), { buffer: '0' })).includes(
      'error SIDECAR_WAIT_NOT_BELOW_GRACE',
    ),
  );
});

test('Linkerd-annotated pod (linkerd.io/inject) is detected without config', (t) => {
  const podMeta = '      annotations:\n        linkerd.io/inject: enabled\n';
  const result = run(deployment({ podMeta }) + service(), { 'sidecar-mode': 'classic' });
  t.truthy(appPlan(result).mesh.linkerd);
  t.is(changed(result)[`${ANN}["config.alpha.linkerd.io/proxy-wait-before-exit-seconds"]`], '25');
});

// ---------------------------------------------------------------------------------------------
// scope: kinds, control plane, gateways, Jobs
// ---------------------------------------------------------------------------------------------

test('StatefulSet, DaemonSet and ReplicaSet are handled; a Job is not', (t) => {
  for (const kind of ['StatefulSet', 'DaemonSet', 'ReplicaSet'])
    t.truthy(changed(run(deployment({ kind }) + service()))[PRESTOP], kind);
  const job = deployment({
    kind: 'Job',
    apiVersion: 'batch/v1',
    podSpec: '      restartPolicy: Never\n',
  });
  t.deepEqual(run(job + service()).changes, []);
});

test('an Argo Rollout is handled through config extraKinds', (t) => {
  const rollout = deployment({ kind: 'Rollout', apiVersion: 'argoproj.io/v1alpha1' });
  const spec = {
    extraKinds: [{ group: 'argoproj.io', kind: 'Rollout', podTemplatePath: 'spec.template' }],
  };
  const result = run(rollout + service(), { ...ISTIO, 'sidecar-mode': 'native' }, spec);
  t.deepEqual(changed(result)[PRESTOP], { sleep: { seconds: 5 } });
  t.is(changed(result)[`${ANN}["sidecar.istio.io/nativeSidecar"]`], 'true');
  t.deepEqual(run(rollout + service(), ISTIO).changes, [], 'not a workload without extraKinds');
});

test('istiod is left alone by default, byte for byte, and changed when included', (t) => {
  const input = corpus('istiod-1.30.3.yaml');
  const result = run(input, { 'istio-injected-namespaces': 'istio-system' });
  t.is(result.output, input);
  t.true(codes(result).includes('info CONTROL_PLANE_LEFT_ALONE'));
  const included = run(input, {}, { include: [{ kind: 'Deployment', name: 'istiod' }] });
  t.true(included.changes.length > 0);
});

test('control plane by structure: kube-system, CNI host paths, ztunnel and Linkerd components', (t) => {
  const cases = [
    deployment({ kind: 'DaemonSet', namespace: 'kube-system' }),
    deployment({
      kind: 'DaemonSet',
      podSpec: '      volumes: [{name: bin, hostPath: {path: /opt/cni/bin}}]\n',
    }),
    deployment({
      kind: 'DaemonSet',
      containers:
        '        - name: istio-proxy\n          image: ' +
        'docker.io/istio/ztunnel:1.26.0-distroless\n          ports: ' +
        '[{containerPort: 15020}]\n',
    }),
    deployment({ labels: ', linkerd.io/control-plane-component: destination' }),
  ];
  for (const input of cases) {
    const result = run(input);
    t.deepEqual(result.changes, [], input);
    t.true(codes(result).includes('info CONTROL_PLANE_LEFT_ALONE'));
  }
});

test('Istio gateways are left to gateway-drain', (t) => {
  for (const name of ['istio-gateway-1.30.3-nlb.yaml', 'istio-gateway-1.17.8-default.yaml']) {
    t.deepEqual(run(corpus(name)).changes, [], name);
  }
});

test('app.mode off switches the mutator off', (t) => {
  t.deepEqual(run(deployment() + service(), { 'app-mode': 'off' }).changes, []);
});

// ---------------------------------------------------------------------------------------------
// every corpus chart, both sidecar modes, every namespace injected
// ---------------------------------------------------------------------------------------------

for (const name of corpusNames()) {
  test(`corpus ${name}: idempotent, valid, both sidecar modes`, (t) => {
    const input = corpus(name);
    const namespaces = [
      ...new Set([...input.matchAll(/^\s+namespace: "?([a-z0-9-]+)"?$/gm)].map((m) => m[1]!)),
    ].join(',');
    for (const mode of ['native', 'classic']) {
      const result = run(input, {
        'sidecar-mode': mode,
        namespace: 'default',
        'istio-injected-namespaces': `default,${namespaces}`,
      });
      if (result.changes.length > 0) t.true(validateChangedDocuments(result) > 0);
    }
    t.pass();
  });
}

// ---------------------------------------------------------------------------------------------
// never a lifecycle change on istio-proxy, in any output of any run above
// ---------------------------------------------------------------------------------------------

interface PodLike {
  kind?: string;
  spec?: {
    template?: {
      spec?: {
        containers?: Array<{ name?: string; lifecycle?: unknown }>;
        initContainers?: Array<{ name?: string; lifecycle?: unknown }>;
      };
    };
  };
}

function proxyLifecycles(text: string): string[] {
  return parseAllDocuments(text).flatMap((doc) => {
    const pod = (doc.toJS() as PodLike | null)?.spec?.template?.spec;
    return [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]
      .filter((c) => c.name === 'istio-proxy')
      .map((c) => JSON.stringify(c.lifecycle ?? null));
  });
}

test.after('no run changed the lifecycle of an istio-proxy container', (t) => {
  let proxies = 0;
  for (const result of runs) {
    t.false(result.changes.some((c) => formatPath(c.path).includes('istio-proxy')));
    const before = proxyLifecycles(result.input);
    t.deepEqual(proxyLifecycles(result.output), before);
    proxies += before.length;
  }
  t.true(proxies > 0, 'the runs include pods with an istio-proxy container');
});

// Istio ≤ 1.16 denies a pod whose drainDuration is not below parentShutdownDuration (default 60 s;
// pkg/config/validation/validation.go@1.16.7): an app whose drainDuration is raised past 60 s gets
// parentShutdownDuration above it where the version may enforce that, and nothing from 1.17.
test('classic Istio app behind an NLB: parentShutdownDuration above drainDuration below Istio 1.17 or unknown, none from 1.17', (t) => {
  const input = readFileSync(
    new URL('../../golden/app-istio-nlb-classic/input.yaml', import.meta.url),
    'utf8',
  );
  const flags = { 'sidecar-mode': 'classic', 'gateway-mode': 'off', 'job-mode': 'off' };
  const proxyConfig = (version: string | undefined) => {
    const result = transform(input, {
      flags: { ...flags, ...(version ? { 'istio-version': version } : {}) },
    });
    const change = result.changes.find((c) =>
      formatPath(c.path).endsWith('["proxy.istio.io/config"]'),
    );
    return parse(String(change?.after ?? '')) as Record<string, string>;
  };
  for (const version of ['1.16', '1.12.9', undefined]) {
    const config = proxyConfig(version);
    const drain = parseInt(config['drainDuration']!, 10);
    t.true(drain > 60, `${version}: drainDuration ${drain} s is past the 60 s default`);
    t.true(
      parseInt(config['parentShutdownDuration'] ?? '0', 10) > drain,
      `${version ?? 'unknown'}: ${JSON.stringify(config)}`,
    );
  }
  for (const version of ['1.17', '1.26'])
    t.is(proxyConfig(version)['parentShutdownDuration'], undefined, version);
});
