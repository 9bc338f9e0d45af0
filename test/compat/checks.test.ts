/**
 * Every check of the compatibility table can fail, and passes on what the input already said:
 * a breach written onto a real pod template (httpbin's, and a kube-inject output) is caught, the
 * same template unchanged is not. Without this the matrix test could pass by checking nothing.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../fn/config/load.ts';
import type { CheckedPod } from '../../fn/compat/pod.ts';
import { COMPATIBILITY as CONSTRAINTS } from '../../fn/mutators/compatibility.ts';
import type { Container, PodSpec, PodTemplate } from '../../fn/core/kubeObject.ts';
import { corpusObject, fixturePath } from '../helpers/fixtures.ts';

const httpbin = (
  corpusObject('istio-sample-httpbin-httpbin.yaml', 'Deployment') as {
    spec: { template: PodTemplate };
  }
).spec.template;
const traefikChart = parseAllDocuments(
  readFileSync(fixturePath('gateways', 'traefik', 'chart-41.3.0-nlb.yaml'), 'utf8'),
)
  .map((d) => d.toJS() as { kind?: string; spec?: { template: PodTemplate } } | null)
  .find((o) => o?.kind === 'Deployment')!.spec!.template;
/** The chart's pod, reading a configuration file as a user's extra arg would make it. */
const traefikWithFile = structuredClone(traefikChart) as PodTemplate & {
  spec: { containers: Container[] };
};
traefikWithFile.spec.containers[0]!.args = [
  ...(traefikWithFile.spec.containers[0]!.args ?? []),
  '--configFile=/config/traefik.yaml',
];
const kubeInjected = (
  parseAllDocuments(
    readFileSync(
      fixturePath('render-injected', 'istio-1.28.10-hello-old-version.yaml.injected'),
      'utf8',
    ),
  )[0]!.toJS() as { spec: { template: PodTemplate } }
).spec.template;

/** A pod template with the parts a breach edits known to be there. */
type Editable = PodTemplate & {
  metadata: { annotations: Record<string, string>; labels: Record<string, string> };
  spec: PodSpec & { containers: Container[] };
};
type Edit = (t: Editable) => void;

function pod(o: {
  role?: CheckedPod['role'];
  flags?: Record<string, string>;
  namespace?: string;
  namespaceLabels?: Record<string, string>;
  base?: PodTemplate;
  edit: Edit;
}): CheckedPod {
  const before = structuredClone(o.base ?? httpbin);
  const after = structuredClone(before) as Editable;
  after.metadata = {
    ...after.metadata,
    annotations: { ...after.metadata?.annotations },
    labels: { ...after.metadata?.labels },
  };
  o.edit(after);
  return {
    role: o.role ?? 'app',
    namespace: o.namespace ?? 'default',
    namespaceLabels: o.namespaceLabels ?? {},
    before,
    after,
    spec: loadConfig(undefined, o.flags ?? {}).spec,
  };
}

const app = (t: Editable) => t.spec.containers[0]!;
const proxyConfig =
  (text: string): Edit =>
  (t) => {
    t.metadata.annotations['proxy.istio.io/config'] = text;
  };

