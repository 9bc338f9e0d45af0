// The Traefik logic on real renders of traefik/traefik-helm-chart
// (test/fixtures/gateways/traefik/README.md): v41.3.0 (current) and v40.3.0 (previous major),
// default and behind an AWS NLB with IP targets, and with the chart's own
// ports.<name>.transport.lifeCycle values.
import test from 'ava';
import { getAt } from '../../../fn/core/fieldPath.ts';
import { planTraefik } from '../../../fn/mutators/traefik/decide.ts';
import type { TraefikOutcome } from '../../../fn/mutators/traefik/decide.ts';
import { argsAfter, find, objects, settingsFromService, splitArgChanges } from './fixtures.ts';

const TEMPLATE = ['spec', 'template'] as const;
const ARGS = ['spec', 'template', 'spec', 'containers', { key: 'name', equals: 'traefik' }, 'args'];
const GRACE = ['spec', 'template', 'spec', 'terminationGracePeriodSeconds'];

function run(file: string): { outcome: TraefikOutcome; args: unknown } {
  const all = objects(file);
  const deployment = find(all, 'Deployment', 'traefik');
  const outcome = planTraefik(
    { object: deployment, templatePath: TEMPLATE },
    settingsFromService(find(all, 'Service', 'traefik')),
  );
  return { outcome, args: getAt(deployment, ARGS) };
}

/** The chart's args (v40.3.0 and v41.3.0 render the same ones), then the lifeCycle flags each entry
 * point gets, appended in entry point order (items of their own, so the list's comments stay). */
function chartArgs(accept: string, grace: string): string[] {
  const lifecycle = (ep: string): string[] => [
    `--entryPoints.${ep}.transport.lifeCycle.requestAcceptGraceTimeout=${accept}`,
    `--entryPoints.${ep}.transport.lifeCycle.graceTimeOut=${grace}`,
  ];
  return [
    ...CHART_ARGS,
    ...lifecycle('metrics'),
    ...lifecycle('traefik'),
    ...lifecycle('web'),
    ...lifecycle('websecure'),
  ];
}

const CHART_ARGS = [
  '--entryPoints.metrics.address=:9100/tcp',
  '--entryPoints.traefik.address=:8080/tcp',
  '--entryPoints.web.address=:8000/tcp',
  '--entryPoints.websecure.address=:8443/tcp',
  '--api.dashboard=true',
  '--ping=true',
  '--metrics.prometheus=true',
  '--metrics.prometheus.entrypoint=metrics',
  '--providers.kubernetescrd',
  '--providers.kubernetescrd.allowEmptyServices=true',
  '--providers.kubernetesingress',
  '--providers.kubernetesingress.allowEmptyServices=true',
  '--providers.kubernetesingress.ingressendpoint.publishedservice=traefik/traefik',
  '--entryPoints.websecure.http.tls=true',
  '--log.level=INFO',
];

