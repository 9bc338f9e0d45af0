/** Which mesh injects a workload's pods: pod opt-in/opt-out, Namespaces in the stream, config. */
import test from 'ava';
import { loadConfig } from '../../fn/config/load.ts';
import { buildInventory } from '../../fn/workloads/inventory.ts';
import type { KubeObject } from '../../fn/core/kubeObject.ts';
import { detectMesh } from '../../fn/workloads/mesh.ts';
import { Resource } from '../../fn/workloads/resource.ts';
import { Workload } from '../../fn/workloads/workload.ts';
import { ManifestDocument } from '../../fn/document/manifest.ts';

const job = (podMeta: string) =>
  new ManifestDocument(
    `apiVersion: batch/v1\n` +
      `kind: Job\n` +
      `metadata: {name: j, namespace: ns1}\n` +
      `spec:\n` +
      `  template:\n` +
      `    metadata: ${podMeta}\n` +
      `    spec:\n` +
      `      containers: [{name: c, image: x}]\n`,
    { document: 1, line: 1 },
  );

const mesh = (podMeta: string, namespaces: KubeObject[], flags: Record<string, string> = {}) => {
  const resource = new Resource(job(podMeta), []);
  const workload = new Workload(resource, ['spec', 'template'], resource.ref());
  const config = loadConfig(undefined, flags);
  return detectMesh(workload, buildInventory(namespaces), config.spec);
};

const ns = (
  labels: Record<string, string>,
  annotations: Record<string, string> = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'ns1', labels, annotations },
});

test('pod label opts in; pod opt-out wins over an injected namespace', (t) => {
  t.truthy(mesh('{labels: {sidecar.istio.io/inject: "true"}}', []).istio);
  t.falsy(
    mesh('{labels: {sidecar.istio.io/inject: "false"}}', [ns({ 'istio-injection': 'enabled' })])
      .istio,
  );
});

test('a Namespace in the stream injects; a disabled one wins over config', (t) => {
  t.regex(
    mesh('{}', [ns({ 'istio-injection': 'enabled' })]).istio?.evidence ?? '',
    /Namespace ns1 label istio-injection=enabled/,
  );
  t.regex(
    mesh('{}', [], { 'istio-injected-namespaces': 'ns1' }).istio?.evidence ?? '',
    /mesh.istioInjectedNamespaces/,
  );
  t.falsy(
    mesh('{}', [ns({ 'istio-injection': 'disabled' })], { 'istio-injected-namespaces': 'ns1' })
      .istio,
  );
  t.falsy(
    mesh('{}', [ns({}, { 'linkerd.io/inject': 'disabled' })], {
      'linkerd-injected-namespaces': 'ns1',
    }).linkerd,
  );
});

test('Linkerd: pod annotation, Namespace annotation, config', (t) => {
  t.truthy(mesh('{annotations: {linkerd.io/inject: enabled}}', []).linkerd);
  t.truthy(mesh('{}', [ns({}, { 'linkerd.io/inject': 'enabled' })]).linkerd);
  t.truthy(mesh('{}', [], { 'linkerd-injected-namespaces': 'ns1' }).linkerd);
  t.falsy(
    mesh('{annotations: {linkerd.io/inject: disabled}}', [], {
      'linkerd-injected-namespaces': 'ns1',
    }).linkerd,
  );
});

test('config: an unquoted YAML 1.1 `off` (a boolean) still means off', (t) => {
  const config = loadConfig({
    data: {
      apiVersion: 'kube-graceful.dev/v1alpha1',
      kind: 'GracefulShutdown',
      spec: { gateway: { mode: false }, app: { mode: true }, job: { mode: false } },
    },
    origin: 'test',
  });
  t.is(config.spec.gateway.mode, 'off');
  t.is(config.spec.app.mode, 'on');
  t.is(config.spec.job.mode, 'off');
});

// Istio ambient capture as istio-cni decides it: cni/pkg/util/podutil.go@1.24.6
// PodRedirectionEnabled.
test('Istio ambient: namespace or pod label; pod none, a sidecar and hostNetwork opt out', (t) => {
  const ambientNs = ns({ 'istio.io/dataplane-mode': 'ambient' });
  t.regex(
    mesh('{}', [ambientNs]).ambient?.evidence ?? '',
    /Namespace ns1 label istio.io\/dataplane-mode=ambient/,
  );
  t.regex(
    mesh('{labels: {istio.io/dataplane-mode: ambient}}', []).ambient?.evidence ?? '',
    /pod template label/,
  );
  t.falsy(mesh('{labels: {istio.io/dataplane-mode: none}}', [ambientNs]).ambient);
  const sidecar = mesh('{}', [
    ns({ 'istio.io/dataplane-mode': 'ambient', 'istio-injection': 'enabled' }),
  ]);
  t.truthy(sidecar.istio, 'a sidecar wins over ambient');
  t.falsy(sidecar.ambient);
  t.falsy(mesh('{}', [ns({})]).ambient, 'no label, no ambient');
  const hostNetwork = new Resource(
    new ManifestDocument(
      'apiVersion: batch/v1\n' +
        'kind: Job\n' +
        'metadata: {name: j, namespace: ns1}\n' +
        'spec:\n' +
        '  template:\n' +
        '    spec:\n' +
        '      hostNetwork: true\n' +
        '      containers: [{name: c, image: x}]\n',
      { document: 1, line: 1 },
    ),
    [],
  );
  t.falsy(
    detectMesh(
      new Workload(hostNetwork, ['spec', 'template'], hostNetwork.ref()),
      buildInventory([ambientNs]),
      loadConfig(undefined, {}).spec,
    ).ambient,
  );
});
