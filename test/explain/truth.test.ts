/**
 * One source of truth (issue #7): the numbers `explain` shows for the patched manifest are the
 * numbers in the patched manifest, and they are the mutators' own plan (derived values with their
 * formulas). The manifest is read here with plain `yaml`, independently of fn/explain.
 */
import { isDeepStrictEqual } from 'node:util';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { parse, parseAllDocuments } from 'yaml';
import { readConfigText } from '../../fn/config/load.ts';
import { getAt } from '../../fn/core/fieldPath.ts';
import { transform } from '../../fn/engine/transform.ts';
import type { TransformResult } from '../../fn/engine/transform.ts';
import { explain } from '../../fn/explain/explain.ts';
import type { WorkloadExplanation } from '../../fn/explain/explain.ts';
import { corpus } from '../helpers/fixtures.ts';
import { explainGateway } from '../../fn/mutators/gateway/explain.ts';
import type { GatewayPlan } from '../../fn/mutators/gateway/plan.ts';
import type { ExplainContext } from '../../fn/explanation/types.ts';

interface Case {
  readonly name: string;
  readonly input: string;
  readonly flags?: Record<string, string>;
  readonly config?: string;
  /** How many workloads must be explained (so a case cannot pass by explaining nothing). */
  readonly workloads: number;
}

const CASES: Case[] = [
  {
    name: 'NLB gateway, env mode',
    input: 'istio-gateway-1.17.8-nlb.yaml',
    flags: { 'max-request': '10', buffer: '10' },
    workloads: 1,
  },
  {
    name: 'NLB gateway, sleep mode',
    input: 'istio-gateway-1.17.8-nlb.yaml',
    flags: { 'max-request': '10', buffer: '10', 'gateway-mode': 'sleep' },
    workloads: 1,
  },
  { name: 'NLB gateway 1.30.3, defaults', input: 'istio-gateway-1.30.3-nlb.yaml', workloads: 1 },
  {
    name: 'httpbin, classic sidecar, exit-on-zero',
    input: 'istio-sample-httpbin-httpbin.yaml',
    flags: {
      'sidecar-mode': 'classic',
      namespace: 'default',
      'istio-injected-namespaces': 'default',
    },
    workloads: 1,
  },
  {
    name: 'httpbin, classic sidecar, termination drain',
    input: 'istio-sample-httpbin-httpbin.yaml',
    config:
      'apiVersion: kube-graceful.dev/v1alpha1\nkind: GracefulShutdown\nspec: ' +
      '{namespace: default, sidecarMode: classic, mesh: ' +
      '{istioInjectedNamespaces: [default]}, app: {classicDrain: ' +
      'termination-drain}, timing: {maxRequestSeconds: 60}}\n',
    workloads: 1,
  },
  {
    name: 'httpbin, native sidecar',
    input: 'istio-sample-httpbin-httpbin.yaml',
    flags: {
      'sidecar-mode': 'native',
      namespace: 'default',
      'istio-injected-namespaces': 'default',
    },
    workloads: 1,
  },
  {
    name: 'httpbin, Linkerd classic',
    input: 'istio-sample-httpbin-httpbin.yaml',
    flags: {
      'sidecar-mode': 'classic',
      namespace: 'default',
      'linkerd-injected-namespaces': 'default',
      'drain-window': '40',
    },
    workloads: 1,
  },
  {
    name: 'bookinfo, classic sidecars',
    input: 'istio-sample-kube-bookinfo.yaml',
    flags: {
      'sidecar-mode': 'classic',
      namespace: 'default',
      'istio-injected-namespaces': 'default',
    },
    workloads: 6,
  },
  {
    name: 'ingress-nginx hook Jobs, native',
    input: 'ingress-nginx.yaml',
    // The two hook Jobs and the controller (ingress-nginx-drain).
    flags: { 'istio-injected-namespaces': 'ingress-nginx', 'app-mode': 'off' },
    workloads: 3,
  },
  {
    name: "Contour's render behind an NLB with IP targets",
    input: '../gateways/contour/render-1.33.6-nlb-ip.yaml',
    // The contour Deployment (app-graceful) and the envoy DaemonSet (contour-drain).
    workloads: 2,
  },
  {
    name: "Kong's chart behind an NLB with IP targets",
    input: '../gateways/kong/chart-3.4.1-nlb-ip.yaml',
    workloads: 1,
  },
];

