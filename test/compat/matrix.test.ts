/**
 * The compatibility matrix (issue #13, "Keeping it true"): see ./matrix.ts. One test per input so
 * each stays well inside ava's timeout; every case runs in this process.
 */
import test from 'ava';
import { MODES, runCase, summarize, versionsFor } from './matrix.ts';
import type { MatrixInput, Violation } from './matrix.ts';

const ISTIO_APP = { namespace: 'default', 'istio-injected-namespaces': 'default' };
const INPUTS: MatrixInput[] = [
  {
    name: 'gateway 1.24.6 NLB',
    file: 'corpus/istio-gateway-1.24.6-nlb.yaml',
    mesh: 'istio',
    role: 'gateway',
    flags: {},
  },
  {
    name: 'gateway 1.30.3 default',
    file: 'corpus/istio-gateway-1.30.3-default.yaml',
    mesh: 'istio',
    role: 'gateway',
    flags: {},
  },
  {
    name: 'egress gateway DaemonSet',
    file: 'corpus/istio-egressgateway-1.24.6-daemonset.yaml',
    mesh: 'istio',
    role: 'gateway',
    flags: {},
  },
  {
    name: 'httpbin, Istio',
    file: 'corpus/istio-sample-httpbin-httpbin.yaml',
    mesh: 'istio',
    role: 'app',
    flags: ISTIO_APP,
  },
  {
    name: 'bookinfo, Istio',
    file: 'corpus/istio-sample-kube-bookinfo.yaml',
    mesh: 'istio',
    role: 'app',
    flags: ISTIO_APP,
  },
  {
    name: 'httpbin, Linkerd',
    file: 'corpus/istio-sample-httpbin-httpbin.yaml',
    mesh: 'linkerd',
    role: 'app',
    flags: { namespace: 'default', 'linkerd-injected-namespaces': 'default' },
  },
  {
    name: 'ingress-nginx hook Jobs, Istio',
    file: 'corpus/ingress-nginx.yaml',
    mesh: 'istio',
    role: 'job',
    flags: { 'istio-injected-namespaces': 'ingress-nginx' },
  },
  {
    name: 'ingress-nginx hook Jobs, Linkerd',
    file: 'corpus/ingress-nginx.yaml',
    mesh: 'linkerd',
    role: 'job',
    flags: { 'linkerd-injected-namespaces': 'ingress-nginx' },
  },
  {
    name: 'argo-cd redis-secret-init Job, Istio',
    file: 'compat/argo-cd-redis-secret-init-job.yaml',
    mesh: 'istio',
    role: 'job',
    flags: { 'istio-injected-namespaces': 'argocd' },
  },
  {
    name: 'kube-inject Deployment, classic',
    file: 'render-injected/istio-1.28.10-hello-old-version.yaml.injected',
    mesh: 'istio',
    role: 'app',
    flags: { namespace: 'default' },
  },
  {
    name: 'kube-inject Deployment, native',
    file: 'render-injected/istio-1.28.10-hello.yaml.injected',
    mesh: 'istio',
    role: 'app',
    flags: { namespace: 'default' },
  },
  {
    name: 'kube-inject Job, classic',
    file: 'render-injected/istio-1.28.10-job-old-version.yaml.injected',
    mesh: 'istio',
    role: 'job',
    flags: { namespace: 'default' },
  },
  {
    name: 'linkerd inject --manual Deployment',
    file: 'render-injected/linkerd-2.18-inject_emojivoto_deployment.golden.yml',
    mesh: 'linkerd',
    role: 'app',
    flags: {},
  },
  {
    name: 'linkerd inject --manual Deployment, native',
    file: 'render-injected/linkerd-2.18-inject_emojivoto_deployment_native_sidecar.golden.yml',
    mesh: 'linkerd',
    role: 'app',
    flags: {},
  },
  {
    name: 'descheduler CronJob (kube-system), Istio',
    file: 'corpus/descheduler-cronjob.yaml',
    mesh: 'istio',
    role: 'job',
    flags: { 'istio-injected-namespaces': 'kube-system' },
    neverInjected: true,
  },
];

const all: Violation[] = [];

for (const input of INPUTS) {
  test.serial(`matrix: ${input.name}`, (t) => {
    const modes = MODES[input.role];
    let cases = 0;
    let checked = 0;
    const violations: Violation[] = [];
    for (const versions of versionsFor(input)) {
      for (const mode of modes.values) {
        const run = runCase(input, { ...modes.others, ...versions, [modes.flag]: mode });
        cases++;
        checked += run.checked;
        violations.push(...run.violations);
      }
    }
    all.push(...violations);
    if (input.neverInjected)
      t.is(
        checked,
        0,
        `${input.name}: Istio never injects into kube-system (IgnoredNamespaces, ` +
          `pkg/kube/inject/initializer.go@1.30.0): nothing may be written`,
      );
    else t.true(checked > 0, `${input.name}: ${cases} cases checked no workload at all`);
    t.deepEqual(
      summarize(violations),
      {},
      `${input.name}: ${violations.length} breaches in ${cases} cases`,
    );
  });
}

test.after.always('matrix summary by constraint', () => {
  if (all.length === 0) return;
  const summary = Object.entries(summarize(all, 2)).map(
    ([id, s]) => `${id}: ${s.cases} workload-cases\n    ${s.examples.join('\n    ')}`,
  );
  console.log(`compatibility matrix: ${all.length} breaches\n  ${summary.join('\n  ')}`);
});
