// The Traefik logic on Traefik's own plain manifests (docs at v3.7.9 and v2.11.53), and on those
// real objects changed the way users run Traefik: a config file, TRAEFIK_* variables, a preStop,
// a UDP entry point, flags written `--name value`, an unreadable value.
import test from 'ava';
import type { FieldPath } from '../../../fn/core/fieldPath.ts';
import { planTraefik } from '../../../fn/mutators/traefik/decide.ts';
import type { TraefikSettings } from '../../../fn/mutators/traefik/decide.ts';
import type { KubeObject } from '../../../fn/core/kubeObject.ts';
import {
  argsAfter,
  copy,
  find,
  objects,
  settingsFromService,
  splitArgChanges,
} from './fixtures.ts';
import { fromDefault, fromEvidence, fromFlag } from '../../helpers/sources.ts';

const TEMPLATE: FieldPath = ['spec', 'template'];
const CONTAINER: FieldPath = [
  'spec',
  'template',
  'spec',
  'containers',
  { key: 'name', equals: 'traefik' },
];
const GRACE: FieldPath = ['spec', 'template', 'spec', 'terminationGracePeriodSeconds'];

/** W = 180 as an NLB would give, R = 20, B = 5, named as the engine names settings. */
const NLB: TraefikSettings = {
  drainWindow: { value: 180, source: fromFlag('drain-window') },
  maxRequest: { value: 20, source: fromDefault('max-request') },
  buffer: { value: 5, source: fromDefault('buffer') },
};

function gatewayDoc(): { deployment: KubeObject; service: KubeObject } {
  const all = objects('docs-gateway-lb-svc-v3.7.9.yaml');
  return {
    deployment: copy(find(all, 'Deployment', 'traefik')),
    service: find(all, 'Service', 'traefik'),
  };
}

function container(deployment: KubeObject): Record<string, unknown> {
  return deployment.spec.template.spec.containers[0];
}

test("Traefik's own v3.7.9 Gateway API example: flags appended as items of their own (every argument is a flag); no grace in the manifest, G = 15 + 20 + 5 = 40 written", (t) => {
  const { deployment, service } = gatewayDoc();
  const outcome = planTraefik(
    { object: deployment, templatePath: TEMPLATE },
    settingsFromService(service),
  );
  t.is(outcome.source, 'flags');
  t.deepEqual(outcome.findings, []);
  t.deepEqual(
    outcome.changes.map((c) => [c.path, c.value]),
    [
      [
        [...CONTAINER, 'args', 4],
        '--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=15s',
      ],
      [[...CONTAINER, 'args', 5], '--entryPoints.web.transport.lifeCycle.graceTimeOut=20s'],
      [
        [...CONTAINER, 'args', 6],
        '--entryPoints.websecure.transport.lifeCycle.requestAcceptGraceTimeout=15s',
      ],
      [[...CONTAINER, 'args', 7], '--entryPoints.websecure.transport.lifeCycle.graceTimeOut=20s'],
      [GRACE, 40],
    ],
  );
});

