// job-sidecar-quit through the whole engine: inline YAML in, edited YAML and records out. The
// end-to-end tests at the bottom RUN what the mutator wrote into a real corpus Job.
import test from 'ava';
import { spawn } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { transform } from '../../../fn/engine/transform.ts';
import type { TransformResult } from '../../../fn/engine/transform.ts';
import { formatPath } from '../../../fn/core/fieldPath.ts';
import { jobSidecarQuit } from '../../../fn/mutators/job/index.ts';
import { httpClientOf, knownWithoutShell } from '../../../fn/mutators/job/images.ts';
import { mergeHoldApplication } from '../../../fn/mutators/job/proxyConfig.ts';
import { isWrapped, unwrapCommand, WRAPPER_MARKER } from '../../../fn/mutators/job/wrapper.ts';
import { corpus } from '../../helpers/fixtures.ts';
import { validateChangedDocuments } from '../../helpers/golden.ts';
import { HANG_GUARD_MS } from '../../helpers/hangGuard.ts';
import { startStandinProxy } from '../../helpers/standinProxy.ts';

type Flags = Record<string, string>;
const ISTIO_NS1: Flags = { 'istio-injected-namespaces': 'ns1' };
const OLD_ISTIO: Flags = { ...ISTIO_NS1, 'kube-version': '1.28', 'istio-version': '1.22' };

function run(yaml: string, flags: Flags = {}): TransformResult {
  return transform(yaml, { mutators: [jobSidecarQuit], flags });
}

/** A Job in `ns1` whose pod template gets the given metadata and container lines. */
function job(
  options: { podMeta?: string; container?: string; name?: string; extra?: string } = {},
): string {
  const container =
    options.container ?? 'command: [python, job.py]\n          args: ["--date", "$(DATE)"]';
  return `apiVersion: batch/v1
kind: Job
metadata:
  name: ${options.name ?? 'migrate'}
  namespace: ns1
spec:
  template:
    metadata:
${options.podMeta ?? '      labels: {app: migrate}'}
    spec:
      restartPolicy: Never
      containers:
        - name: main
          image: python:3.12
          ${container}
${options.extra ?? ''}`;
}

/** Returns `path → after` of every change, paths as text. */
function changed(result: TransformResult): Record<string, unknown> {
  return Object.fromEntries(result.changes.map((c) => [formatPath(c.path), c.after]));
}

const codes = (result: TransformResult): string[] =>
  result.findings.map((f) => `${f.severity} ${f.code}`);
const ANN = 'spec.template.metadata.annotations';
const COMMAND = 'spec.template.spec.containers[name=main].command';

// ---------------------------------------------------------------------------------------------
// native mode by version
// ---------------------------------------------------------------------------------------------

/** mesh, the kubelet's version, the mesh's version, and the annotation auto pins (or 'wrap'). */
const matrix: Array<
  [mesh: 'istio' | 'linkerd', kube: string, meshVersion: string, expect: string]
> = [
  ['istio', '1.29', '1.24', 'sidecar.istio.io/nativeSidecar'],
  ['istio', '1.33', '1.28', 'sidecar.istio.io/nativeSidecar'],
  ['istio', '1.28', '1.26', 'wrap'],
  ['istio', '1.31', '1.23', 'wrap'],
  ['linkerd', '1.29', '2.14', 'wrap'],
  ['linkerd', '1.29', '2.15', 'config.alpha.linkerd.io/proxy-enable-native-sidecar'],
  ['linkerd', '1.31', '2.18', 'config.alpha.linkerd.io/proxy-enable-native-sidecar'],
  ['linkerd', '1.31', '2.19', 'config.beta.linkerd.io/proxy-enable-native-sidecar'],
  ['linkerd', '1.33', '2.20', 'config.linkerd.io/proxy-enable-native-sidecar'],
  ['linkerd', '1.33', '2.21.3', 'config.linkerd.io/proxy-enable-native-sidecar'],
  ['linkerd', '1.28', '2.18', 'wrap'],
];