for (const version of ['41.3.0', '40.3.0']) {
  test(`chart ${version} behind an AWS NLB (IP targets): every TCP entry point accepts for W = 180 s, then gives R = 20 s; grace 60 → 205`, (t) => {
    const { outcome, args: before } = run(`chart-${version}-nlb.yaml`);
    t.is(outcome.source, 'flags');
    t.is(outcome.container, 'traefik');
    // The NLB's target group keeps routing established connections for AWS's default 300 s,
    // longer than G: the model's load-balancer check says so (a setting on the load balancer,
    // not the pod).
    t.deepEqual(outcome.findings, [
      {
        severity: 'warning',
        code: 'LB_DEREGISTRATION_OUTLIVES_GRACE',
        message:
          "The load balancer's deregistration delay is 300 s (AWS default " +
          'deregistration delay (no target-group attribute set)), longer than ' +
          'terminationGracePeriodSeconds G = 205 s, and connection termination ' +
          'is off: for 95 s it keeps routing established connections to a pod ' +
          'that is gone. Set deregistration_delay.connection_termination.enabled=true, ' +
          'or deregistration_delay.timeout_seconds=205.',
      },
    ]);
    const { items, others } = splitArgChanges(outcome.changes);
    t.is(items.length, 8);
    t.deepEqual(
      items.map((c) => c.path),
      items.map((_, k) => [...ARGS, CHART_ARGS.length + k]),
    );
    t.deepEqual(argsAfter(outcome, before), chartArgs('180s', '20s'));
    const [args] = items;
    const [grace] = others;
    t.is(others.length, 1);
    t.deepEqual(grace?.path, GRACE);
    t.is(grace?.value, 205);
    t.is(
      grace?.reason.split('\n')[0],
      'terminationGracePeriodSeconds = 205: G = S + R + B = 180 + 20 + 5 = ' +
        '205. The grace countdown starts at termination, so it must hold the ' +
        'time Traefik keeps accepting (180 s) and waits for requests in flight ' +
        '(20 s), and the buffer (5 s, default; set --buffer to change).',
    );
    t.true(
      args!.reason.includes(
        'W: Service traefik/traefik: AWS NLB with IP targets ' +
          '(service.beta.kubernetes.io/aws-load-balancer-nlb-target-type: ip)',
      ),
    );
    t.true(
      args!.reason.startsWith(
        '--entryPoints.metrics.transport.lifeCycle.requestAcceptGraceTimeout = 180s: ' +
          'S = W = 180.',
      ),
    );
    // Never a preStop: the args and the grace period are all it writes.
    t.false(outcome.changes.some((c) => c.path.includes('lifecycle')));
  });
}

test("chart 41.3.0 default (a LoadBalancer Service, no provider annotation): W = 15, the chart's grace of 60 s covers 15 + 20 + 5 and is kept", (t) => {
  const { outcome, args: before } = run('chart-41.3.0-default.yaml');
  t.is(outcome.changes.length, 8);
  t.deepEqual(argsAfter(outcome, before), chartArgs('15s', '20s'));
  t.deepEqual(outcome.findings, [
    {
      severity: 'info',
      code: 'TRAEFIK_GRACE_KEPT',
      path: GRACE,
      message:
        "terminationGracePeriodSeconds 60 is more than the model's G = S + R + " +
        'B = 15 + 20 + 5 = 40; it is kept (never lowered).',
    },
  ]);
});

