/**
 * kustomize (built into kubectl v1.32: kustomize v5.5.0) with kube-graceful as a KRM function:
 * the container form through a stand-in `docker` that runs the Dockerfile's ENTRYPOINT, and the exec
 * form, which `kubectl kustomize` silently skips (asserted, so the README stays true).
 */
import test from 'ava';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertGatewayPatched,
  assertJobNative,
  doc,
  ROOT,
  run,
  runCliAsync,
  runOk,
  splitDocs,
  tempDir,
  withErrorFinding,
  withPath,
} from '../helpers/integration.ts';
import { IMAGE, optionValue, standinDocker } from '../helpers/standinDocker.ts';
import { requireTool } from '../helpers/tools.ts';

const kubectl = requireTool('kubectl');
/** A stand-in docker of its own per test (tests run concurrently; each reads its own calls). */
function dockerEnv() {
  const docker = standinDocker(tempDir('docker'));
  return { docker, env: withPath(process.env, docker.dir) };
}
const examples = join(ROOT, 'examples');

test('kubectl kustomize --enable-alpha-plugins runs the container function with docker run --network none --user nobody', async (t) => {
  const { docker, env } = dockerEnv();
  const [before, after] = await Promise.all([
    runOk(t, kubectl, ['kustomize', join(examples, 'manifests')], { env }),
    runOk(t, kubectl, ['kustomize', '--enable-alpha-plugins', join(examples, 'kustomize-container')], { env }),
  ]);
  const runs = docker.calls().filter((call) => call[0] === 'run');
  t.is(runs.length, 1, JSON.stringify(docker.calls()));
  const call = runs[0]!;
  t.deepEqual(call.slice(0, 3), ['run', '--rm', '-i']);
  t.is(optionValue(call, '--network'), 'none', 'no network');
  t.is(optionValue(call, '--user'), 'nobody', 'not root');
  t.is(optionValue(call, '--security-opt'), 'no-new-privileges');
  t.false(call.some((arg) => arg === '-v' || arg === '--mount' || arg.startsWith('--mount=')), 'no mounts');
  t.is(call.at(-1), IMAGE, 'the image is the last argument: the entrypoint gets no arguments');

  const b = splitDocs(before);
  const a = splitDocs(after);
  t.deepEqual(a.map((d) => `${d.kind}/${d.name}`), b.map((d) => `${d.kind}/${d.name}`));
  assertGatewayPatched(t, doc(t, a, 'Deployment', 'demo-gateway').object, 'kustomize container function');
  assertJobNative(t, doc(t, a, 'Job', 'demo-migrate').object, 'kustomize container function');
  for (const [kind, name] of [['ConfigMap', 'demo-settings'], ['Service', 'demo-gateway']] as const) {
    t.is(doc(t, a, kind, name).text, doc(t, b, kind, name).text, `${kind} unchanged`);
  }
  t.false(after.includes('config.kubernetes.io/') || after.includes('config.k8s.io/id'), 'kustomize removed its bookkeeping annotations (we kept them for it)');

  // The functionConfig (graceful.yaml, a GracefulShutdown) reached us: same as --config directly.
  const direct = await runCliAsync(['--config', join(examples, 'kustomize-container', 'graceful.yaml')], before);
  t.is(direct.status, 0, direct.stderr);
  for (const [kind, name] of [['Deployment', 'demo-gateway'], ['Job', 'demo-migrate']] as const) {
    t.deepEqual(doc(t, a, kind, name).object, doc(t, splitDocs(direct.stdout), kind, name).object, `${kind} = kube-graceful --config graceful.yaml`);
  }
});

test('kubectl kustomize silently skips the exec form: exit 0 and nothing changed (use the container form or standalone kustomize)', async (t) => {
  const { env } = dockerEnv();
  const [before, skipped] = await Promise.all([
    runOk(t, kubectl, ['kustomize', join(examples, 'manifests')], { env }),
    run(kubectl, ['kustomize', '--enable-alpha-plugins', join(examples, 'kustomize-exec')], { env }),
  ]);
  t.is(skipped.status, 0, skipped.stderr);
  t.is(skipped.stdout, before, 'the transformer did not run, and kubectl said nothing');
});

test('an error finding in the container function fails kubectl kustomize with our message', async (t) => {
  const { env } = dockerEnv();
  const dir = tempDir('kustomize-error');
  cpSync(join(examples, 'manifests'), join(dir, 'manifests'), { recursive: true });
  cpSync(join(examples, 'kustomize-container'), join(dir, 'overlay'), { recursive: true });
  const manifest = join(dir, 'manifests', 'graceful-demo.yaml');
  writeFileSync(manifest, withErrorFinding(readFileSync(manifest, 'utf8')));
  const result = await run(kubectl, ['kustomize', '--enable-alpha-plugins', join(dir, 'overlay')], { env });
  t.not(result.status, 0);
  t.is(result.stdout, '');
  t.regex(result.stderr, /error: BAD_ANNOTATION Deployment demo-gateway/);
  t.regex(result.stderr, /couldn't execute function: exit status 1/);
});