for (const [mesh, kube, meshVersion, expect] of matrix) {
  const flags: Flags = { 'kube-version': kube, [`${mesh}-version`]: meshVersion };
  test(`auto: ${mesh} with ${JSON.stringify(flags)} → ${expect}`, (t) => {
    const meshFlag = mesh === 'istio' ? ISTIO_NS1 : { 'linkerd-injected-namespaces': 'ns1' };
    const result = run(job(), { ...meshFlag, ...flags });
    const changes = changed(result);
    if (expect === 'wrap') {
      t.true(isWrapped(changes[COMMAND] as string[]));
      return;
    }
    t.deepEqual(
      changes,
      { [`${ANN}["${expect}"]`]: 'true' },
      'native: the annotation and nothing else, no quit call',
    );
    t.true(result.changes[0]!.reason.includes('kubernetes/kubernetes#25908'));
    t.true(
      result.changes[0]!.reason.includes(
        'The handler is not called if the container crashes or exits',
      ),
    );
    // Pinned wherever the versions allow it; before Istio 1.27 / Linkerd 2.20 an info says how
    // upstream rates it.
    const stable =
      mesh === 'istio'
        ? Number(flags['istio-version']!.split('.')[1]) >= 27
        : Number(flags['linkerd-version']!.split('.')[1]) >= 20;
    t.deepEqual(codes(result), stable ? [] : ['info JOB_NATIVE_SIDECAR_MATURITY']);
  });
}

test('explicit native where the versions cannot honour it changes nothing and warns', (t) => {
  const result = run(job(), { ...OLD_ISTIO, 'job-mode': 'native' });
  t.deepEqual(result.changes, []);
  t.deepEqual(codes(result), ['warning JOB_NATIVE_UNAVAILABLE']);
  t.regex(result.findings[0]!.message, /Kubernetes 1\.28 \(flag --kube-version\), is below 1\.29/);
  t.regex(result.findings[0]!.message, /Istio 1\.22 \(flag --istio-version\) is below 1\.24/);
});

test('auto wraps when sidecarMode is classic or the pod pins native off', (t) => {
  t.true(
    isWrapped(
      changed(run(job(), { ...ISTIO_NS1, 'sidecar-mode': 'classic' }))[COMMAND] as string[],
    ),
  );
  const pinned = job({
    podMeta: '      annotations:\n        sidecar.istio.io/nativeSidecar: "false"',
  });
  const result = run(pinned, ISTIO_NS1);
  t.true(isWrapped(changed(result)[COMMAND] as string[]));
  t.regex(result.changes[0]!.reason, /pins sidecar\.istio\.io\/nativeSidecar: "false"/);
});

test('auto follows a pod template that pins native on, even where the versions would wrap', (t) => {
  const pinned = job({
    podMeta: '      annotations:\n        sidecar.istio.io/nativeSidecar: "true"',
  });
  const result = run(pinned, { ...ISTIO_NS1, 'kube-version': '1.28' });
  t.deepEqual(result.changes, [], 'the chart\'s "true" is not overridden with "false"');
  t.deepEqual(codes(result), ['info JOB_ALREADY_COMPLETES']);
  // An explicit job.mode: wrap is the user's word and does override it.
  t.is(
    changed(run(pinned, { ...ISTIO_NS1, 'job-mode': 'wrap' }))[
      `${ANN}["sidecar.istio.io/nativeSidecar"]`
    ],
    'false',
  );
});

test('native mode removes a wrapper left by an earlier wrap run (no quit call on a native sidecar)', (t) => {
  const wrapped = run(job(), { ...ISTIO_NS1, 'job-mode': 'wrap' }).output;
  const result = run(wrapped, { ...ISTIO_NS1, 'job-mode': 'native' });
  t.deepEqual(changed(result)[COMMAND], ['python', 'job.py']);
  t.is(changed(result)[`${ANN}["sidecar.istio.io/nativeSidecar"]`], 'true');
});

// ---------------------------------------------------------------------------------------------
// wrap mode
// ---------------------------------------------------------------------------------------------

