/**
 * The compatibility matrix (issue #13, "Keeping it true"): see ./matrix.ts. One test per input so
 * each stays well inside ava's timeout; every case runs in this process.
 */
import test from 'ava';
import { MODES, runCase, summarize, versionsFor } from './matrix.ts';
import type { MatrixInput, Violation } from './matrix.ts';

const ISTIO_APP = { namespace: 'default', 'istio-injected-namespaces': 'default' };
const INPUTS: MatrixInput[] = [
  { name: 'gateway 1.24.6 NLB', file: 'istio-gateway-1.24.6-nlb.yaml', mesh: 'istio', role: 'gateway', flags: {} },
  { name: 'gateway 1.30.3 default', file: 'istio-gateway-1.30.3-default.yaml', mesh: 'istio', role: 'gateway', flags: {} },
  { name: 'egress gateway DaemonSet', file: 'istio-egressgateway-1.24.6-daemonset.yaml', mesh: 'istio', role: 'gateway', flags: {} },
  { name: 'httpbin, Istio', file: 'istio-sample-httpbin-httpbin.yaml', mesh: 'istio', role: 'app', flags: ISTIO_APP },
  { name: 'bookinfo, Istio', file: 'istio-sample-kube-bookinfo.yaml', mesh: 'istio', role: 'app', flags: ISTIO_APP },
  { name: 'httpbin, Linkerd', file: 'istio-sample-httpbin-httpbin.yaml', mesh: 'linkerd', role: 'app', flags: { namespace: 'default', 'linkerd-injected-namespaces': 'default' } },
  { name: 'ingress-nginx hook Jobs, Istio', file: 'ingress-nginx.yaml', mesh: 'istio', role: 'job', flags: { 'istio-injected-namespaces': 'ingress-nginx' } },
  { name: 'ingress-nginx hook Jobs, Linkerd', file: 'ingress-nginx.yaml', mesh: 'linkerd', role: 'job', flags: { 'linkerd-injected-namespaces': 'ingress-nginx' } },
  { name: 'descheduler CronJob (kube-system), Istio', file: 'descheduler-cronjob.yaml', mesh: 'istio', role: 'job', flags: { 'istio-injected-namespaces': 'kube-system' } },
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
    t.true(checked > 0, `${input.name}: ${cases} cases checked no workload at all`);
    t.deepEqual(summarize(violations), {}, `${input.name}: ${violations.length} breaches in ${cases} cases`);
  });
}

test.after.always('matrix summary by constraint', () => {
  if (all.length === 0) return;
  const summary = Object.entries(summarize(all, 2)).map(([id, s]) => `${id}: ${s.cases} workload-cases\n    ${s.examples.join('\n    ')}`);
  console.log(`compatibility matrix: ${all.length} breaches\n  ${summary.join('\n  ')}`);
});
