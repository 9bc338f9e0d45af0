/**
 * Issue #31 item 4: a mutating admission policy in the stream that rewrites the grace period or
 * the hooks undoes the plan after rendering, in silence. Such a policy is an error naming it (no
 * output written), unless no pod of the stream sets what it rewrites, or the policy accepts the
 * finding with `kube-graceful.dev/ignore`. Inputs: the Kyverno library's
 * `mutate-large-termination-gps` (ClusterPolicy and MutatingPolicy, as published), a Gatekeeper
 * Assign and a MutatingAdmissionPolicy in the shape of their documentation, in front of Istio's
 * gateway chart 1.24.6 behind an NLB (which kube-graceful gives 200 s of grace).
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { corpus, fixturePath } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';
import { requireTool } from '../helpers/tools.ts';
import { policyReach } from '../../fn/workloads/admissionPolicies.ts';
import type { KubeObject } from '../../fn/core/kubeObject.ts';

const policy = (name: string) => readFileSync(fixturePath('admission', name), 'utf8');
const GATEWAY = corpus('istio-gateway-1.24.6-nlb.yaml');
const DEPLOYMENT = 'Deployment istio-system/istio-public-ingressgateway';

/** The policy, then the gateway chart's render, as one stream. */
const stream = (policyText: string) => `${policyText}---\n${GATEWAY}`;

test('the Kyverno library ClusterPolicy in front of a gateway kube-graceful gives 200 s: an error naming both, nothing written', async (t) => {
  const run = await runCliAsync([], stream(policy('kyverno-clusterpolicy.yaml')));
  t.is(run.status, 1, run.stderr);
  t.is(run.stdout, '');
  t.regex(
    run.stderr,
    /error: ADMISSION_UNDOES_PLAN ClusterPolicy mutate-termination-grace-period-seconds: /,
  );
  t.true(run.stderr.includes('writes terminationGracePeriodSeconds: 50'), run.stderr);
  t.true(run.stderr.includes(DEPLOYMENT), run.stderr);
  t.true(run.stderr.includes('kube-graceful.dev/ignore: ADMISSION_UNDOES_PLAN'), run.stderr);
});

test("the Kyverno library's MutatingPolicy twin is read from its CEL: the same error", async (t) => {
  const run = await runCliAsync([], stream(policy('kyverno-mutatingpolicy.yaml')));
  t.is(run.status, 1, run.stderr);
  t.is(run.stdout, '');
  t.regex(
    run.stderr,
    /ADMISSION_UNDOES_PLAN MutatingPolicy mutate-termination-grace-period-seconds/,
  );
  t.true(run.stderr.includes('writes terminationGracePeriodSeconds: 50'), run.stderr);
});

test('a Gatekeeper Assign of preStop in front of bookinfo (given preStop hooks) and a MutatingAdmissionPolicy of the grace period: errors too', async (t) => {
  const bookinfo = corpus('istio-sample-kube-bookinfo.yaml');
  const assign = await runCliAsync(
    [],
    `${policy('gatekeeper-assign-prestop.yaml')}---\n${bookinfo}`,
  );
  t.is(assign.status, 1, assign.stderr);
  t.regex(assign.stderr, /ADMISSION_UNDOES_PLAN Assign prestop-short-sleep: .*lifecycle hooks/);
  t.regex(assign.stderr, /Deployment details-v1, .* and \d+ more/);
  // The gateway's drain needs no hook at this version: the Assign undoes nothing there.
  const gateway = await runCliAsync([], stream(policy('gatekeeper-assign-prestop.yaml')));
  t.is(gateway.status, 0, gateway.stderr);
  const map = await runCliAsync([], stream(policy('mutating-admission-policy-grace.yaml')));
  t.is(map.status, 1, map.stderr);
  t.regex(
    map.stderr,
    /ADMISSION_UNDOES_PLAN MutatingAdmissionPolicy grace-period-cap: .*grace period/,
  );
  t.false(map.stderr.includes('it writes'), 'the JSON patch value is not read as a number');
});

