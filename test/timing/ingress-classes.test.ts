/**
 * Issue #31: an Ingress's controller decides whether the in-cluster window holds for the pods it
 * routes to. Only a class kube-graceful knows to be an in-cluster proxy (by its IngressClass's
 * controller, or a proxy's default class name) keeps the ✓; an ALB's IngressClass under any name
 * is an ALB; any other class, or no class where the input shows no default IngressClass, is
 * unknown, as a Gateway of an unknown class is. Inputs: Bitnami's nginx chart 22.1.1 rendered with
 * each class (test/fixtures/ingress-classes/README.md), alone or with the IngressClass that the
 * Traefik and Contour charts render.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';

const app = (name: string) =>
  readFileSync(fixturePath('ingress-classes', `bitnami-nginx-22.1.1-${name}.yaml`), 'utf8');
const chart = (dir: string, name: string) =>
  readFileSync(fixturePath('gateways', dir, `${name}.yaml`), 'utf8');

interface Explained {
  resource: { kind: string; name: string; namespace?: string };
  inputs: Array<{ symbol?: string; name: string; value?: number; source: string }>;
  timelines: { patched: { verdict: { outcome: string; text: string } } };
}

/** The explain of the bitnami nginx Deployment web/nginx in that input. */
async function nginx(input: string, flags: string[] = []): Promise<Explained> {
  const run = await runCliAsync(['explain', '--output', 'json', ...flags], input);
  if (run.status !== 0) throw new Error(run.stderr);
  const { workloads } = JSON.parse(run.stdout) as { workloads: Explained[] };
  const found = workloads.find(
    (w) => w.resource.namespace === 'web' && w.resource.name === 'nginx',
  );
  if (found === undefined) throw new Error('no web/nginx in the explain');
  return found;
}

const window = (w: Explained) => w.inputs.find((i) => i.symbol === 'W')!;

test('an Ingress of no class, with no default IngressClass in the input: unknown', async (t) => {
  const w = await nginx(app('no-class'));
  t.is(w.timelines.patched.verdict.outcome, 'unknown');
  t.regex(w.timelines.patched.verdict.text, /Ingress web\/nginx.*names no class/);
  t.regex(w.timelines.patched.verdict.text, /--lb-provider in-cluster/);
});

test("an Ingress of class nginx, ingress-nginx's default name: the in-cluster ✓", async (t) => {
  const w = await nginx(app('nginx-class'));
  t.is(w.timelines.patched.verdict.outcome, 'ok');
  t.is(window(w).value, 5);
});

test('an Ingress whose IngressClass names a controller not modelled: unknown', async (t) => {
  const w = await nginx(app('haproxy-class'));
  t.is(w.timelines.patched.verdict.outcome, 'unknown');
  t.regex(
    w.timelines.patched.verdict.text,
    /IngressClass haproxy names controller haproxy\.org\/ingress-controller\/haproxy/,
  );
});

test('an IngressClass of the AWS Load Balancer Controller under another name: an ALB', async (t) => {
  const w = await nginx(app('alb-class'));
  t.is(window(w).value, 45);
  t.regex(
    window(w).source,
    /AWS ALB with instance targets \(spec\.ingressClassName: internal-alb\)/,
  );
  t.is(w.timelines.patched.verdict.outcome, 'ok');
});

test("no class, and the input's default IngressClass is an in-cluster proxy's: ✓", async (t) => {
  t.is((await nginx(app('default-class'))).timelines.patched.verdict.outcome, 'ok');
  // The Traefik and Contour charts mark their IngressClass the default; Contour's chart names a
  // controller of its own release, under projectcontour.io/.
  for (const [dir, name] of [
    ['traefik', 'chart-41.3.0-default'],
    ['contour', 'bitnami-chart-21.1.4-nlb-ip'],
  ]) {
    const w = await nginx(`${chart(dir!, name!)}\n---\n${app('no-class')}`);
    t.is(w.timelines.patched.verdict.outcome, 'ok', name);
  }
});

test('the user saying the controller is in the cluster makes the unknown known', async (t) => {
  const w = await nginx(app('no-class'), ['--lb-provider', 'in-cluster']);
  t.is(w.timelines.patched.verdict.outcome, 'ok');
});

test("an ALB IngressClass's IngressClassParams targetType wins over the annotations", async (t) => {
  const w = await nginx(app('alb-class-params'));
  t.regex(
    window(w).source,
    /AWS ALB with IP targets \(IngressClassParams internal-alb targetType: ip\)/,
  );
  // IP targets carry the target group's deregistration delay: 10 s cuts requests in flight.
  t.is(w.inputs.find((i) => i.name === 'LB deregistration delay')?.value, 10);
  t.is(w.timelines.patched.verdict.outcome, 'fail');
});

test("the Service's target-type and target-group annotations are read before the Ingress's", async (t) => {
  const w = await nginx(app('alb-service-ip'));
  t.regex(
    window(w).source,
    /AWS ALB with IP targets \(Service web\/nginx alb\.ingress\.kubernetes\.io\/target-type: ip\)/,
  );
  const delay = w.inputs.find((i) => i.name === 'LB deregistration delay');
  t.is(delay?.value, 60);
  t.regex(
    delay?.source ?? '',
    /in the alb\.ingress\.kubernetes\.io\/target-group-attributes of Service web\/nginx/,
  );
  // 60 s ends before the drain S + R = 65 s: requests still in flight are cut.
  t.is(w.timelines.patched.verdict.outcome, 'fail');
});

test("an IngressClass of AGIC's controller under another name: an Azure Application Gateway", async (t) => {
  const w = await nginx(app('agic-class'));
  t.is(window(w).value, 90);
  t.regex(
    window(w).source,
    new RegExp(
      'Azure Application Gateway \\(spec\\.ingressClassName: appgw-internal, ' +
        'controller azure/application-gateway\\)',
    ),
  );
  t.is(w.timelines.patched.verdict.outcome, 'ok');
});

test('a known window does not make the outcome known beside an Ingress controller that is not', async (t) => {
  const w = await nginx(app('nlb-and-no-class'));
  // The NLB's window is the longer and is planned with; the Ingress's may be longer still.
  t.is(window(w).value, 180);
  t.is(w.timelines.patched.verdict.outcome, 'unknown');
  t.regex(
    w.timelines.patched.verdict.text,
    /W = 180 s is that of Service web\/nginx, and the load balancer of Ingress web\/nginx may/,
  );
  const told = await nginx(app('nlb-and-no-class'), ['--lb-provider', 'in-cluster']);
  t.not(told.timelines.patched.verdict.outcome, 'unknown');
});

test('no class, and the default IngressClass is the ALB controller’s: an ALB, the class named alone', async (t) => {
  const albDefault = app('default-class').replace(
    'controller: k8s.io/ingress-nginx',
    'controller: ingress.k8s.aws/alb',
  );
  t.not(albDefault, app('default-class'));
  // The namespace a run fills in does not go on the cluster-scoped IngressClass.
  const w = await nginx(albDefault, ['--namespace', 'web']);
  t.regex(
    window(w).source,
    /AWS ALB with instance targets \(no class, so the default IngressClass nginx\)/,
  );
  t.is(window(w).value, 45);
});
