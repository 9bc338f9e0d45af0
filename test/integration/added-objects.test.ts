/**
 * An object kube-graceful adds to the input (the parameters ConfigMap of a Gateway istiod deploys,
 * issue #19 item 1), through every tool that runs it: the real Helm 3 and Helm 4 (the ConfigMap
 * filed with the Gateway's template), kpt (a file of its own, and a second run changes nothing),
 * `check` on the output, and `patches`, which cannot add an object and so writes nothing.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { KubeObject } from '../../fn/core/kubeObject.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import {
  cliPath,
  doc,
  ROOT,
  run,
  runCliAsync,
  runOk,
  splitDocs,
  tempDir,
} from '../helpers/integration.ts';
import { helm3Path, helm4Path, helmEnv, requireTool } from '../helpers/tools.ts';

const CHART = fixturePath('charts', 'istio-gateway-api-demo');
const CONFIGMAP = 'bookinfo-gateway-kube-graceful';
const GATEWAY_SAMPLE = fixturePath(
  'gateways',
  'istio-gateway-api',
  'samples',
  'bookinfo-gateway-1.30.3.yaml',
);

/** Asserts the Gateway points at the added ConfigMap and that this holds the NLB plan. */
function assertPlanned(t: ExecutionContext, gateway: KubeObject, cm: KubeObject) {
  t.deepEqual(
    (gateway.spec as { infrastructure?: { parametersRef?: unknown } }).infrastructure
      ?.parametersRef,
    { group: '', kind: 'ConfigMap', name: CONFIGMAP },
  );
  const overlay = parse(String((cm as { data?: { deployment?: string } }).data?.deployment)) as {
    spec: { template: { spec: { terminationGracePeriodSeconds: number; containers: unknown[] } } };
  };
  // W = 180 (AWS NLB, IP targets), R = 20, B = 5: G = 205, M = 180 s.
  t.is(overlay.spec.template.spec.terminationGracePeriodSeconds, 205);
  t.deepEqual(overlay.spec.template.spec.containers, [
    {
      name: 'istio-proxy',
      env: [
        { name: 'MINIMUM_DRAIN_DURATION', value: '180s' },
        { name: 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS', value: 'true' },
      ],
    },
  ]);
}

/** Returns the `# Source:` file each document of a Helm render stands under. */
function sources(stream: string): Map<string, string> {
  const bySource = new Map<string, string>();
  for (const part of stream.split(/^---[ \t]*$/m)) {
    const source = /^# Source: (.*)$/m.exec(part)?.[1];
    const object = parse(part, { version: '1.1' }) as KubeObject | null;
    if (source && object) bySource.set(`${object.kind}/${object.metadata?.name}`, source);
  }
  return bySource;
}

test('helm 3 template --post-renderer: the Gateway and the ConfigMap added after it', async (t) => {
  const env = helmEnv(tempDir('added-helm3'));
  const out = await runOk(
    t,
    helm3Path(),
    ['template', 'gw', CHART, '-n', 'bookinfo', '--post-renderer', cliPath()],
    { env },
  );
  const docs = splitDocs(out);
  const cm = doc(t, docs, 'ConfigMap', CONFIGMAP).object;
  t.is(
    (cm.metadata as { namespace?: string }).namespace,
    'bookinfo',
    "in the Gateway's namespace, where istiod reads it",
  );
  assertPlanned(t, doc(t, docs, 'Gateway', 'bookinfo-gateway').object, cm);
});

test("helm 4 template --post-renderer kube-graceful: the ConfigMap is filed with the Gateway's template (the filename annotation copied, then stripped by Helm)", async (t) => {
  const home = tempDir('added-helm4');
  const env = helmEnv(home);
  const helm = helm4Path();
  const install = await run(helm, ['plugin', 'install', join(ROOT, 'renderer')], { env });
  t.is(install.status, 0, install.stderr);
  const out = await runOk(
    t,
    helm,
    ['template', 'gw', CHART, '-n', 'bookinfo', '--post-renderer', 'kube-graceful'],
    { env },
  );
  const docs = splitDocs(out);
  const cm = doc(t, docs, 'ConfigMap', CONFIGMAP).object;
  assertPlanned(t, doc(t, docs, 'Gateway', 'bookinfo-gateway').object, cm);
  t.is(sources(out).get(`ConfigMap/${CONFIGMAP}`), 'istio-gateway-api-demo/templates/gateway.yaml');
  t.false(out.includes('postrenderer.helm.sh/postrender-filename'));
});

test('kpt: fn source | kube-graceful | fn sink writes the ConfigMap to a file of its own; a second run changes nothing', async (t) => {
  const kpt = requireTool('kpt');
  const dir = tempDir('added-kpt');
  const pkg = join(dir, 'pkg');
  mkdirSync(pkg);
  writeFileSync(join(pkg, 'gateway.yaml'), readFileSync(GATEWAY_SAMPLE, 'utf8'));
  const list = await runOk(t, kpt, ['fn', 'source', pkg]);
  const patched = await runCliAsync([], list);
  t.is(patched.status, 0, patched.stderr);
  const out = join(dir, 'out');
  const sink = await run(kpt, ['fn', 'sink', out], { input: patched.stdout });
  t.is(sink.status, 0, sink.stderr);
  const file = join(out, `configmap_${CONFIGMAP}.yaml`);
  t.true(existsSync(file), 'kpt names a file for the item that has no path');
  const cm = parse(readFileSync(file, 'utf8')) as KubeObject;
  t.is(cm.kind, 'ConfigMap');
  const again = await runCliAsync([], await runOk(t, kpt, ['fn', 'source', out]));
  t.is(again.status, 0, again.stderr);
  const second = parse(again.stdout) as {
    items: unknown[];
    results?: Array<{ tags?: { code?: string } }>;
  };
  t.is(second.items.length, 3, 'the Gateway, its HTTPRoute and the ConfigMap: nothing added again');
  // A change's result carries no finding code: none is left.
  t.deepEqual(
    (second.results ?? []).filter((r) => r.tags?.code === undefined),
    [],
  );
});

test('kpt: a package of `helm template` output, each item opened by its `# Source:` comment, gets the ConfigMap as an item of its own', async (t) => {
  // kpt writes such a file's item as `- # Source: …` with the object on the lines after: the added
  // item takes the indicator from the comment's line (it was refused as not a block entry).
  const kpt = requireTool('kpt');
  const dir = tempDir('added-kpt-helm');
  const pkg = join(dir, 'pkg');
  mkdirSync(pkg);
  const rendered = await runOk(t, helm3Path(), ['template', 'demo', CHART], {
    env: helmEnv(dir),
  });
  t.regex(rendered, /^# Source: /m);
  writeFileSync(join(pkg, 'rendered.yaml'), rendered);
  const list = await runOk(t, kpt, ['fn', 'source', pkg]);
  t.regex(list, /^- # Source: /m);
  const patched = await runCliAsync([], list);
  t.is(patched.status, 0, patched.stderr);
  const out = join(dir, 'out');
  const sink = await run(kpt, ['fn', 'sink', out], { input: patched.stdout });
  t.is(sink.status, 0, sink.stderr);
  // kpt files an object without a path by namespace and kind: default/configmap_<name>.yaml.
  const file = join(out, 'default', `configmap_${CONFIGMAP}.yaml`);
  const cm = parse(readFileSync(file, 'utf8')) as KubeObject;
  t.is(cm.kind, 'ConfigMap');
  const again = await runCliAsync([], await runOk(t, kpt, ['fn', 'source', out]));
  t.is(again.status, 0, again.stderr);
  t.false(again.stdout.includes('creates ConfigMap'), 'nothing is added again');
});

test('check on the patched stream: nothing left to change', async (t) => {
  const patched = await runCliAsync([], readFileSync(GATEWAY_SAMPLE, 'utf8'));
  t.is(patched.status, 0, patched.stderr);
  const check = await runCliAsync(['check'], patched.stdout);
  t.is(check.status, 0, check.stdout + check.stderr);
  const before = await runCliAsync(['check'], readFileSync(GATEWAY_SAMPLE, 'utf8'));
  t.is(before.status, 1);
  t.regex(before.stdout + before.stderr, new RegExp(`add ConfigMap ${CONFIGMAP}`));
});

test('patches: a kustomize patch cannot add an object, so nothing is written and the message says how to get there', async (t) => {
  const result = await runCliAsync(['patches'], readFileSync(GATEWAY_SAMPLE, 'utf8'));
  t.is(result.status, 1);
  t.is(result.stdout, '');
  t.regex(
    result.stderr,
    new RegExp(`ConfigMap ${CONFIGMAP} would be added \\(for Gateway bookinfo-gateway\\)`),
  );
  t.regex(result.stderr, /no patches written/);
});

test('a parameters ConfigMap annotated kube-graceful.dev/skip is not edited, and the Gateway gets nothing', async (t) => {
  const input = readFileSync(
    fixturePath('gateways', 'istio-gateway-api', 'variants', 'gateway-params-gw-options.yaml'),
    'utf8',
  ).replace(
    'metadata:\n  name: gw-options\n',
    'metadata:\n  name: gw-options\n  annotations:\n    kube-graceful.dev/skip: "true"\n',
  );
  t.true(input.includes('kube-graceful.dev/skip'));
  const report = join(tempDir('added-skip'), 'report.txt');
  const result = await runCliAsync(['--report', report, '--istio-version', '1.30'], input);
  t.is(result.status, 0, result.stderr);
  t.is(result.stdout, input);
  t.regex(readFileSync(report, 'utf8'), /warning EDIT_TARGET_SKIPPED: nothing written/);
});

test('a ResourceList whose items are a flow sequence cannot take the added item: an error, nothing written', async (t) => {
  const gateway = parse(readFileSync(GATEWAY_SAMPLE, 'utf8').split('\n---\n')[0]!) as KubeObject;
  const input = JSON.stringify({
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: [gateway],
  });
  const result = await runCliAsync([], input);
  t.not(result.status, 0);
  t.not(result.status, 70);
  t.is(result.stdout, '');
  t.regex(result.stderr, /ResourceList item 1 is not written as a block sequence entry/);
});