test('wrap for Istio: command wrapped, args kept, native pinned off, hold merged', (t) => {
  const result = run(job(), { ...OLD_ISTIO, 'job-mode': 'wrap' });
  const changes = changed(result);
  const command = changes[COMMAND] as string[];
  t.deepEqual(command.slice(0, 2), ['/bin/sh', '-c']);
  t.deepEqual(command.slice(3), [WRAPPER_MARKER, 'python', 'job.py']);
  t.true(command[2]!.includes('quit istio http://127.0.0.1:15020/quitquitquit'));
  t.false(command[2]!.includes('/shutdown'));
  t.is(
    changes['spec.template.spec.containers[name=main].args'],
    undefined,
    'args are never touched',
  );
  // Istio 1.22 has no nativeSidecar annotation: nothing to pin; hold is set.
  t.deepEqual(Object.keys(changes).sort(), [COMMAND, `${ANN}["proxy.istio.io/config"]`].sort());
  t.is(changes[`${ANN}["proxy.istio.io/config"]`], 'holdApplicationUntilProxyStarts: true');
  t.deepEqual(codes(result), []);
  t.true(validateChangedDocuments(result) > 0);

  // From Istio 1.24 the annotation exists and is pinned off: Istio 1.27 could pick native itself.
  const newer = changed(run(job(), { ...ISTIO_NS1, 'job-mode': 'wrap', 'istio-version': '1.27' }));
  t.is(newer[`${ANN}["sidecar.istio.io/nativeSidecar"]`], 'false');
});

test('wrap for Linkerd: /shutdown, admin-shutdown enabled, no Istio keys', (t) => {
  const result = run(job(), {
    'linkerd-injected-namespaces': 'ns1',
    'job-mode': 'wrap',
    'linkerd-version': '2.16',
  });
  const changes = changed(result);
  const script = (changes[COMMAND] as string[])[2]!;
  t.true(script.includes('quit linkerd http://127.0.0.1:4191/shutdown'));
  t.false(script.includes('quitquitquit'));
  t.is(changes[`${ANN}["config.linkerd.io/proxy-admin-shutdown"]`], 'enabled');
  t.is(changes[`${ANN}["config.alpha.linkerd.io/proxy-enable-native-sidecar"]`], 'false');
  t.is(changes[`${ANN}["proxy.istio.io/config"]`], undefined);
  t.true(validateChangedDocuments(result) > 0);
});

test('wrap for a pod in both meshes asks both proxies', (t) => {
  const both = job({
    podMeta:
      '      labels: {sidecar.istio.io/inject: "true"}\n      annotations: ' +
      '{linkerd.io/inject: enabled}',
  });
  const script = (changed(run(both, { 'job-mode': 'wrap' }))[COMMAND] as string[])[2]!;
  t.true(
    script.includes(
      'quit istio http://127.0.0.1:15020/quitquitquit\nquit linkerd http://127.0.0.1:4191/shutdown',
    ),
  );
});

test('wrap honours the status port and admin port annotations; port 0 or garbage is a warning', (t) => {
  const port = (value: string) =>
    job({ podMeta: `      annotations:\n        status.sidecar.istio.io/port: "${value}"` });
  const script = (
    changed(run(port('15099'), { ...ISTIO_NS1, 'job-mode': 'wrap' }))[COMMAND] as string[]
  )[2]!;
  t.true(script.includes('http://127.0.0.1:15099/quitquitquit'));
  for (const bad of ['0', 'abc', '70000']) {
    const result = run(port(bad), { ...ISTIO_NS1, 'job-mode': 'wrap' });
    t.deepEqual(result.changes, [], bad);
    t.deepEqual(codes(result), ['warning JOB_NO_QUIT_ENDPOINT'], bad);
  }
  const linkerd = job({
    podMeta: '      annotations:\n        config.linkerd.io/admin-port: "4999"',
  });
  const linkerdScript = (
    changed(run(linkerd, { 'linkerd-injected-namespaces': 'ns1', 'job-mode': 'wrap' }))[
      COMMAND
    ] as string[]
  )[2]!;
  t.true(linkerdScript.includes('http://127.0.0.1:4999/shutdown'));
});

