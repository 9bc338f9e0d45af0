/**
 * Issue #31 item 5: `kube-graceful policy` prints a ValidatingAdmissionPolicy and binding that
 * reject new pods of the planned workloads whose grace period or preStop hooks fall below the plan.
 * Its CEL expressions are evaluated with @bufbuild/cel on pods made from the patched output
 * (admitted), the unpatched input and later edits of the output (rejected); the objects are
 * validated against the kubernetes-models schema and the field names of Kubernetes 1.30's
 * admissionregistration/v1 types (the first release with the API GA).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { run } from '@bufbuild/cel';
import { parseAllDocuments } from 'yaml';
import { corpus, fixturePath } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';
import { validateKubernetesObject } from '../helpers/schema.ts';
import { goStructs, unknownFields } from '../helpers/goTypes.ts';

interface Obj {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
}

const L7 = readFileSync(fixturePath('aws-lbc', 'l7-gateway-echoserver.yaml'), 'utf8');

const INPUTS: ReadonlyArray<{ name: string; text: string; args: string[] }> = [
  {
    name: 'istio/gateway 1.30.3 behind an NLB',
    text: corpus('istio-gateway-1.30.3-nlb.yaml'),
    args: [],
  },
  { name: 'argo-cd, no mesh', text: corpus('argo-cd.yaml'), args: ['--gateway-mode', 'off'] },
  {
    name: 'Istio bookinfo, sidecars injected',
    text: corpus('istio-sample-kube-bookinfo.yaml'),
    args: [],
  },
  { name: "the AWS Load Balancer Controller's L7 Gateway example", text: L7, args: [] },
];

const docs = (text: string): Obj[] =>
  parseAllDocuments(text)
    .map((d) => d.toJS() as Obj | null)
    .filter((o): o is Obj => o !== null && typeof o === 'object');

/** Kubernetes integers reach CEL as int, not double: whole numbers become bigints. */
function asKubernetes(value: unknown): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (Array.isArray(value)) return value.map(asKubernetes);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asKubernetes(v)]));
  return value;
}

const TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  Deployment: ['spec', 'template'],
  StatefulSet: ['spec', 'template'],
  DaemonSet: ['spec', 'template'],
  Job: ['spec', 'template'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
};

interface MadePod {
  readonly workload: string;
  readonly pod: Obj;
  readonly ns: string;
}

/** The pods the workloads' controllers would create, after the API server's default grace. */
function podsOf(objects: readonly Obj[]): MadePod[] {
  return objects.flatMap((o) => {
    const path = o.kind ? TEMPLATES[o.kind] : undefined;
    if (!path) return [];
    let template: unknown = o;
    for (const key of path) template = (template as Record<string, unknown> | undefined)?.[key];
    const t = template as { metadata?: Obj['metadata']; spec?: Record<string, unknown> };
    const ns = o.metadata?.namespace ?? '';
    const pod: Obj = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { ...t.metadata, namespace: ns },
      spec: { terminationGracePeriodSeconds: 30, ...structuredClone(t.spec) },
    };
    return [{ workload: `${o.kind} ${ns}/${o.metadata?.name}`, pod, ns }];
  });
}

/** Returns the messages of the validations that reject `pod` in `namespace`. */
function rejections(policy: Obj, pod: Obj, namespace: string): string[] {
  const validations = (policy.spec?.['validations'] ?? []) as Array<{
    expression: string;
    message: string;
  }>;
  const bound = { object: asKubernetes(pod), request: { namespace } } as Parameters<typeof run>[1];
  return validations.filter((v) => run(v.expression, bound) !== true).map((v) => v.message);
}

const STRUCTS = goStructs(fixturePath('kubernetes', 'admissionregistration-v1-types-v0.30.0.go'));

test("the 1.30 field check reads the types: it knows the policy's fields and refuses others", (t) => {
  t.deepEqual(
    unknownFields(STRUCTS, 'ValidatingAdmissionPolicySpec', {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: [''], operations: ['CREATE'] }] },
      validations: [{ expression: 'true', reason: 'Forbidden', messsage: 'typo' }],
      bogus: 1,
    }),
    ['.validations[0].messsage', '.bogus'],
  );
});