/** A breach of each constraint that has a check. */
const BREACHES: Record<string, CheckedPod> = {
  'k8s-native-sidecars': pod({
    flags: { 'kube-version': '1.28' },
    edit: (t) => {
      t.metadata.annotations['sidecar.istio.io/nativeSidecar'] = 'true';
    },
  }),
  'k8s-prestop-sleep-action': pod({
    flags: { 'kube-version': '1.29' },
    edit: (t) => {
      app(t).lifecycle = { preStop: { sleep: { seconds: 5 } } };
    },
  }),
  'k8s-prestop-sleep-zero': pod({
    flags: { 'kube-version': '1.32' },
    edit: (t) => {
      app(t).lifecycle = { preStop: { sleep: { seconds: 0 } } };
    },
  }),
  'k8s-prestop-sleep-within-grace': pod({
    edit: (t) => {
      app(t).lifecycle = { preStop: { sleep: { seconds: 31 } } };
    },
  }),
  'istio-drain-below-parent-shutdown': pod({
    flags: { 'istio-version': '1.16' },
    edit: proxyConfig('drainDuration: 185s\n'),
  }),
  'istio-parent-shutdown-ignored': pod({
    flags: { 'istio-version': '1.17' },
    edit: proxyConfig('parentShutdownDuration: 200s\n'),
  }),
  'istio-exit-on-zero': pod({
    flags: { 'istio-version': '1.11' },
    edit: proxyConfig('proxyMetadata:\n  EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "true"\n'),
  }),
  'istio-minimum-drain-go-duration': pod({
    edit: proxyConfig('proxyMetadata:\n  MINIMUM_DRAIN_DURATION: "30"\n'),
  }),
  'istio-termination-drain-seconds-removed': pod({
    edit: proxyConfig('proxyMetadata:\n  TERMINATION_DRAIN_DURATION_SECONDS: "30"\n'),
  }),
  'istio-proxy-metadata-at-injection': pod({
    base: kubeInjected,
    edit: proxyConfig('proxyMetadata:\n  MINIMUM_DRAIN_DURATION: 30s\n'),
  }),
  'istio-native-annotation': pod({
    flags: { 'istio-version': '1.23' },
    edit: (t) => {
      t.metadata.annotations['sidecar.istio.io/nativeSidecar'] = 'true';
    },
  }),
  'istio-auto-native': pod({
    flags: { 'istio-version': '1.26', 'kube-version': '1.33' },
    edit: (t) => {
      t.metadata.annotations['sidecar.istio.io/nativeSidecar'] = 'true';
    },
  }),
  'istio-no-quit-native': pod({
    role: 'job',
    edit: (t) => {
      t.metadata.annotations['sidecar.istio.io/nativeSidecar'] = 'true';
      app(t).command = ['/bin/sh', '-c', 'run; curl -XPOST http://localhost:15020/quitquitquit'];
    },
  }),
  'istio-ignored-namespaces': pod({
    namespace: 'kube-system',
    edit: proxyConfig('terminationDrainDuration: 30s\n'),
  }),
  'istio-no-lifecycle-on-sidecar': pod({
    base: kubeInjected,
    edit: (t) => {
      t.spec.containers.find((c) => c.name === 'istio-proxy')!.lifecycle = {
        preStop: { sleep: { seconds: 5 } },
      };
    },
  }),
  'istio-ambient-no-sidecar': pod({
    namespaceLabels: { 'istio.io/dataplane-mode': 'ambient' },
    edit: proxyConfig('terminationDrainDuration: 30s\n'),
  }),
  'linkerd-native-annotation-name': pod({
    flags: { 'linkerd-version': '2.18' },
    edit: (t) => {
      t.metadata.annotations['config.linkerd.io/proxy-enable-native-sidecar'] = 'true';
    },
  }),
  'linkerd-auto-native': pod({
    flags: { 'linkerd-version': '2.19' },
    edit: (t) => {
      t.metadata.annotations['config.beta.linkerd.io/proxy-enable-native-sidecar'] = 'true';
    },
  }),
  'linkerd-native-and-wait': pod({
    edit: (t) => {
      t.metadata.annotations['config.alpha.linkerd.io/proxy-enable-native-sidecar'] = 'true';
      t.metadata.annotations['config.alpha.linkerd.io/proxy-wait-before-exit-seconds'] = '25';
    },
  }),
  'linkerd-wait-below-grace': pod({
    edit: (t) => {
      t.metadata.annotations['config.alpha.linkerd.io/proxy-wait-before-exit-seconds'] = '30';
    },
  }),
  'traefik-shutdown-order': pod({
    role: 'gateway',
    base: traefikChart,
    edit: (t) => {
      app(t).args!.push('--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=180s');
    },
  }),
  'traefik-one-static-source': pod({
    role: 'gateway',
    base: traefikWithFile,
    edit: (t) => {
      app(t).args!.push('--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=180s');
    },
  }),
  'traefik-duration-bare-seconds': pod({
    role: 'gateway',
    base: traefikChart,
    edit: (t) => {
      app(t).args!.push('--entryPoints.web.transport.lifeCycle.graceTimeOut=20 s');
    },
  }),
  'linkerd-admin-shutdown': pod({
    role: 'job',
    flags: { 'linkerd-version': '2.16' },
    edit: (t) => {
      app(t).command = ['/bin/sh', '-c', 'run; curl -XPOST http://localhost:4191/shutdown'];
    },
  }),
};

for (const constraint of CONSTRAINTS.filter((c) => c.check)) {
  test(`${constraint.id}: a breach written onto a real template is caught; the template as it came is not`, (t) => {
    const breach = BREACHES[constraint.id];
    if (!breach) return t.fail(`no breach case for ${constraint.id}: add one`);
    t.truthy(constraint.check!(breach), 'the breach is reported');
    t.is(
      constraint.check!({ ...breach, after: breach.before }),
      undefined,
      'an unchanged template is never blamed',
    );
  });
}

test('a breach of one constraint is not reported by the checks of the others (each check reads its own setting)', (t) => {
  for (const [id, breach] of Object.entries(BREACHES)) {
    const others = CONSTRAINTS.filter((c) => c.check && c.id !== id && c.check(breach)).map(
      (c) => c.id,
    );
    // A native annotation on old Kubernetes or Istio is also "auto would not pick native": allowed
    // overlaps only.
    const allowed = new Set([
      'istio-auto-native',
      'linkerd-auto-native',
      'k8s-native-sidecars',
      'istio-native-annotation',
      'linkerd-native-annotation-name',
      'istio-ignored-namespaces',
    ]);
    t.deepEqual(
      others.filter((o) => !allowed.has(o)),
      [],
      id,
    );
  }
});