function run(c: Case): TransformResult {
  return transform(corpus(c.input), {
    ...(c.flags ? { flags: c.flags } : {}),
    ...(c.config ? { config: readConfigText(c.config, 'config.yaml') } : {}),
  });
}

/** The objects of a stream by document number (1-based), read with plain yaml. */
function objects(text: string): Map<number, Record<string, unknown>> {
  const docs = parseAllDocuments(text, { version: '1.1' });
  const map = new Map<number, Record<string, unknown>>();
  (Array.isArray(docs) ? docs : [docs]).forEach((doc, i) =>
    map.set(i + 1, doc.toJS() as Record<string, unknown>),
  );
  return map;
}

interface Template {
  metadata?: { annotations?: Record<string, string> };
  spec?: {
    terminationGracePeriodSeconds?: number;
    containers?: Array<{
      name: string;
      env?: Array<{ name: string; value?: string }>;
      args?: string[];
      lifecycle?: { preStop?: { sleep?: { seconds: number }; exec?: { command?: string[] } } };
    }>;
  };
}

function template(object: Record<string, unknown>): Template {
  return (
    getAt(object, ['spec', 'template']) ??
    getAt(object, ['spec', 'jobTemplate', 'spec', 'template']) ??
    {}
  );
}

const seconds = (text: string | undefined) =>
  text === undefined ? undefined : Number(/^(\d+)s$/.exec(text)?.[1]);
const derived = (w: WorkloadExplanation, symbol: string) =>
  w.derived.find((d) => d.symbol === symbol)?.seconds;
const setting = (w: WorkloadExplanation, name: string) => w.settings.find((s) => s.name === name);

/** A patched workload as one check reads it: its explanation and its patched pod template. */
interface Seen {
  readonly t: ExecutionContext;
  readonly w: WorkloadExplanation;
  /** `Kind name`, for assertion messages. */
  readonly what: string;
  readonly patched: Template;
  readonly annotations: Record<string, string>;
  /** The pod's proxy.istio.io/config annotation, read as YAML. */
  readonly proxyConfig: Record<string, unknown>;
}

function seen(t: ExecutionContext, w: WorkloadExplanation, patched: Template): Seen {
  const annotations = patched.metadata?.annotations ?? {};
  const proxyConfig = annotations['proxy.istio.io/config']
    ? (parse(annotations['proxy.istio.io/config']) as Record<string, unknown>)
    : {};
  return { t, w, what: `${w.resource.kind} ${w.resource.name}`, patched, annotations, proxyConfig };
}

const containerOf = ({ patched }: Seen, name: string) =>
  patched.spec?.containers?.find((x) => x.name === name);
const preStopCommand = (s: Seen, name: string) =>
  containerOf(s, name)?.lifecycle?.preStop?.exec?.command ?? [];
const eventAt = (s: Seen, actor: string, at: number | undefined, text = '') =>
  s.w.timelines.patched.events.find(
    (e) => e.actor === actor && e.at === at && e.text.startsWith(text),
  );

/** A Job's proxy: native or classic as the pod says, and a classic one fails the timeline. */
function checkJob({ t, w, what, annotations }: Seen): void {
  const native = annotations['sidecar.istio.io/nativeSidecar'] === 'true';
  t.is(setting(w, 'istio-proxy sidecar')?.patched.value, native ? 'native' : 'classic', what);
  t.is(w.timelines.patched.verdict.failures, native ? 0 : 1, what);
}

/** G: the grace the pods will have (the field, or Kubernetes' 30 s) is the plan's G. */
function checkGrace(s: Seen): void {
  const { t, w, what, patched } = s;
  const grace = patched.spec?.terminationGracePeriodSeconds ?? 30;
  const G = derived(w, 'G')!;
  t.is(setting(w, 'terminationGracePeriodSeconds')?.patched.value, grace, what);
  if (patched.spec?.terminationGracePeriodSeconds !== undefined)
    t.is(G, grace, `${what}: derived G`);
  else t.true(G <= grace, `${what}: G ${G} fits the default ${grace}`);
  t.truthy(eventAt(s, 'kubelet', grace), `${what}: grace deadline at ${grace}`);
}