for (const input of INPUTS) {
  test(`${input.name}: admits the patched pods, rejects the unpatched and lowered ones`, async (t) => {
    const [policyRun, transformed] = await Promise.all([
      runCliAsync(['policy', ...input.args], input.text),
      runCliAsync(input.args, input.text),
    ]);
    t.is(policyRun.status, 0, policyRun.stderr);
    t.is(transformed.status, 0, transformed.stderr);
    const [policy, binding] = docs(policyRun.stdout);
    t.is(policy?.kind, 'ValidatingAdmissionPolicy');
    t.is(binding?.kind, 'ValidatingAdmissionPolicyBinding');
    for (const object of [policy!, binding!]) {
      t.true(validateKubernetesObject(object), `${object.kind} is a kind the schemas know`);
      t.deepEqual(unknownFields(STRUCTS, `${object.kind!}Spec`, object.spec), [], 'fields of 1.30');
    }
    const validations = policy!.spec!['validations'] as unknown[];
    t.true(validations.length > 0);

    const patched = podsOf(docs(transformed.stdout));
    for (const { workload, pod, ns } of patched)
      t.deepEqual(rejections(policy!, pod, ns), [], `${workload} as patched is admitted`);

    const rejected = podsOf(docs(input.text)).filter(
      ({ pod, ns }) => rejections(policy!, pod, ns).length > 0,
    );
    t.is(rejected.length, validations.length, 'each guarded workload, unpatched, is rejected');

    // A later edit that lowers a guarded workload's grace period by a second is rejected.
    const guarded = new Set(rejected.map((r) => r.workload));
    for (const { workload, pod, ns } of patched.filter((p) => guarded.has(p.workload))) {
      const grace = pod.spec!['terminationGracePeriodSeconds'] as number;
      const lowered = { ...pod, spec: { ...pod.spec, terminationGracePeriodSeconds: grace - 1 } };
      t.true(rejections(policy!, lowered, ns).length > 0, `${workload} with ${grace - 1} s`);
    }
  });
}

test('a preStop sleep shortened, replaced or removed is rejected; not in another namespace', async (t) => {
  const [policyRun, transformed] = await Promise.all([
    runCliAsync(['policy'], L7),
    runCliAsync([], L7),
  ]);
  const [policy] = docs(policyRun.stdout);
  const [made] = podsOf(docs(transformed.stdout));
  const { pod, ns } = made!;
  const containers = pod.spec!['containers'] as Array<Record<string, unknown>>;
  t.deepEqual(containers[0]!['lifecycle'], { preStop: { sleep: { seconds: 45 } } });
  const withHook = (preStop: unknown): Obj => ({
    ...pod,
    spec: {
      ...pod.spec,
      containers: [{ ...containers[0], lifecycle: preStop === undefined ? {} : { preStop } }],
    },
  });
  t.deepEqual(rejections(policy!, withHook({ sleep: { seconds: 45 } }), ns), []);
  t.regex(
    rejections(policy!, withHook({ sleep: { seconds: 44 } }), ns)[0] ?? '',
    /a preStop sleep of at least 45 s in container echoserver/,
  );
  t.is(rejections(policy!, withHook(undefined), ns).length, 1);
  t.is(rejections(policy!, withHook({ exec: { command: ['sleep', '45'] } }), ns).length, 1);
  t.deepEqual(rejections(policy!, withHook(undefined), 'elsewhere'), [], 'another namespace');
});

test('no planned grace or hook: nothing written, said, exit 0', async (t) => {
  const off = await runCliAsync(
    ['policy', '--gateway-mode', 'off'],
    corpus('istio-gateway-1.30.3-nlb.yaml'),
  );
  t.is(off.status, 0, off.stderr);
  t.is(off.stdout, '');
  t.regex(off.stderr, /sets no grace period or preStop hook here; no policy written/);
});

test('error findings: no policy, exit 1', async (t) => {
  const bad = await runCliAsync(['policy', '--drain-window', '-3'], L7);
  t.not(bad.status, 0);
  t.is(bad.stdout, '');
});