test('args without command: warning naming the container, nothing guessed', (t) => {
  const result = run(job({ container: 'args: [create, --namespace=ns1]' }), {
    ...ISTIO_NS1,
    'job-mode': 'wrap',
  });
  t.deepEqual(result.changes, []);
  t.deepEqual(codes(result), ['warning JOB_ENTRYPOINT_UNKNOWN']);
  t.regex(result.findings[0]!.message, /container "main" has args but no command/);
  t.regex(result.findings[0]!.message, /native mode/);
});

test('an image without a shell is not wrapped: warning', (t) => {
  const distroless = job().replace(
    'image: python:3.12',
    'image: gcr.io/distroless/python3-debian12:nonroot',
  );
  const result = run(distroless, { ...ISTIO_NS1, 'job-mode': 'wrap' });
  t.deepEqual(result.changes, []);
  t.deepEqual(codes(result), ['warning JOB_IMAGE_WITHOUT_SHELL']);
  t.regex(result.findings[0]!.message, /gcr\.io\/distroless/);
});

test('job.imageHasShell overrides the no-shell list both ways (flag, and per workload by annotation)', (t) => {
  const distroless = job().replace(
    'image: python:3.12',
    'image: gcr.io/distroless/python3-debian12:debug',
  );
  const trusted = run(distroless, {
    ...ISTIO_NS1,
    'job-mode': 'wrap',
    'job-image-has-shell': 'true',
  });
  t.true(
    trusted.changes.some((c) => c.path.at(-1) === 'command'),
    'wrapped when config says the image has a shell',
  );
  const annotated = distroless.replace(
    'metadata:\n',
    'metadata:\n  annotations: {kube-graceful.dev/job-image-has-shell: "true"}\n',
  );
  t.true(
    run(annotated, { ...ISTIO_NS1, 'job-mode': 'wrap' }).changes.some(
      (c) => c.path.at(-1) === 'command',
    ),
    'per workload',
  );
  const refused = run(job(), {
    ...ISTIO_NS1,
    'job-mode': 'wrap',
    'job-image-has-shell': 'false',
  });
  t.deepEqual(refused.changes, []);
  t.regex(refused.findings[0]!.message, /job\.imageHasShell is false/);
});

test('wrap needs curl or wget: known images, unknown ones warned, images with neither not wrapped, config overrides', (t) => {
  t.is(httpClientOf('docker.io/library/busybox:1.37', undefined).client, 'wget');
  t.is(httpClientOf('alpine:3.22', undefined).client, 'wget');
  t.is(httpClientOf('python:3.12', undefined).client, 'curl');
  t.is(httpClientOf('python:3.12-slim', undefined).client, 'none');
  t.is(httpClientOf('debian:bookworm', undefined).client, 'none');
  t.is(httpClientOf('gcr.io/distroless/static-debian12', undefined).client, 'none');
  t.is(httpClientOf('quay.io/argoproj/argocd:v3.4.4', undefined).client, 'unknown');
  const wrapOnly = { ...ISTIO_NS1, 'job-mode': 'wrap' };
  t.deepEqual(codes(run(job(), wrapOnly)), []);
  const unknown = run(job().replace('image: python:3.12', 'image: example/migrate:1'), wrapOnly);
  t.true(unknown.changes.some((c) => c.path.at(-1) === 'command'));
  t.deepEqual(codes(unknown), ['warning JOB_IMAGE_HTTP_CLIENT_UNKNOWN']);
  t.deepEqual(
    codes(
      run(job().replace('image: python:3.12', 'image: example/migrate:1'), {
        ...wrapOnly,
        'job-image-has-http-client': 'true',
      }),
    ),
    [],
  );
  const neither = run(job().replace('image: python:3.12', 'image: debian:bookworm'), wrapOnly);
  t.deepEqual([neither.changes, codes(neither)], [[], ['warning JOB_IMAGE_WITHOUT_HTTP_CLIENT']]);
});