/** S: drain-delay (not set here) + the check delay the shutdown-manager's hook writes. */
function checkContour(s: Seen): void {
  const { t, w, what } = s;
  const flag = preStopCommand(s, 'shutdown-manager').find((a) => a.startsWith('--check-delay='));
  t.is(seconds(flag?.split('=')[1]), derived(w, 'S')!, `${what}: S`);
  t.truthy(eventAt(s, 'envoy', derived(w, 'S'), 'SIGTERM'));
}

/** S and T: kong quit's --wait and --timeout as the proxy's patched hook writes them. */
function checkKong(s: Seen): void {
  const { t, w, what } = s;
  const option = (name: string) =>
    Number(
      preStopCommand(s, 'proxy')
        .find((a) => a.startsWith(`--${name}=`))
        ?.split('=')[1],
    );
  t.is(option('wait'), derived(w, 'S')!, `${what}: S`);
  t.is(option('timeout'), derived(w, 'T')!, `${what}: T`);
  t.is(setting(w, 'proxy kong quit --wait')?.patched.value, derived(w, 'S'));
  t.is(containerOf(s, 'ingress-controller')?.lifecycle, undefined);
}

/** S: the controller's --shutdown-grace-period as the patched args write it. */
function checkIngressNginx(s: Seen): void {
  const { t, w, what } = s;
  const args = containerOf(s, 'controller')?.args ?? [];
  const flag = args.find((a) => a.startsWith('--shutdown-grace-period='));
  t.is(Number(flag?.split('=')[1]), derived(w, 'S')!, `${what}: S`);
  t.is(setting(w, 'controller --shutdown-grace-period')?.patched.value, derived(w, 'S'));
}

/** M and D of an exit-on-zero drain, or S of a preStop sleep, as istio-proxy's pod writes them. */
function checkIstioGateway(s: Seen): void {
  const { t, w, what, proxyConfig } = s;
  const proxy = containerOf(s, 'istio-proxy');
  const env = (name: string) => proxy?.env?.find((e) => e.name === name)?.value;
  if (env('MINIMUM_DRAIN_DURATION') !== undefined) {
    const M = seconds(env('MINIMUM_DRAIN_DURATION'));
    t.is(derived(w, 'M'), M, `${what}: M`);
    t.is(setting(w, 'MINIMUM_DRAIN_DURATION')?.patched.value, M);
    t.truthy(eventAt(s, 'istio-proxy', M, 'MINIMUM_DRAIN_DURATION'));
    t.is(env('EXIT_ON_ZERO_ACTIVE_CONNECTIONS'), 'true');
    const D = seconds(proxyConfig['drainDuration'] as string | undefined) ?? 45;
    t.true(D >= derived(w, 'D')!, `${what}: drainDuration ${D} covers D`);
    t.is(setting(w, 'drainDuration')?.patched.value, D);
  }
  const sleep = proxy?.lifecycle?.preStop?.sleep?.seconds;
  if (sleep !== undefined) {
    t.is(derived(w, 'S'), sleep, `${what}: S`);
    t.truthy(eventAt(s, 'istio-proxy', sleep, 'SIGTERM'));
  }
  t.true(
    env('MINIMUM_DRAIN_DURATION') !== undefined || sleep !== undefined,
    `${what}: a drain was written`,
  );
}

/** An app's preStop sleeps within S, and its mesh proxy waits T. */
function checkApp(s: Seen): void {
  const { t, w, what } = s;
  for (const name of w.settings
    .filter((x) => x.name.endsWith(' preStop'))
    .map((x) => x.name.slice(0, -' preStop'.length))) {
    const sleep = containerOf(s, name)?.lifecycle?.preStop?.sleep?.seconds;
    t.not(sleep, undefined, `${what}: ${name} has a preStop sleep`);
    t.true(sleep! <= derived(w, 'S')!, `${what}: ${name} sleeps within S`);
    t.truthy(eventAt(s, name, sleep, 'SIGTERM'));
  }
  checkAppProxy(s);
}