test("Traefik's own v2.11.53 CRD example: `--entryPoints.web.Address` read case-insensitively and spelled as written; the implicit `traefik` entry point (--api.insecure) is not created by a flag", (t) => {
  const all = objects('docs-crd-acme-deployments-v2.11.53.yaml');
  t.deepEqual(
    planTraefik({ object: find(all, 'Deployment', 'whoami'), templatePath: TEMPLATE }, NLB),
    { changes: [], findings: [] },
  );
  const traefik = find(all, 'Deployment', 'traefik');
  const outcome = planTraefik({ object: traefik, templatePath: TEMPLATE }, NLB);
  t.deepEqual(outcome.findings, []);
  t.deepEqual(argsAfter(outcome, container(traefik).args), [
    '--api.insecure',
    '--accesslog',
    '--entryPoints.web.Address=:8000',
    '--entryPoints.websecure.Address=:4443',
    '--providers.kubernetescrd',
    '--certificatesresolvers.myresolver.acme.tlschallenge',
    '--certificatesresolvers.myresolver.acme.email=foo@you.com',
    '--certificatesresolvers.myresolver.acme.storage=acme.json',
    '--certificatesresolvers.myresolver.acme.caserver=' +
      'https://acme-staging-v02.api.letsencrypt.org/directory',
    '--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=180s',
    '--entryPoints.web.transport.lifeCycle.graceTimeOut=20s',
    '--entryPoints.websecure.transport.lifeCycle.requestAcceptGraceTimeout=180s',
    '--entryPoints.websecure.transport.lifeCycle.graceTimeOut=20s',
  ]);
  t.deepEqual(splitArgChanges(outcome.changes).others[0], {
    path: GRACE,
    value: 205,
    reason:
      'terminationGracePeriodSeconds = 205: G = S + R + B = 180 + 20 + 5 = ' +
      '205. The grace countdown starts at termination, so it must hold the ' +
      'time Traefik keeps accepting (180 s) and waits for requests in flight ' +
      '(20 s), and the buffer (5 s, default; set --buffer to change).\n' +
      'W: flag --drain-window\nR: default; set --max-request to change\n' +
      'B: default; set --buffer to change',
  });
});

test('--configFile: Traefik ignores every other flag, so nothing is changed and the values to put in the file are named', (t) => {
  const { deployment } = gatewayDoc();
  container(deployment).args = [
    '--configFile=/config/traefik.yml',
    '--entryPoints.web.address=:80',
  ];
  const outcome = planTraefik({ object: deployment, templatePath: TEMPLATE }, NLB);
  t.deepEqual(outcome.changes, []);
  t.is(outcome.source, 'file');
  t.deepEqual(
    outcome.findings.map((f) => [f.severity, f.code, f.path]),
    [['warning', 'TRAEFIK_STATIC_CONFIG_FILE', CONTAINER]],
  );
  t.true(outcome.findings[0]!.message.includes('(args: --configFile=/config/traefik.yml)'));
  t.true(
    outcome.findings[0]!.message.includes(
      'requestAcceptGraceTimeout=180s and graceTimeOut=20s on every TCP ' +
        'entry point, and terminationGracePeriodSeconds ≥ 205',
    ),
  );
});

test('a volume mounted at /etc/traefik: Traefik finds traefik.yml there before it reads flags; nothing is changed', (t) => {
  const { deployment } = gatewayDoc();
  container(deployment).volumeMounts = [{ name: 'config', mountPath: '/etc/traefik' }];
  const outcome = planTraefik({ object: deployment, templatePath: TEMPLATE }, NLB);
  t.deepEqual(outcome.changes, []);
  t.is(outcome.findings[0]?.code, 'TRAEFIK_STATIC_CONFIG_FILE');
  t.true(outcome.findings[0]!.message.includes('volume "config" at /etc/traefik'));
});

test('TRAEFIK_* variables and no args: the settings go into variables (a flag would switch Traefik to flags and drop them all)', (t) => {
  const { deployment } = gatewayDoc();
  delete container(deployment).args;
  container(deployment).env = [
    { name: 'TRAEFIK_ENTRYPOINTS_WEB_ADDRESS', value: ':80' },
    { name: 'TRAEFIK_ENTRYPOINTS_WEB_TRANSPORT_LIFECYCLE_GRACETIMEOUT', value: '45' },
    { name: 'TRAEFIK_PROVIDERS_KUBERNETESGATEWAY', value: 'true' },
  ];
  const outcome = planTraefik({ object: deployment, templatePath: TEMPLATE }, NLB);
  t.is(outcome.source, 'env');
  t.deepEqual(
    outcome.changes.map((c) => [c.path, c.value]),
    [
      [
        [
          ...CONTAINER,
          'env',
          {
            key: 'name',
            equals: 'TRAEFIK_ENTRYPOINTS_WEB_TRANSPORT_LIFECYCLE_REQUESTACCEPTGRACETIMEOUT',
          },
          'value',
        ],
        '180s',
      ],
      [GRACE, 230],
    ],
  );
  t.deepEqual(
    outcome.findings.map((f) => f.code),
    ['TRAEFIK_LIFECYCLE_KEPT'],
  );
  t.is(
    outcome.changes[1]?.reason.split('\n')[0]?.split('. ')[0],
    'terminationGracePeriodSeconds = 230: G = S′ + R′ (entry point WEB) + B = 180 + 45 + 5 = 230',
  );
});