test("chart 41.3.0 with its own lifeCycle values: larger ones kept, the smaller graceTimeOut raised in place, missing ones added; the chart's grace of 400 s kept", (t) => {
  const { outcome, args: before } = run('chart-41.3.0-nlb-lifecycle.yaml');
  t.deepEqual(
    (before as string[]).filter((a) => a.includes('lifeCycle')),
    [
      '--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=300s',
      '--entryPoints.web.transport.lifeCycle.graceTimeOut=5',
      '--entryPoints.websecure.transport.lifeCycle.graceTimeOut=1m',
    ],
  );
  // web's graceTimeOut replaced in its own item (index 14); the missing flags appended.
  t.deepEqual(
    outcome.changes.map((c) => c.path.at(-1)),
    [14, 18, 19, 20, 21, 22],
  );
  t.deepEqual(argsAfter(outcome, before), [
    // The chart's own flags up to its publishedservice one, as in every render.
    ...CHART_ARGS.slice(0, 13),
    '--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=300s',
    '--entryPoints.web.transport.lifeCycle.graceTimeOut=20s',
    '--entryPoints.websecure.http.tls=true',
    '--entryPoints.websecure.transport.lifeCycle.graceTimeOut=1m',
    '--log.level=INFO',
    '--entryPoints.metrics.transport.lifeCycle.requestAcceptGraceTimeout=180s',
    '--entryPoints.metrics.transport.lifeCycle.graceTimeOut=20s',
    '--entryPoints.traefik.transport.lifeCycle.requestAcceptGraceTimeout=180s',
    '--entryPoints.traefik.transport.lifeCycle.graceTimeOut=20s',
    '--entryPoints.websecure.transport.lifeCycle.requestAcceptGraceTimeout=180s',
  ]);
  t.true(
    outcome.changes[0]!.reason.startsWith(
      '--entryPoints.web.transport.lifeCycle.graceTimeOut = 20s: graceTimeOut = R = 20.',
    ),
  );
  t.true(outcome.changes[0]!.reason.split('\n')[0]!.endsWith(' (was 5)'));
  t.deepEqual(
    outcome.findings.map((f) => [f.severity, f.code, f.message]),
    [
      [
        'info',
        'TRAEFIK_LIFECYCLE_KEPT',
        'entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout is 300s ' +
          "(300 s), more than the model's S = W = 180; it is kept, and the grace " +
          'period covers it.',
      ],
      [
        'info',
        'TRAEFIK_LIFECYCLE_KEPT',
        'entryPoints.websecure.transport.lifeCycle.graceTimeOut is 1m (60 s), ' +
          "more than the model's graceTimeOut = R = 20; it is kept, and the " +
          'grace period covers it.',
      ],
      [
        'info',
        'TRAEFIK_GRACE_KEPT',
        "terminationGracePeriodSeconds 400 is more than the model's G = S′ + " +
          'R′ (entry point web) + B = 300 + 20 + 5 = 325; it is kept (never ' +
          'lowered).',
      ],
      // The chart's 300 s of accepting outlast the NLB's default deregistration delay (300 s):
      // the model's check, on web's 300 + 20 (the longest entry point), not 300 + websecure's 60.
      [
        'warning',
        'LB_DEREGISTRATION_TOO_SHORT',
        "The load balancer's deregistration delay is 300 s (AWS default " +
          'deregistration delay (no target-group attribute set)), shorter than ' +
          "the pod's drain S + R = 320 s: it cuts connections still in flight. " +
          'Set deregistration_delay.timeout_seconds between 320 and 400 in the ' +
          'target-group attributes annotation.',
      ],
    ],
  );
  // The grace period is built on the longest entry point: web, 300 s accepting + 20 s in flight.
  t.is(outcome.plan?.grace.value, 325);
});

test("chart 41.3.0 with its lifeCycle values and a smaller grace: G is raised to cover the user's 300 s", (t) => {
  const all = objects('chart-41.3.0-nlb-lifecycle.yaml');
  const deployment = structuredClone(find(all, 'Deployment', 'traefik'));
  deployment.spec.template.spec.terminationGracePeriodSeconds = 200;
  const outcome = planTraefik(
    { object: deployment, templatePath: TEMPLATE },
    settingsFromService(find(all, 'Service', 'traefik')),
  );
  const grace = outcome.changes.find((c) => c.path.at(-1) === 'terminationGracePeriodSeconds');
  t.is(grace?.value, 325);
  t.is(
    grace?.reason.split('\n')[0]?.split('. ')[0],
    'terminationGracePeriodSeconds = 325: G = S′ + R′ (entry point web) + B = 300 + 20 + 5 = 325',
  );
});

test('a second run over the output changes nothing (idempotent on the chart render)', (t) => {
  const all = objects('chart-41.3.0-nlb.yaml');
  const deployment = structuredClone(find(all, 'Deployment', 'traefik'));
  const settings = settingsFromService(find(all, 'Service', 'traefik'));
  const first = planTraefik({ object: deployment, templatePath: TEMPLATE }, settings);
  const container = deployment.spec.template.spec.containers[0];
  container.args = argsAfter(first, container.args);
  const { others } = splitArgChanges(first.changes);
  for (const change of others)
    deployment.spec.template.spec.terminationGracePeriodSeconds = change.value;
  const second = planTraefik({ object: deployment, templatePath: TEMPLATE }, settings);
  t.deepEqual(second.changes, []);
  t.deepEqual(second.findings, first.findings);
});
