/**
 * Issue #31 item 1: AWS load balancers configured by the AWS Load Balancer Controller's CRDs send
 * to a workload's pods although its Service is no LoadBalancer: a Gateway of an AWS GatewayClass
 * (gateway.k8s.aws/alb or /nlb) through a route, with the Service's TargetGroupConfiguration
 * (pkg/gateway/tg_config_constructor.go, model_build_target_group.go@v2.17.1), and a
 * TargetGroupBinding (apis/elbv2/v1beta1/targetgroupbinding_types.go@v2.17.1). Inputs: the
 * controller's own examples at v2.17.1 (test/fixtures/aws-lbc/, each file says which).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';

const read = (name: string) => readFileSync(fixturePath('aws-lbc', name), 'utf8');
const L7 = read('l7-gateway-echoserver.yaml');
const L4 = read('l4-gateway-echoserver-ip.yaml');
const TGB = read('tgb-echoserver.yaml');

/** Replaces `from` (which must be in `text`) by `to`. */
function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the fixture changed: ${from}`);
  return text.replace(from, to);
}

interface Explained {
  inputs: Array<{ symbol?: string; value: number; source: string }>;
  timelines: { patched: { verdict: { outcome: string } } };
}

async function explainJson(input: string, args: string[] = []): Promise<Explained> {
  const run = await runCliAsync(['explain', '--output', 'json', ...args], input);
  if (run.status !== 0) throw new Error(run.stderr);
  const doc = JSON.parse(run.stdout) as { workloads: Explained[] };
  return doc.workloads[0]!;
}

const w = (e: Explained) => e.inputs.find((i) => i.symbol === 'W')!;

test('an ALB Gateway route with no target type: instance targets, the ALB window, said', async (t) => {
  const [run, e] = await Promise.all([runCliAsync([], L7), explainJson(L7)]);
  t.is(run.status, 0, run.stderr);
  t.is(w(e).value, 45);
  t.regex(w(e).source, /^Gateway echoserver\/my-alb-gateway: AWS ALB .* via HTTPRoute/);
  // The route names the Gateway once per listener: one candidate, not two.
  t.is(w(e).source.match(/my-alb-gateway/g)?.length, 1);
  t.regex(run.stderr, /LB_ASSUMPTION .*HTTPRoute .* --default-target-type, instance/);
  t.is(e.timelines.patched.verdict.outcome, 'ok');
});

test('an NLB Gateway route with IP targets: 180 s, and the configuration delay checked', async (t) => {
  const [run, e] = await Promise.all([runCliAsync([], L4), explainJson(L4)]);
  t.is(run.status, 0, run.stderr);
  t.is(w(e).value, 180);
  t.regex(
    run.stderr,
    new RegExp(
      'LB_DEREGISTRATION_TOO_SHORT .*30 s .* in the targetGroupAttributes of ' +
        'TargetGroupConfiguration echoserver/example-tg-config\\.',
    ),
  );
  t.is(e.timelines.patched.verdict.outcome, 'fail');
});

test("a route's own configuration is laid over the default, the most specific first", async (t) => {
  const own = (identifier: string) =>
    edit(
      L4,
      '  targetReference:\n',
      '  routeConfigurations:\n' +
        `    - routeIdentifier: {${identifier}}\n` +
        '      targetGroupProps:\n' +
        '        targetGroupAttributes:\n' +
        '          - key: deregistration_delay.timeout_seconds\n' +
        '            value: "203"\n' +
        '  targetReference:\n',
    );
  const exact = await runCliAsync(
    [],
    own('kind: TCPRoute, namespace: echoserver, name: my-tcp-app-route'),
  );
  t.is(exact.status, 0, exact.stderr);
  t.notRegex(exact.stderr, /LB_DEREGISTRATION_TOO_SHORT/);
  const byKind = await runCliAsync([], own('kind: TCPRoute'));
  t.notRegex(byKind.stderr, /LB_DEREGISTRATION_TOO_SHORT/);
  // Another route's entry does not apply: the default's 30 s stays.
  const other = await runCliAsync([], own('kind: TCPRoute, namespace: echoserver, name: other'));
  t.regex(other.stderr, /LB_DEREGISTRATION_TOO_SHORT .*.*30 s/);
});

test('an NLB Gateway with instance targets behind a Local Service: the node health check', async (t) => {
  const instance = edit(
    edit(L4, '    targetType: ip\n', '    targetType: instance\n'),
    '  type: NodePort\n',
    '  type: NodePort\n  externalTrafficPolicy: Local\n',
  );
  const e = await explainJson(instance);
  t.is(w(e).value, 25, 'W = 5 + 10 × 2 (the controller’s defaults for Local)');
  t.is(
    e.timelines.patched.verdict.outcome,
    'unknown',
    'whether the pods stay ready is not modelled',
  );
  const checked = await explainJson(
    edit(
      instance,
      '    targetType: instance\n',
      '    targetType: instance\n    healthCheckConfig: {healthCheckInterval: 5}\n',
    ),
  );
  t.is(w(checked).value, 15);
  const cluster = await explainJson(edit(L4, '    targetType: ip\n', '    targetType: instance\n'));
  t.is(w(cluster).value, 5);
});

test('a Gateway of another class, or of a class not in the input, is not an AWS one', async (t) => {
  const other = await explainJson(
    edit(L7, 'controllerName: gateway.k8s.aws/alb', 'controllerName: istio.io/gateway-controller'),
  );
  t.regex(w(other).source, /^Service echoserver\/echoserver: in-cluster/);
  // Without its GatewayClass the Gateway may be anything: not modelled, never ✓.
  const missing = await explainJson(edit(L7, 'kind: GatewayClass', 'kind: NotAGatewayClass'));
  t.regex(w(missing).source, /its GatewayClass aws-alb-gateway-class is not in the input/);
  t.is(missing.timelines.patched.verdict.outcome, 'unknown');
});

test('a TargetGroupBinding: the window by its group, the verdict unknown', async (t) => {
  const [run, e] = await Promise.all([runCliAsync([], TGB), explainJson(TGB)]);
  t.is(run.status, 0, run.stderr);
  t.is(w(e).value, 180);
  t.regex(run.stderr, /LB_ASSUMPTION .*TargetGroupBinding echoserver\/my-tgb leaves/);
  t.is(e.timelines.patched.verdict.outcome, 'unknown');
  const alb = edit(
    TGB,
    '  targetGroupName:',
    '  targetType: ip\n  targetGroupProtocol: HTTP\n  targetGroupName:',
  );
  const [albRun, albExplained] = await Promise.all([runCliAsync([], alb), explainJson(alb)]);
  t.is(w(albExplained).value, 45);
  t.notRegex(albRun.stderr, /LB_ASSUMPTION/);
  t.is(albExplained.timelines.patched.verdict.outcome, 'unknown');
  // The user who knows the group's window says it: the verdict is then the model's.
  const told = await explainJson(TGB, ['--drain-window', '60']);
  t.is(w(told).value, 60);
  t.is(told.timelines.patched.verdict.outcome, 'ok');
});

test('a TargetGroupBinding of instance targets: nodes, still a group made outside', async (t) => {
  const e = await explainJson(
    edit(TGB, '  targetGroupName:', '  targetType: instance\n  targetGroupName:'),
  );
  t.is(w(e).value, 5);
  t.is(e.timelines.patched.verdict.outcome, 'unknown');
});

test('a binding in another namespace binds nothing here', async (t) => {
  const e = await explainJson(
    edit(TGB, '  name: my-tgb\n  namespace: echoserver', '  name: my-tgb\n  namespace: other'),
  );
  t.regex(w(e).source, /^Service echoserver\/echoserver: in-cluster/);
  t.is(e.timelines.patched.verdict.outcome, 'ok');
});

/** The L7 example with its LoadBalancerConfiguration naming a default configuration (v3.2.0+). */
function withGatewayDefault(defaults: string): string {
  return (
    edit(
      L7,
      '      defaultCertificate: <my cert arn>\n',
      '      defaultCertificate: <my cert arn>\n' +
        '  defaultTargetGroupConfiguration:\n    name: defaults\n',
    ) +
    '---\napiVersion: gateway.k8s.aws/v1beta1\nkind: TargetGroupConfiguration\n' +
    `metadata:\n  name: defaults\n  namespace: echoserver\nspec:\n${defaults}`
  );
}

test("a LoadBalancerConfiguration's default configuration shapes the group", async (t) => {
  const input = withGatewayDefault(
    '  defaultConfiguration:\n    targetType: ip\n    targetGroupAttributes:\n' +
      '      - {key: deregistration_delay.timeout_seconds, value: "30"}\n',
  );
  const [run, e] = await Promise.all([runCliAsync([], input), explainJson(input)]);
  t.is(run.status, 0, run.stderr);
  t.regex(
    w(e).source,
    /IP targets \(TargetGroupConfiguration echoserver\/defaults: targetType ip\)/,
  );
  t.notRegex(run.stderr, /LB_ASSUMPTION/);
  t.regex(
    run.stderr,
    new RegExp(
      'LB_DEREGISTRATION_TOO_SHORT .*30 s .* in the targetGroupAttributes of a ' +
        'TargetGroupConfiguration for Service echoserver/echoserver\\.',
    ),
  );
  // The Service's own configuration wins field by field; the default's delay stays.
  const own =
    `${input}---\napiVersion: gateway.k8s.aws/v1beta1\nkind: TargetGroupConfiguration\n` +
    'metadata:\n  name: own\n  namespace: echoserver\nspec:\n' +
    '  targetReference:\n    name: echoserver\n  defaultConfiguration:\n    targetType: instance\n';
  const [ownRun, ownExplained] = await Promise.all([runCliAsync([], own), explainJson(own)]);
  t.regex(
    w(ownExplained).source,
    new RegExp(
      'instance targets \\(TargetGroupConfiguration echoserver/own over ' +
        'TargetGroupConfiguration echoserver/defaults: targetType instance\\)',
    ),
  );
  t.notRegex(ownRun.stderr, /LB_DEREGISTRATION_TOO_SHORT/, 'instance targets deregister nothing');
});

test('a default configuration with a targetReference is no default', async (t) => {
  const e = await explainJson(
    withGatewayDefault(
      '  targetReference:\n    name: other\n  defaultConfiguration:\n    targetType: ip\n',
    ),
  );
  t.regex(w(e).source, /no targetType: the controller's --default-target-type/);
});

test("the GatewayClass's default wins unless its mergingMode prefers the Gateway's", async (t) => {
  const classLevel = (mode: string) =>
    edit(
      withGatewayDefault('  defaultConfiguration:\n    targetType: ip\n'),
      '  controllerName: gateway.k8s.aws/alb\n',
      '  controllerName: gateway.k8s.aws/alb\n  parametersRef:\n    group: gateway.k8s.aws\n' +
        '    kind: LoadBalancerConfiguration\n    name: class-config\n    namespace: echoserver\n',
    ) +
    '---\napiVersion: gateway.k8s.aws/v1beta1\nkind: LoadBalancerConfiguration\n' +
    `metadata:\n  name: class-config\n  namespace: echoserver\nspec:\n${mode}` +
    '  defaultTargetGroupConfiguration:\n    name: class-defaults\n' +
    '---\napiVersion: gateway.k8s.aws/v1beta1\nkind: TargetGroupConfiguration\n' +
    'metadata:\n  name: class-defaults\n  namespace: echoserver\n' +
    'spec:\n  defaultConfiguration:\n    targetType: instance\n';
  const [byClass, byGateway] = await Promise.all([
    explainJson(classLevel('')),
    explainJson(classLevel('  mergingMode: prefer-gateway\n')),
  ]);
  t.regex(
    w(byClass).source,
    /instance targets \(TargetGroupConfiguration echoserver\/class-defaults over/,
  );
  t.regex(w(byGateway).source, /IP targets \(TargetGroupConfiguration echoserver\/defaults over/);
});