test('no args and no TRAEFIK_* variables: the entry points cannot be known (a file in the image, or the default "http" on :80); nothing is changed', (t) => {
  const { deployment } = gatewayDoc();
  delete container(deployment).args;
  const outcome = planTraefik({ object: deployment, templatePath: TEMPLATE }, NLB);
  t.deepEqual(outcome.changes, []);
  t.deepEqual(
    outcome.findings.map((f) => [f.severity, f.code, f.path]),
    [['warning', 'TRAEFIK_ENTRY_POINTS_UNKNOWN', [...CONTAINER, 'args']]],
  );
});

test('flags but no entry point address: Traefik makes its default "http" entry point; a lifeCycle flag would define an entry point without an address, so nothing is changed', (t) => {
  const { deployment } = gatewayDoc();
  container(deployment).args = ['--providers.kubernetesgateway', '--log.level', 'DEBUG'];
  const outcome = planTraefik({ object: deployment, templatePath: TEMPLATE }, NLB);
  t.deepEqual(outcome.changes, []);
  t.is(outcome.findings[0]?.code, 'TRAEFIK_ENTRY_POINTS_UNKNOWN');
});

test('a preStop sleep the user wrote is kept and counted: Traefik gets SIGTERM after it, so S = W − P', (t) => {
  const { deployment } = gatewayDoc();
  container(deployment).lifecycle = {
    preStop: { exec: { command: ['/bin/sh', '-c', 'sleep 30'] } },
  };
  const outcome = planTraefik({ object: deployment, templatePath: TEMPLATE }, NLB);
  const args = argsAfter(outcome, container(deployment).args);
  t.true(args.includes('--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=150s'));
  const [grace] = splitArgChanges(outcome.changes).others;
  t.is(grace?.value, 205);
  t.is(
    grace?.reason.split('\n')[0]?.split('. ')[0],
    'terminationGracePeriodSeconds = 205: G = P + S + R + B = 30 + 150 + 20 + 5 = 205',
  );
  t.deepEqual(
    outcome.findings.map((f) => [f.severity, f.code]),
    [['info', 'TRAEFIK_PRESTOP_KEPT']],
  );
  t.false(outcome.changes.some((c) => c.path.includes('lifecycle')));
});

test('a preStop whose length cannot be read: kept, counted as 0 and reported', (t) => {
  const { deployment } = gatewayDoc();
  container(deployment).lifecycle = { preStop: { httpGet: { path: '/drain', port: 8080 } } };
  const outcome = planTraefik({ object: deployment, templatePath: TEMPLATE }, NLB);
  t.deepEqual(
    outcome.findings.map((f) => [f.severity, f.code, f.path]),
    [['warning', 'TRAEFIK_PRESTOP_LENGTH_UNKNOWN', [...CONTAINER, 'lifecycle', 'preStop']]],
  );
  t.is(splitArgChanges(outcome.changes).others[0]?.value, 205);
});