test('images known to have no /bin/sh', (t) => {
  t.truthy(knownWithoutShell('gcr.io/distroless/static-debian12'));
  t.truthy(knownWithoutShell('gcr.io/distroless/base:debug'));
  t.truthy(knownWithoutShell('cgr.dev/chainguard/python:latest'));
  t.falsy(knownWithoutShell('cgr.dev/chainguard/python:latest-dev'));
  t.falsy(knownWithoutShell('cgr.dev/chainguard/wolfi-base'));
  t.truthy(
    knownWithoutShell(
      'registry.k8s.io/ingress-nginx/kube-webhook-certgen:v1.6.9' +
        '@sha256:01038e7de14b78d702d2849c3aad72fd25903c4765af63cf16aa3398f5d5f2dd',
    ),
  );
  t.falsy(knownWithoutShell('registry.k8s.io/ingress-nginx/controller:v1.15.1'));
  t.falsy(knownWithoutShell('registry.k8s.io/e2e-test-images/agnhost:2.53'));
  t.truthy(knownWithoutShell('docker.io/istio/proxyv2:1.24.0-distroless'));
  t.falsy(knownWithoutShell('quay.io/argoproj/argocd:v3.4.4'));
  t.falsy(knownWithoutShell('localhost:5000/app'));
  t.falsy(knownWithoutShell(undefined));
});

test('main containers: proxies excluded, job.mainContainers names them, several is a warning', (t) => {
  const extra =
    '        - name: istio-proxy\n' +
    '          image: istio/proxyv2\n' +
    '          args: [proxy, sidecar]\n' +
    '        - name: uploader\n' +
    '          image: alpine\n' +
    '          command: [upload]\n';
  const result = run(job({ extra }), { ...ISTIO_NS1, 'job-mode': 'wrap' });
  const paths = Object.keys(changed(result));
  t.true(paths.includes(COMMAND));
  t.true(paths.includes('spec.template.spec.containers[name=uploader].command'));
  t.false(
    paths.some((p) => p.includes('istio-proxy')),
    'a mesh proxy is never wrapped',
  );
  t.deepEqual(codes(result), ['warning JOB_SEVERAL_MAIN_CONTAINERS']);

  // A second container that cannot be wrapped (no command) stops nothing: only one is wrapped.
  const unwrappable = extra.replace('          command: [upload]\n', '');
  t.not(unwrappable, extra);
  t.deepEqual(codes(run(job({ extra: unwrappable }), { ...ISTIO_NS1, 'job-mode': 'wrap' })), [
    'warning JOB_ENTRYPOINT_UNKNOWN',
  ]);

  const config = {
    data: {
      apiVersion: 'kube-graceful.dev/v1alpha1',
      kind: 'GracefulShutdown',
      spec: {
        job: { mode: 'wrap', mainContainers: ['uploader'] },
        mesh: { istioInjectedNamespaces: ['ns1'] },
      },
    },
    origin: 'test',
  };
  const named = transform(job({ extra }), { mutators: [jobSidecarQuit], config });
  t.deepEqual(
    Object.keys(changed(named)).filter((p) => p.endsWith('.command')),
    ['spec.template.spec.containers[name=uploader].command'],
  );
  t.deepEqual(codes(named), []);

  const missing = transform(job(), { mutators: [jobSidecarQuit], config });
  t.deepEqual(missing.changes, []);
  t.deepEqual(codes(missing), ['warning JOB_MAIN_CONTAINER_NOT_FOUND']);
});

