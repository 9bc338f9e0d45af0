/**
 * kustomize (built into kubectl v1.32: kustomize v5.5.0) with kube-graceful as a KRM function: the
 * container form for real, the image localhost/kube-graceful:dev built from this tree and run by
 * podman through a `docker` shim (kustomize runs `docker run --rm -i --network none --user nobody
 * …`), on a real chart render and on a Gateway whose parameters ConfigMap the function adds; and
 * the exec form, which `kubectl kustomize` silently skips (asserted, so the README stays true).
 */
import test from 'ava';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtImage, optionValue, podmanShim } from '../helpers/container.ts';
import { corpus, fixturePath } from '../helpers/fixtures.ts';
import {
  assertGatewayPatched,
  doc,
  ROOT,
  run,
  runCliAsync,
  runOk,
  splitDocs,
  tempDir,
  withPath,
} from '../helpers/integration.ts';
import { requireTool } from '../helpers/tools.ts';

const kubectl = requireTool('kubectl');
const examples = join(ROOT, 'examples');
/** The Istio gateway chart 1.30.3 behind an AWS NLB, as `helm template` renders it. */
const GATEWAY_CHART = 'istio-gateway-1.30.3-nlb.yaml';
const GATEWAY = 'istio-public-ingressgateway';
/** Istio's bookinfo Gateway (Gateway API, class istio) at 1.30.3: istiod deploys it. */
const GATEWAY_API = fixturePath(
  'gateways',
  'istio-gateway-api',
  'samples',
  'bookinfo-gateway-1.30.3.yaml',
);

/**
 * A `docker` → podman shim of its own per test (tests run concurrently; each reads its own calls).
 */
function dockerEnv() {
  const docker = podmanShim(tempDir('docker'), 'docker');
  return { docker, env: withPath(process.env, docker.dir) };
}

/**
 * A kustomization over the rendered gateway chart: `plain/` without a transformer, `graceful/`
 * with kube-graceful's container transformer configured by `spec` (a GracefulShutdown).
 */
function kustomizations(
  image: string,
  spec: string,
  resources = corpus(GATEWAY_CHART),
): { plain: string; graceful: string; config: string } {
  const dir = tempDir('kustomize');
  mkdirSync(join(dir, 'plain'));
  writeFileSync(join(dir, 'plain', 'gateway.yaml'), resources);
  writeFileSync(join(dir, 'plain', 'kustomization.yaml'), 'resources: [gateway.yaml]\n');
  mkdirSync(join(dir, 'graceful'));
  writeFileSync(
    join(dir, 'graceful', 'kustomization.yaml'),
    'resources: [../plain]\ntransformers: [graceful.yaml]\n',
  );
  const config = join(dir, 'graceful', 'graceful.yaml');
  writeFileSync(
    config,
    [
      'apiVersion: kube-graceful.dev/v1alpha1',
      'kind: GracefulShutdown',
      'metadata:',
      '  name: graceful-shutdown',
      '  annotations:',
      '    config.kubernetes.io/function: |',
      '      container:',
      `        image: ${image}`,
      'spec:',
      ...spec.split('\n').map((line) => `  ${line}`),
      '',
    ].join('\n'),
  );
  return { plain: join(dir, 'plain'), graceful: join(dir, 'graceful'), config };
}