test('a UDP entry point is left alone and its shutdown, after the TCP ones, counted in G (Traefik default graceTimeOut 10 s)', (t) => {
  const { deployment } = gatewayDoc();
  container(deployment).args = [
    '--entryPoints.web.address=:80',
    '--entryPoints.dns.address=:53/udp',
  ];
  const outcome = planTraefik({ object: deployment, templatePath: TEMPLATE }, NLB);
  t.deepEqual(argsAfter(outcome, container(deployment).args), [
    '--entryPoints.web.address=:80',
    '--entryPoints.dns.address=:53/udp',
    '--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=180s',
    '--entryPoints.web.transport.lifeCycle.graceTimeOut=20s',
  ]);
  const [grace] = splitArgChanges(outcome.changes).others;
  t.is(grace?.value, 215);
  t.is(
    grace?.reason.split('\n')[0]?.split('. ')[0],
    'terminationGracePeriodSeconds = 215: G = S + R + UDP entry point dns ' +
      '+ B = 180 + 20 + (0 + 10) + 5 = 215',
  );
  t.deepEqual(
    outcome.findings.map((f) => f.code),
    ['TRAEFIK_UDP_ENTRY_POINT'],
  );
});

test('`--name value` flags are read and the value replaced where it is; a value Traefik cannot read is left and reported', (t) => {
  const { deployment } = gatewayDoc();
  container(deployment).args = [
    '--entryPoints.web.address',
    ':80',
    '--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout',
    '60',
    '--entryPoints.web.transport.lifeCycle.graceTimeOut=ten seconds',
  ];
  const outcome = planTraefik({ object: deployment, templatePath: TEMPLATE }, NLB);
  // Only the value's own item changes.
  t.deepEqual(
    splitArgChanges(outcome.changes).items.map((c) => [c.path.at(-1), c.value]),
    [[3, '180s']],
  );
  t.deepEqual(argsAfter(outcome, container(deployment).args), [
    '--entryPoints.web.address',
    ':80',
    '--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout',
    '180s',
    '--entryPoints.web.transport.lifeCycle.graceTimeOut=ten seconds',
  ]);
  t.deepEqual(
    outcome.findings.map((f) => [f.severity, f.code]),
    [['warning', 'TRAEFIK_LIFECYCLE_UNREADABLE']],
  );
  t.true(
    outcome.findings[0]!.message.startsWith(
      'entryPoints.web.transport.lifeCycle.graceTimeOut is "ten seconds"',
    ),
  );
});

test('two Traefik containers in one pod: left alone with a warning', (t) => {
  const { deployment } = gatewayDoc();
  deployment.spec.template.spec.containers.push({ ...container(deployment), name: 'traefik-2' });
  const outcome = planTraefik({ object: deployment, templatePath: TEMPLATE }, NLB);
  t.deepEqual(outcome.changes, []);
  t.is(outcome.findings[0]?.code, 'TRAEFIK_SEVERAL_CONTAINERS');
});

test("W out of the model's range: an error finding, nothing changed", (t) => {
  const { deployment } = gatewayDoc();
  const outcome = planTraefik(
    { object: deployment, templatePath: TEMPLATE },
    { ...NLB, drainWindow: { value: 1.5, source: fromEvidence('config drainWindowSeconds') } },
  );
  t.deepEqual(outcome.changes, []);
  t.deepEqual(outcome.findings, [
    {
      severity: 'error',
      code: 'TRAEFIK_TIMING_INPUT',
      message:
        'No Traefik drain plan: W must be a whole number of seconds from 0 to ' +
        '86400, got 1.5 (config drainWindowSeconds).',
    },
  ]);
});

test('args whose flags end before the list does (`--`, then an argument Traefik does not read as a flag): the new flags must go before it, so the whole list is set as before', (t) => {
  const { deployment } = gatewayDoc();
  container(deployment).args = ['--entryPoints.web.address=:80', '--', 'extra'];
  const outcome = planTraefik({ object: deployment, templatePath: TEMPLATE }, NLB);
  t.deepEqual(outcome.changes[0]?.path, [...CONTAINER, 'args']);
  t.deepEqual(outcome.changes[0]?.value, [
    '--entryPoints.web.address=:80',
    '--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=180s',
    '--entryPoints.web.transport.lifeCycle.graceTimeOut=20s',
    '--',
    'extra',
  ]);
});