test('proxy.istio.io/config: merged key by key, explicit false kept, invalid left alone', (t) => {
  const flagsWrap = { ...ISTIO_NS1, 'job-mode': 'wrap' };
  const existing = job({
    podMeta:
      '      annotations:\n' +
      '        proxy.istio.io/config: |\n' +
      '          terminationDrainDuration: 30s\n' +
      '          proxyMetadata:\n' +
      '            FOO: "1"\n',
  });
  t.is(
    changed(run(existing, flagsWrap))[`${ANN}["proxy.istio.io/config"]`],
    'terminationDrainDuration: 30s\n' +
      'proxyMetadata:\n' +
      '  FOO: "1"\n' +
      'holdApplicationUntilProxyStarts: true\n',
  );

  const off = run(
    job({
      podMeta:
        '      annotations:\n        proxy.istio.io/config: ' +
        "'{holdApplicationUntilProxyStarts: false}'",
    }),
    flagsWrap,
  );
  t.is(changed(off)[`${ANN}["proxy.istio.io/config"]`], undefined);
  t.true(isWrapped(changed(off)[COMMAND] as string[]));
  t.deepEqual(codes(off), ['info JOB_HOLD_KEPT_FALSE']);

  const invalid = run(
    job({ podMeta: "      annotations:\n        proxy.istio.io/config: '[a, b'" }),
    flagsWrap,
  );
  t.is(changed(invalid)[`${ANN}["proxy.istio.io/config"]`], undefined);
  t.deepEqual(codes(invalid), ['warning JOB_PROXY_CONFIG_INVALID']);

  t.deepEqual(mergeHoldApplication('{"drainDuration": "45s"}'), {
    kind: 'set',
    value: '{"drainDuration": "45s", "holdApplicationUntilProxyStarts": true}',
  });
  t.deepEqual(mergeHoldApplication('holdApplicationUntilProxyStarts: true\n'), {
    kind: 'unchanged',
  });
  t.is(mergeHoldApplication('- a').kind, 'invalid');
  t.is(mergeHoldApplication('holdApplicationUntilProxyStarts: maybe').kind, 'invalid');
});

// ---------------------------------------------------------------------------------------------
// which pods
// ---------------------------------------------------------------------------------------------

test('an explicit opt-out wins over an injected namespace', (t) => {
  const optOut = job({ podMeta: '      labels:\n        sidecar.istio.io/inject: "false"' });
  const result = run(optOut, ISTIO_NS1);
  t.deepEqual(result.changes, []);
  t.deepEqual(codes(result), ['info JOB_NO_MESH']);
  t.regex(result.findings[0]!.message, /opts out/);
});

test('namespace injected by a Namespace in the stream, or by config', (t) => {
  const namespace = (labels: string) =>
    `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns1\n  labels: {${labels}}\n---\n`;
  for (const labels of ['istio-injection: enabled', 'istio.io/rev: canary']) {
    const result = run(namespace(labels) + job());
    t.is(changed(result)[`${ANN}["sidecar.istio.io/nativeSidecar"]`], 'true', labels);
    t.regex(result.changes[0]!.reason, /Namespace ns1 label/);
  }
  t.deepEqual(run(namespace('istio-injection: disabled') + job()).changes, []);
  const linkerdNs =
    'apiVersion: v1\n' +
    'kind: Namespace\n' +
    'metadata:\n' +
    '  name: ns1\n' +
    '  annotations: {linkerd.io/inject: enabled}\n' +
    '---\n';
  t.is(
    changed(run(linkerdNs + job()))[
      `${ANN}["config.alpha.linkerd.io/proxy-enable-native-sidecar"]`
    ],
    'true',
  );
  const byConfig = run(job(), ISTIO_NS1);
  t.regex(byConfig.changes[0]!.reason, /listed in mesh\.istioInjectedNamespaces/);
});

test('pod label istio.io/rev injects unless the namespace disables injection', (t) => {
  const revision = job({ podMeta: '      labels: {istio.io/rev: canary}' });
  t.is(changed(run(revision))[`${ANN}["sidecar.istio.io/nativeSidecar"]`], 'true');
  const disabled =
    'apiVersion: v1\n' +
    'kind: Namespace\n' +
    'metadata:\n' +
    '  name: ns1\n' +
    '  labels: {istio-injection: disabled}\n' +
    '---\n';
  t.deepEqual(run(disabled + revision).changes, []);
});