/** T as the app's mesh proxy writes it: Istio's drain or Linkerd's wait before exit. */
function checkAppProxy(s: Seen): void {
  const { t, w, what, annotations, proxyConfig } = s;
  const metadata = (proxyConfig['proxyMetadata'] ?? {}) as Record<string, string>;
  if (metadata['MINIMUM_DRAIN_DURATION'] !== undefined) {
    // An app's exit-on-zero proxy waits T = S + R (issue #13 item 4), and the timeline says so
    // at T.
    t.is(seconds(metadata['MINIMUM_DRAIN_DURATION']), derived(w, 'T'), `${what}: T`);
    t.is(
      derived(w, 'T'),
      derived(w, 'S')! + Number(w.inputs.find((i) => i.symbol === 'R')!.value),
      `${what}: T = S + R`,
    );
    t.is(setting(w, 'MINIMUM_DRAIN_DURATION')?.patched.value, derived(w, 'T'));
    t.truthy(eventAt(s, 'istio-proxy', derived(w, 'T'), 'MINIMUM_DRAIN_DURATION'));
  }
  if (proxyConfig['terminationDrainDuration'] !== undefined) {
    t.is(seconds(proxyConfig['terminationDrainDuration'] as string), derived(w, 'T'), `${what}: T`);
    t.truthy(eventAt(s, 'istio-proxy', derived(w, 'T')));
  }
  const wait = annotations['config.alpha.linkerd.io/proxy-wait-before-exit-seconds'];
  if (wait !== undefined) {
    t.is(derived(w, 'T'), Number(wait), `${what}: Linkerd wait is T`);
    t.truthy(eventAt(s, 'linkerd-proxy', Number(wait)));
  }
  if (annotations['sidecar.istio.io/nativeSidecar'] === 'true')
    t.is(setting(w, 'istio-proxy sidecar')?.patched.value, 'native');
}

/** The checks of a workload's own settings, by the mutator that planned them. */
function checkSettings(s: Seen): void {
  if (s.w.mutator === 'contour-drain') checkContour(s);
  else if (s.w.mutator === 'kong-drain') checkKong(s);
  else if (s.w.mutator === 'ingress-nginx-drain') checkIngressNginx(s);
  else if (s.w.role === 'gateway') checkIstioGateway(s);
  else checkApp(s);
}

for (const c of CASES) {
  test(`explain's patched numbers are the patched manifest's: ${c.name}`, (t) => {
    const result = run(c);
    const explanation = explain(result);
    t.is(explanation.workloads.length, c.workloads);
    const output = objects(result.output);
    for (const w of explanation.workloads) {
      const s = seen(t, w, template(output.get(w.document)!));
      if (w.role === 'job') {
        checkJob(s);
        continue;
      }
      checkGrace(s);
      checkSettings(s);
      // Every plan relation explain reports holds in the output.
      for (const x of w.settings)
        if (x.planned)
          t.true(
            x.planned.met,
            `${s.what}: ${x.name} meets the plan (${x.planned.relation} ` +
              `${String(x.planned.value)})`,
          );
      t.is(
        w.timelines.patched.verdict.failures,
        0,
        `${s.what}: patched timeline has no failure window`,
      );
    }
  });

  test(`change records match the input and the output: ${c.name}`, (t) => {
    const result = run(c);
    const input = objects(result.input);
    const output = objects(result.output);
    t.true(result.changes.length > 0);
    for (const change of result.changes) {
      t.true(
        isDeepStrictEqual(getAt(input.get(change.document), change.path), change.before),
        `before of ${change.path.map(String).join('.')}`,
      );
      t.true(
        isDeepStrictEqual(getAt(output.get(change.document), change.path), change.after),
        `after of ${change.path.map(String).join('.')}`,
      );
    }
  });
}

test('explain shows the plan it is handed, never a number of its own', (t) => {
  // A stand-in gateway-drain whose plan disagrees with what the model would compute: explain must
  // print the plan's numbers and formulas as they are.
  const base = transform(corpus('istio-gateway-1.17.8-nlb.yaml'), {
    flags: { 'max-request': '10', buffer: '10' },
  });
  const real = base.outcomes[0]!;
  const plan = real.plan as GatewayPlan;
  const odd: GatewayPlan = {
    ...plan,
    plan: {
      ...plan.plan,
      graceSeconds: { value: 4242, formula: 'G = 4242 (test)', explanation: 'test' },
    },
  };
  const result = {
    ...base,
    outcomes: [
      { ...real, plan: odd, explain: (context: ExplainContext) => explainGateway(odd, context) },
    ],
  };
  const w = explain(result).workloads[0]!;
  t.is(derived(w, 'G'), 4242);
  t.is(w.derived.find((d) => d.symbol === 'G')?.formula, 'G = 4242 (test)');
  const grace = setting(w, 'terminationGracePeriodSeconds')!;
  t.is(grace.patched.value, 200, 'the patched value is the manifest');
  t.false(grace.planned!.met, 'and the disagreement is reported');
});