test('kubectl kustomize --enable-alpha-plugins runs the image with docker run --network none --user nobody and patches the gateway chart', async (t) => {
  const image = await builtImage();
  const { docker, env } = dockerEnv();
  const k = kustomizations(
    image,
    'kubernetesVersion: "1.31"\nloadBalancer: {provider: aws-nlb-ip}',
  );
  const [before, after] = await Promise.all([
    runOk(t, kubectl, ['kustomize', k.plain], { env }),
    runOk(t, kubectl, ['kustomize', '--enable-alpha-plugins', k.graceful], { env }),
  ]);
  const runs = docker.calls().filter((call) => call[0] === 'run');
  t.is(runs.length, 1, JSON.stringify(docker.calls()));
  const call = runs[0]!;
  t.deepEqual(call.slice(0, 3), ['run', '--rm', '-i']);
  t.is(optionValue(call, '--network'), 'none', 'no network');
  t.is(optionValue(call, '--user'), 'nobody', 'not root');
  t.is(optionValue(call, '--security-opt'), 'no-new-privileges');
  t.false(
    call.some((arg) => arg === '-v' || arg === '--mount' || arg.startsWith('--mount=')),
    'no mounts',
  );
  t.is(call.at(-1), image, 'the image is the last argument: the entrypoint gets no arguments');

  const b = splitDocs(before);
  const a = splitDocs(after);
  t.deepEqual(
    a.map((d) => `${d.kind}/${d.name}`),
    b.map((d) => `${d.kind}/${d.name}`),
  );
  assertGatewayPatched(t, doc(t, a, 'Deployment', GATEWAY).object, 'kustomize container function');
  for (const d of b.filter((d) => d.kind !== 'Deployment'))
    t.is(doc(t, a, d.kind, d.name).text, d.text, `${d.kind} ${d.name} unchanged`);
  t.false(
    after.includes('config.kubernetes.io/') || after.includes('config.k8s.io/id'),
    'kustomize removed its bookkeeping annotations (we kept them for it)',
  );

  // The functionConfig reached the container: the same Deployment as kube-graceful --config on the
  // host.
  const direct = await runCliAsync(['--config', k.config], before);
  t.is(direct.status, 0, direct.stderr);
  t.deepEqual(
    doc(t, a, 'Deployment', GATEWAY).object,
    doc(t, splitDocs(direct.stdout), 'Deployment', GATEWAY).object,
    'container = kube-graceful --config graceful.yaml',
  );
});

test('kubectl kustomize keeps the object the function adds: the parameters ConfigMap of a Gateway istiod deploys', async (t) => {
  const image = await builtImage();
  const { env } = dockerEnv();
  const k = kustomizations(image, 'kubernetesVersion: "1.31"', readFileSync(GATEWAY_API, 'utf8'));
  const after = splitDocs(
    await runOk(t, kubectl, ['kustomize', '--enable-alpha-plugins', k.graceful], { env }),
  );
  const configMap = doc(t, after, 'ConfigMap', 'bookinfo-gateway-kube-graceful').object;
  t.regex(
    String((configMap.data as { deployment?: unknown }).deployment),
    /MINIMUM_DRAIN_DURATION/,
  );
  const gateway = doc(t, after, 'Gateway', 'bookinfo-gateway').object;
  t.deepEqual(
    (gateway.spec as { infrastructure?: { parametersRef?: unknown } }).infrastructure
      ?.parametersRef,
    { group: '', kind: 'ConfigMap', name: 'bookinfo-gateway-kube-graceful' },
  );
});

test('a bad config: kubectl kustomize fails with our message from the container and prints nothing', async (t) => {
  const image = await builtImage();
  const { docker, env } = dockerEnv();
  const k = kustomizations(image, 'loadBalancer: {provider: nope}');
  const result = await run(kubectl, ['kustomize', '--enable-alpha-plugins', k.graceful], { env });
  t.is(docker.calls().filter((call) => call[0] === 'run').length, 1, 'the container ran');
  t.not(result.status, 0);
  t.is(result.stdout, '');
  t.regex(
    result.stderr,
    /E_CONFIG: functionConfig: invalid config:\n\s+spec\.loadBalancer\.provider: got "nope"/,
  );
  t.regex(result.stderr, /couldn't execute function: exit status 2/);
});

test('kubectl kustomize silently skips the exec form: exit 0 and nothing changed (use the container form or standalone kustomize)', async (t) => {
  const { docker, env } = dockerEnv();
  const [before, skipped] = await Promise.all([
    runOk(t, kubectl, ['kustomize', join(examples, 'manifests')], { env }),
    run(kubectl, ['kustomize', '--enable-alpha-plugins', join(examples, 'kustomize-exec')], {
      env,
    }),
  ]);
  t.is(skipped.status, 0, skipped.stderr);
  t.is(skipped.stdout, before, 'the transformer did not run, and kubectl said nothing');
  t.deepEqual(docker.calls(), [], 'and no container either');
});