test('CronJob: the pod template under spec.jobTemplate.spec.template', (t) => {
  const cronJob = `apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: ns1}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: main
              image: python:3.12
              command: [python, nightly.py]
`;
  const native = run(cronJob, ISTIO_NS1);
  t.deepEqual(Object.keys(changed(native)), [
    'spec.jobTemplate.spec.template.metadata.annotations["sidecar.istio.io/nativeSidecar"]',
  ]);
  const wrap = run(cronJob, { ...ISTIO_NS1, 'job-mode': 'wrap' });
  t.true(
    isWrapped(
      changed(wrap)[
        'spec.jobTemplate.spec.template.spec.containers[name=main].command'
      ] as string[],
    ),
  );
  t.true(validateChangedDocuments(wrap) > 0);
  t.true(validateChangedDocuments(native) > 0);
});

test('run-once Pods are handled, long-running pods and Deployments are not', (t) => {
  const pod = (policy: string) =>
    `apiVersion: v1\n` +
    `kind: Pod\n` +
    `metadata: {name: p, namespace: ns1}\n` +
    `spec:\n` +
    `  restartPolicy: ${policy}\n` +
    `  containers:\n` +
    `    - name: main\n` +
    `      image: python\n` +
    `      command: [python]\n`;
  t.deepEqual(Object.keys(changed(run(pod('Never'), ISTIO_NS1))), [
    'metadata.annotations["sidecar.istio.io/nativeSidecar"]',
  ]);
  const always = run(pod('Always'), ISTIO_NS1);
  t.deepEqual([always.changes, always.findings], [[], []]);
  const deployment =
    'apiVersion: apps/v1\n' +
    'kind: Deployment\n' +
    'metadata: {name: d, namespace: ns1}\n' +
    'spec:\n' +
    '  template:\n' +
    '    spec:\n' +
    '      containers: [{name: main, image: python}]\n';
  const result = run(deployment, ISTIO_NS1);
  t.deepEqual([result.changes, result.findings], [[], []]);
});

test('no mesh: no change, one info saying why', (t) => {
  const result = run(job());
  t.is(result.output, job());
  t.deepEqual(codes(result), ['info JOB_NO_MESH']);
  t.regex(result.findings[0]!.message, /namespace ns1 is neither labelled/);
});

test('job.mode off: nothing at all', (t) => {
  const result = run(job(), { ...ISTIO_NS1, 'job-mode': 'off' });
  t.deepEqual([result.changes, result.findings], [[], []]);
});

test('idempotent in both modes: a second run changes nothing and says so', (t) => {
  for (const mode of ['native', 'wrap']) {
    const flags = { ...ISTIO_NS1, 'job-mode': mode };
    const first = run(job(), flags);
    t.true(first.changes.length > 0);
    const second = run(first.output, flags);
    t.deepEqual(second.changes, [], mode);
    t.is(second.output, first.output);
    t.deepEqual(codes(second), ['info JOB_ALREADY_COMPLETES'], mode);
  }
});