test('the policy accepting the finding on itself: the gateway is patched as without it', async (t) => {
  const accepted = policy('kyverno-clusterpolicy.yaml').replace(
    '  annotations:\n',
    '  annotations:\n    kube-graceful.dev/ignore: ADMISSION_UNDOES_PLAN\n',
  );
  t.not(accepted, policy('kyverno-clusterpolicy.yaml'));
  const run = await runCliAsync([], stream(accepted));
  t.is(run.status, 0, run.stderr);
  const alone = await runCliAsync([], GATEWAY);
  t.is(alone.status, 0, alone.stderr);
  t.true(run.stdout.endsWith(alone.stdout), 'the gateway as patched without the policy');
  t.true(run.stdout.startsWith(accepted), 'the policy byte for byte');
});

test('a policy with no pod in the stream that it rewrites (a policies chart alone, or pods within its cap) passes through', async (t) => {
  const alone = policy('kyverno-clusterpolicy.yaml');
  const run = await runCliAsync([], alone);
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, alone);
  // Kubernetes' own default grace (30 s, not written) is below the cap: nothing is undone.
  const bookinfo = `${alone}---\n${corpus('istio-sample-kube-bookinfo.yaml')}`;
  const plain = await runCliAsync(['--app-mode', 'off'], bookinfo);
  t.is(plain.status, 0, plain.stderr);
});

test('check on the patched output still fails on the policy: the plan would be undone in the cluster', async (t) => {
  const patched = await runCliAsync([], GATEWAY);
  t.is(patched.status, 0, patched.stderr);
  const check = await runCliAsync(
    ['check'],
    `${policy('kyverno-clusterpolicy.yaml')}---\n${patched.stdout}`,
  );
  t.is(check.status, 1, check.stdout + check.stderr);
  t.true((check.stdout + check.stderr).includes('ADMISSION_UNDOES_PLAN'));
});

test('kpt: a package holding the policy and the gateway gives the error as a result, with the policy file', async (t) => {
  const kpt = requireTool('kpt');
  const dir = mkdtempSync(join(tmpdir(), 'kg-admission-'));
  const pkg = join(dir, 'pkg');
  mkdirSync(pkg);
  writeFileSync(join(pkg, 'policy.yaml'), policy('kyverno-clusterpolicy.yaml'));
  writeFileSync(join(pkg, 'gateway.yaml'), GATEWAY);
  const list = execFileSync(kpt, ['fn', 'source', pkg], { encoding: 'utf8' });
  const run = await runCliAsync([], list);
  t.is(run.status, 1, run.stderr);
  const out = parse(run.stdout) as {
    results?: Array<{ severity: string; tags?: { code?: string }; file?: { path?: string } }>;
  };
  const errors = (out.results ?? []).filter((r) => r.tags?.code === 'ADMISSION_UNDOES_PLAN');
  t.is(errors.length, 1, run.stdout.slice(-2000));
  t.is(errors[0]!.severity, 'error');
  t.is(errors[0]!.file?.path, 'policy.yaml');
});

test('what the recogniser reads: fields named, the number written, and only mutations', (t) => {
  const read = (name: string) =>
    policyReach(parse(policy(name).split('\n---\n')[0]!, { version: '1.1' }));
  t.deepEqual(read('kyverno-clusterpolicy.yaml'), {
    fields: ['terminationGracePeriodSeconds'],
    where: 'spec.rules[].mutate',
    graceWritten: 50,
  });
  t.deepEqual(read('kyverno-mutatingpolicy.yaml'), {
    fields: ['terminationGracePeriodSeconds'],
    where: 'spec.mutations',
    graceWritten: 50,
  });
  t.deepEqual(read('gatekeeper-assign-prestop.yaml'), {
    fields: ['lifecycle'],
    where: 'spec.location',
  });
  // A precondition that reads the field, with a mutation elsewhere, touches nothing of the plan.
  const labels: KubeObject = {
    apiVersion: 'kyverno.io/v1',
    kind: 'ClusterPolicy',
    metadata: { name: 'add-labels' },
    spec: {
      rules: [
        {
          preconditions: {
            all: [{ key: '{{request.object.spec.terminationGracePeriodSeconds}}' }],
          },
          mutate: { patchStrategicMerge: { metadata: { labels: { lifecycleStage: 'prod' } } } },
        },
      ],
    },
  };
  t.is(policyReach(labels), undefined);
  // Another group's kind of the same name is not a policy.
  t.is(policyReach({ ...labels, apiVersion: 'example.com/v1' }), undefined);
});
