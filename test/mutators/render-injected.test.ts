// Pods injected at render time (issue #13 item 13), on istio's and linkerd2's own golden
// injection outputs (test/fixtures/render-injected/README.md): recognised as meshed, patched
// where the injector wrote the settings, explained from there, and idempotent.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import { formatPath, getAt } from '../../fn/core/fieldPath.ts';
import { transform } from '../../fn/engine/transform.ts';
import type { TransformResult } from '../../fn/engine/transform.ts';
import { explain } from '../../fn/explain/explain.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import { validateChangedDocuments } from '../helpers/golden.ts';

const fixture = (name: string) => readFileSync(fixturePath('render-injected', name), 'utf8');

function run(name: string, flags: Record<string, string> = {}): TransformResult {
  const all = { namespace: 'default', ...flags };
  const result = transform(fixture(name), { flags: all });
  const again = transform(result.output, { flags: all });
  if (again.changes.length > 0)
    throw new Error(`not idempotent: ${again.changes.map((c) => formatPath(c.path)).join(', ')}`);
  return result;
}

const changed = (r: TransformResult) => r.changes.map((c) => formatPath(c.path));
const codes = (r: TransformResult) => r.findings.map((f) => f.code);
const template = (r: TransformResult) =>
  getAt(parseAllDocuments(r.output, { version: '1.1' })[0]!.toJS(), ['spec', 'template']) as {
    metadata: { annotations: Record<string, string> };
    spec: {
      containers: Array<{
        name: string;
        env?: Array<{ name: string; value?: string }>;
        lifecycle?: unknown;
      }>;
    };
  };
const env = (r: TransformResult, name: string) =>
  template(r)
    .spec.containers.find((c) => c.name === 'istio-proxy')
    ?.env?.find((e) => e.name === name)?.value;

test('istioctl kube-inject, classic: exit-on-zero as istio-proxy env, no annotation that only injection reads', (t) => {
  const r = run('istio-1.28.10-hello-old-version.yaml.injected');
  t.deepEqual(changed(r), [
    'spec.template.spec.containers[name=hello].lifecycle.preStop',
    'spec.template.spec.containers[name=istio-proxy]' +
      '.env[name=EXIT_ON_ZERO_ACTIVE_CONNECTIONS].value',
    'spec.template.spec.containers[name=istio-proxy].env[name=MINIMUM_DRAIN_DURATION].value',
  ]);
  t.is(env(r, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS'), 'true');
  // S + R = 5 + 20 (issue #26): the proxy must outlive the app's last requests, not only W.
  t.is(env(r, 'MINIMUM_DRAIN_DURATION'), '25s');
  t.is(template(r).metadata.annotations['proxy.istio.io/config'], undefined);
  t.is(template(r).metadata.annotations['sidecar.istio.io/nativeSidecar'], undefined);
  t.true(validateChangedDocuments(r) > 0, 'the changed document is a valid Deployment');
});

test('istioctl kube-inject, classic, termination drain behind a long window: durations go into PROXY_CONFIG', (t) => {
  const r = transform(fixture('istio-1.28.10-hello-old-version.yaml.injected'), {
    flags: { namespace: 'default', 'drain-window': '120' },
    config: {
      data: {
        apiVersion: 'kube-graceful.dev/v1alpha1',
        kind: 'GracefulShutdown',
        spec: { app: { classicDrain: 'termination-drain' } },
      },
      origin: 'test config',
    },
  });
  const proxyConfig = JSON.parse(env(r, 'PROXY_CONFIG') ?? 'null') as Record<string, string>;
  t.deepEqual(proxyConfig, { terminationDrainDuration: '140s', drainDuration: '125s' });
  t.is(env(r, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS'), undefined);
  const w = explain(r).workloads[0]!;
  const setting = (name: string) => w.settings.find((s) => s.name === name)?.patched.value;
  t.is(setting('drainDuration'), 125);
  t.is(setting('terminationDrainDuration'), 140);
});

test('istioctl kube-inject, native: recognised, nothing to set on the proxy', (t) => {
  const r = run('istio-1.28.10-hello.yaml.injected');
  t.deepEqual(changed(r), ['spec.template.spec.containers[name=hello].lifecycle.preStop']);
  t.true(codes(r).includes('RENDER_INJECTED'));
  t.is(
    explain(r).workloads[0]!.settings.find((s) => s.name === 'istio-proxy sidecar')?.patched.value,
    'native',
  );
});

test('istioctl kube-inject Job, classic: wrapped, never a native annotation injection would have read', (t) => {
  const r = run('istio-1.28.10-job-old-version.yaml.injected', { 'job-mode': 'native' });
  t.deepEqual(changed(r), ['spec.template.spec.containers[name=pi].command']);
  t.regex(
    JSON.stringify(template(r).spec.containers.find((c) => c.name === 'pi')),
    /15020\/quitquitquit/,
  );
  t.true(codes(r).includes('RENDER_INJECTED'));
});

test('linkerd inject --manual, classic: the wait is a preStop sleep on linkerd-proxy, as the injector writes it', (t) => {
  const r = run('linkerd-2.18-inject_emojivoto_deployment.golden.yml');
  t.deepEqual(changed(r), [
    'spec.template.spec.containers[name=web-svc].lifecycle.preStop',
    'spec.template.spec.containers[name=linkerd-proxy].lifecycle.preStop',
  ]);
  const proxy = template(r).spec.containers.find((c) => c.name === 'linkerd-proxy')!;
  t.deepEqual((proxy.lifecycle as { preStop: unknown }).preStop, {
    exec: { command: ['/bin/sleep', '25'] },
  });
  t.truthy(
    (proxy.lifecycle as { postStart?: unknown }).postStart,
    "the injector's postStart stays",
  );
  t.is(
    template(r).metadata.annotations['config.alpha.linkerd.io/proxy-wait-before-exit-seconds'],
    undefined,
  );
  t.is(
    explain(r).workloads[0]!.settings.find((s) => s.name === 'proxy-wait-before-exit-seconds')
      ?.patched.value,
    25,
  );
});

test('linkerd inject --manual, native: recognised, nothing to set on the proxy', (t) => {
  const r = run('linkerd-2.18-inject_emojivoto_deployment_native_sidecar.golden.yml');
  t.deepEqual(changed(r), ['spec.template.spec.containers[name=web-svc].lifecycle.preStop']);
  t.true(codes(r).includes('RENDER_INJECTED'));
});