test('Helm hooks: info on the Helm 3 limitation unless the input is Helm 4 post-renderer input', (t) => {
  const hook = job().replace(
    '  namespace: ns1\n',
    '  namespace: ns1\n  annotations:\n    helm.sh/hook: pre-install\n',
  );
  // Istio 1.26 (the default) still rates native sidecars experimental: said once, before the hook
  // note.
  t.deepEqual(codes(run(hook, ISTIO_NS1)), [
    'info JOB_NATIVE_SIDECAR_MATURITY',
    'info JOB_HELM3_HOOK',
  ]);
  t.regex(run(hook, ISTIO_NS1).findings[1]!.message, /helm\/helm#7891/);
  const helm4 = hook.replace(
    '    helm.sh/hook: pre-install\n',
    '    helm.sh/hook: pre-install\n' +
      "    postrenderer.helm.sh/postrender-filename: 'chart/templates/job.yaml'\n",
  );
  const result = run(helm4, ISTIO_NS1);
  t.true(result.changes.length > 0);
  t.deepEqual(codes(result), ['info JOB_NATIVE_SIDECAR_MATURITY']);
});

test('Helm hooks: the finding names the kind found (a helm test hook is a Pod)', (t) => {
  const pod = `apiVersion: v1
kind: Pod
metadata:
  name: gw-test-connection
  namespace: ns1
  annotations:
    helm.sh/hook: test
spec:
  restartPolicy: Never
  containers:
    - name: wget
      image: busybox:1.36
      command: [wget]
      args: ['gw:80']
`;
  const [finding] = run(pod, ISTIO_NS1).findings.filter((f) => f.code === 'JOB_HELM3_HOOK');
  t.regex(finding!.message, /^this Pod is a Helm hook \(helm\.sh\/hook: test\)/);
  t.regex(finding!.message, /on Helm 3 this Pod is deployed unchanged/);
  t.false(finding!.message.includes('Job'));
});

// ---------------------------------------------------------------------------------------------
// End to end: what the mutator wrote into a real corpus Job, run by /bin/sh
// ---------------------------------------------------------------------------------------------

/**
 * The argo-cd hook Job from the corpus, its program swapped for `sh -c 'exit "$1"' program` + args
 * [3].
 */
function argoCdJob(podAnnotation: string): string {
  const all = corpus('argo-cd.yaml').split(/^---\n/m);
  const doc = all.find(
    (d) => /^kind: Job$/m.test(d) && d.includes('name: argocd-redis-secret-init'),
  )!;
  const original =
    '      - command:\n          - argocd\n          - admin\n          - redis-initial-password\n';
  if (!doc.includes(original)) throw new Error('corpus argo-cd Job changed shape');
  const harmless =
    '      - command:\n' +
    '          - /bin/sh\n' +
    '          - -c\n' +
    `          - 'exit "$1"'\n` +
    '          - program\n' +
    '        args:\n' +
    '          - "3"\n';
  return doc
    .replace(original, harmless)
    .replace(
      '    metadata:\n      labels:\n',
      `    metadata:\n      annotations:\n        ${podAnnotation}\n      labels:\n`,
    );
}

/** Runs `command + args` the way the kubelet does: exec argv[0] with the rest. */
function exec(argv: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { PATH: process.env['PATH'] ?? '' },
    });
    // A hang guard, not a speed limit (test/helpers/hangGuard.ts): the Job exits at once.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`wrapped Job did not exit within ${HANG_GUARD_MS / 1000} s`));
    }, HANG_GUARD_MS);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

for (const mesh of ['istio', 'linkerd'] as const) {
  test(`end to end (${mesh}): the wrapped corpus Job runs, keeps exit code 3 and quits the proxy exactly once`, async (t) => {
    // The stand-in answers from its own process: the wrapper's quit call has the product's 5 s
    // limit, which a server in this test worker can miss on a busy machine (issue #15.7).
    const proxy = await startStandinProxy();
    t.teardown(proxy.close);
    const annotation =
      mesh === 'istio'
        ? `status.sidecar.istio.io/port: "${proxy.port}"`
        : `config.linkerd.io/admin-port: "${proxy.port}"`;
    const flags: Flags =
      mesh === 'istio'
        ? { 'istio-injected-namespaces': 'argocd', 'job-mode': 'wrap' }
        : { 'linkerd-injected-namespaces': 'argocd', 'job-mode': 'wrap' };
    const result = run(argoCdJob(annotation), flags);
    t.true(validateChangedDocuments(result) > 0);
    const [doc] = parseAllDocuments(result.output).map(
      (d) =>
        d.toJS() as {
          spec: {
            template: { spec: { containers: Array<{ command: string[]; args: string[] }> } };
          };
        },
    );
    const container = doc!.spec.template.spec.containers[0]!;
    t.true(isWrapped(container.command));
    t.deepEqual(unwrapCommand(container.command), ['/bin/sh', '-c', 'exit "$1"', 'program']);
    t.deepEqual(container.args, ['3']);
    const code = await exec([...container.command, ...container.args]);
    t.is(code, 3, "the program's own exit code");
    t.deepEqual(
      proxy.requests().map((r) => `${r.method} ${r.path}`),
      [mesh === 'istio' ? 'POST /quitquitquit' : 'POST /shutdown'],
    );
  });
}
