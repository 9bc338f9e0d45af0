// Envoy Gateway shutdown planning on the real inputs in test/fixtures/gateways/envoy-gateway
// (README.md there says where each file comes from): the exact fields and values to set.
import test from 'ava';
import { planEnvoyGateway } from '../../../fn/mutators/envoy-gateway/index.ts';
import type { EnvoyGatewaySettings } from '../../../fn/mutators/envoy-gateway/index.ts';
import { envoyProxyLocation } from '../../../fn/mutators/envoy-gateway/attachment.ts';
import { planShutdown } from '../../../fn/mutators/envoy-gateway/shutdown.ts';
import { formatPath } from '../../../fn/core/fieldPath.ts';
import { fixture, only, envoyProxies } from './fixtures.ts';
import { fromDefault, fromEvidence, fromFlag } from '../../helpers/sources.ts';

/** The defaults of docs/background.md#the-timing-model: R = 20, B = 5. */
const DEFAULTS: EnvoyGatewaySettings = {
  maxRequest: { value: 20, source: fromDefault('max-request') },
  buffer: { value: 5, source: fromDefault('buffer') },
};

/** Where the grace period goes in an EnvoyProxy: its Deployment patch. */
const GRACE_PATCH_PATH =
  'spec.provider.kubernetes.envoyDeployment.patch.value.' +
  'spec.template.spec.terminationGracePeriodSeconds';

function fields(
  changes: ReadonlyArray<{ path: readonly unknown[]; value: unknown }>,
): Record<string, unknown> {
  return Object.fromEntries(changes.map((c) => [formatPath(c.path as never), c.value]));
}

test('the repository EnvoyProxy behind an NLB with IP targets: minDrainDuration = W = 180 s, drainTimeout = W + R + B = 205 s', (t) => {
  const plan = planEnvoyGateway(fixture('examples-v1.9.0-envoy-proxy-config-nlb.yaml'), DEFAULTS);
  const { target, outcome } = only(plan.outcomes);
  t.is(target.location.label, 'EnvoyProxy envoy-gateway-system/config');
  t.deepEqual(fields(outcome.changes), {
    'spec.shutdown.minDrainDuration': '180s',
    'spec.shutdown.drainTimeout': '205s',
  });
  t.deepEqual(outcome.findings, []);
  t.is(outcome.plan?.grace.value, 505, 'Envoy Gateway writes drainTimeout + 300 itself');
  t.deepEqual(plan.gatewayFindings, []);
  const reason = outcome.changes[0]?.reason ?? '';
  t.true(reason.startsWith('shutdown.minDrainDuration = 180s: M = W = 180.'), reason);
  t.true(
    reason.includes(
      'AWS NLB with IP targets ' +
        '(service.beta.kubernetes.io/aws-load-balancer-nlb-target-type: ip)',
    ),
    reason,
  );
  t.true((outcome.changes[1]?.reason ?? '').includes('D = M + R + B = 180 + 20 + 5 = 205'));
});

test('the repository EnvoyProxy with custom Service annotations: the generated LoadBalancer Service gives the generic window, and drainTimeout stays at its 60 s default', (t) => {
  const { outcome } = only(
    planEnvoyGateway(fixture('examples-v1.9.0-envoy-proxy-config.yaml'), DEFAULTS).outcomes,
  );
  // D = 15 + 20 + 5 = 40 s is below the shutdown manager's own 60 s (internal/cmd/envoy.go@v1.9.0):
  // writing it would lower the drain and the pod's grace, 360 → 340 s (issue #27 item 6).
  t.deepEqual(fields(outcome.changes), { 'spec.shutdown.minDrainDuration': '15s' });
  t.is(outcome.plan?.drainTimeout.value, 60);
  t.is(outcome.plan?.grace.value, 360, 'Envoy Gateway writes the default drainTimeout + 300');
  t.true(
    (outcome.changes[0]?.reason ?? '').includes(
      'type LoadBalancer with no recognised provider annotation',
    ),
  );
});

test('the graceful-shutdown task page: healthCheckFailureDelay 40 s widens the window, minDrainDuration 15s is raised, drainTimeout 90s is kept', (t) => {
  const { outcome } = only(
    planEnvoyGateway(fixture('docs-v1.9.0-graceful-shutdown-gateway-level.yaml'), DEFAULTS)
      .outcomes,
  );
  // H + W = 40 + 15 = 55 > 15; D needed = 55 + 20 + 5 = 80 < 90, so the user's 90s stays.
  t.deepEqual(fields(outcome.changes), { 'spec.shutdown.minDrainDuration': '55s' });
  t.deepEqual(
    outcome.findings.map((f) => [f.code, f.severity]),
    [['EG_MIN_DRAIN_BELOW_WINDOW', 'info']],
  );
  t.regex(
    outcome.findings[0]?.message ?? '',
    /had shutdown\.minDrainDuration 15s \(15 s\).*raised to 55s/,
  );
  t.is(outcome.plan?.drainTimeout.value, 90);
  t.is(outcome.plan?.grace.value, 390);
  t.true(
    (outcome.changes[0]?.reason ?? '').startsWith(
      'shutdown.minDrainDuration = 55s: M = H + W = 40 + 15 = 55.',
    ),
  );
});

test('a user minDrainDuration above the window is kept and drainTimeout is built on it', (t) => {
  const [proxy] = envoyProxies('examples-v1.9.0-envoy-proxy-config-nlb.yaml');
  proxy!.spec.shutdown = { minDrainDuration: '5m' };
  const outcome = planShutdown(envoyProxyLocation(proxy!), {
    ...DEFAULTS,
    drainWindow: { value: 180, source: fromEvidence('NLB') },
  });
  t.deepEqual(fields(outcome.changes), { 'spec.shutdown.drainTimeout': '325s' });
  t.deepEqual(outcome.findings, []);
});

test('a provider in the settings wins over a guessed load balancer, as on the engine path (issue #27 item 1)', (t) => {
  // The example's envoyService names no provider: W would be a 15 s guess.
  const guessed = only(
    planEnvoyGateway(fixture('examples-v1.9.0-envoy-proxy-config.yaml'), DEFAULTS).outcomes,
  );
  t.deepEqual(fields(guessed.outcome.changes)['spec.shutdown.minDrainDuration'], '15s');
  const { outcome } = only(
    planEnvoyGateway(fixture('examples-v1.9.0-envoy-proxy-config.yaml'), {
      ...DEFAULTS,
      provider: { provider: 'aws-nlb-ip', source: fromFlag('lb-provider') },
    }).outcomes,
  );
  t.is(fields(outcome.changes)['spec.shutdown.minDrainDuration'], '180s');
});

test("annotations set through envoyService.patch, as Envoy Gateway's docs show, decide the load balancer (issue #27 item 8)", (t) => {
  const { outcome } = only(
    planEnvoyGateway(fixture('docs-v1.9.0-envoyservice-patch-nlb.yaml'), DEFAULTS).outcomes,
  );
  t.is(fields(outcome.changes)['spec.shutdown.minDrainDuration'], '180s');
  // A JSON merge patch's null removes an annotation the envoyService sets: back to a guess.
  const [proxy] = fixture('examples-v1.9.0-envoy-proxy-config-nlb.yaml').filter(
    (o) => o.kind === 'EnvoyProxy',
  );
  const service = (proxy as { spec: { provider: { kubernetes: { envoyService: object } } } }).spec
    .provider.kubernetes.envoyService as Record<string, unknown>;
  const annotations = Object.fromEntries(
    Object.keys(service['annotations'] as object).map((key) => [key, null]),
  );
  service['patch'] = { type: 'JSONMerge', value: { metadata: { annotations } } };
  const removed = only(planEnvoyGateway([proxy!], DEFAULTS).outcomes);
  t.is(fields(removed.outcome.changes)['spec.shutdown.minDrainDuration'], '15s');
});

test('config W wins over the envoyService annotations', (t) => {
  const { outcome } = only(
    planEnvoyGateway(fixture('examples-v1.9.0-envoy-proxy-config-nlb.yaml'), {
      ...DEFAULTS,
      drainWindow: { value: 60, source: fromEvidence('config loadBalancer.drainWindowSeconds') },
    }).outcomes,
  );
  t.deepEqual(fields(outcome.changes), {
    'spec.shutdown.minDrainDuration': '60s',
    'spec.shutdown.drainTimeout': '85s',
  });
});

test('a grace period lowered through the Deployment patch is raised to drainTimeout + 10; a larger one is kept', (t) => {
  const [proxy] = envoyProxies('examples-v1.9.0-mergepatch.yaml');
  const podSpec = proxy!.spec.provider.kubernetes.envoyDeployment.patch.value.spec.template.spec;
  podSpec.terminationGracePeriodSeconds = 30;
  let outcome = planShutdown(envoyProxyLocation(proxy!), {
    ...DEFAULTS,
    drainWindow: { value: 15, source: fromEvidence('generic') },
  });
  // drainTimeout stays at Envoy Gateway's 60 s default (D = 40 s is below it): the grace must
  // cover the shutdown manager's ready timeout 60 + 10 s.
  t.deepEqual(fields(outcome.changes), {
    'spec.shutdown.minDrainDuration': '15s',
    [GRACE_PATCH_PATH]: 70,
  });
  t.deepEqual(
    outcome.findings.map((f) => f.code),
    ['EG_PATCHED_GRACE_BELOW_DRAIN'],
  );
  podSpec.terminationGracePeriodSeconds = 120;
  outcome = planShutdown(envoyProxyLocation(proxy!), {
    ...DEFAULTS,
    drainWindow: { value: 15, source: fromEvidence('generic') },
  });
  t.is(outcome.changes.length, 1);
  t.is(outcome.plan?.grace.value, 120);
});

test('the mergepatch example without a patched grace: Envoy Gateway derives it, nothing is written for it', (t) => {
  const { outcome } = only(
    planEnvoyGateway(fixture('examples-v1.9.0-mergepatch.yaml'), DEFAULTS).outcomes,
  );
  t.deepEqual(Object.keys(fields(outcome.changes)), ['spec.shutdown.minDrainDuration']);
  t.is(outcome.plan?.grace.formula, 'G = D + 300 = 60 + 300 = 360 (written by Envoy Gateway)');
});

test('values already equal to the plan give no change (a second run changes nothing)', (t) => {
  const [proxy] = envoyProxies('examples-v1.9.0-envoy-proxy-config-nlb.yaml');
  proxy!.spec.shutdown = { minDrainDuration: '180s', drainTimeout: '3m25s' };
  const outcome = planShutdown(envoyProxyLocation(proxy!), {
    ...DEFAULTS,
    drainWindow: { value: 180, source: fromEvidence('NLB') },
  });
  t.deepEqual(outcome.changes, []);
  t.deepEqual(outcome.findings, []);
});

test('a bare number is no duration: an error naming the field and the fix, and nothing set', (t) => {
  const [proxy] = envoyProxies('docs-v1.9.0-graceful-shutdown-gateway-level.yaml');
  proxy!.spec.shutdown.drainTimeout = 90;
  const outcome = planShutdown(envoyProxyLocation(proxy!), {
    ...DEFAULTS,
    drainWindow: { value: 15, source: fromEvidence('generic') },
  });
  t.deepEqual(outcome.changes, []);
  t.deepEqual(
    outcome.findings.map((f) => [f.code, f.severity, formatPath(f.path ?? [])]),
    [['EG_SHUTDOWN_DURATION_UNREADABLE', 'error', 'spec.shutdown.drainTimeout']],
  );
  t.regex(
    outcome.findings[0]?.message ?? '',
    new RegExp(
      String.raw`EnvoyProxy graceful-shutdown-config: ` +
        String.raw`shutdown\.drainTimeout "90" is not a duration .* e\.g\. "60s"`,
    ),
  );
});

test('NLB target-group attributes: a deregistration delay shorter than the drain, and one outliving the grace', (t) => {
  const key = 'service.beta.kubernetes.io/aws-load-balancer-target-group-attributes';
  const [proxy] = envoyProxies('examples-v1.9.0-envoy-proxy-config-nlb.yaml');
  proxy!.spec.provider.kubernetes.envoyService.annotations[key] =
    'deregistration_delay.timeout_seconds=100';
  let { outcome } = only(planEnvoyGateway([proxy!], DEFAULTS).outcomes);
  t.deepEqual(
    outcome.findings.map((f) => f.code),
    ['LB_DEREGISTRATION_TOO_SHORT'],
  );
  proxy!.spec.provider.kubernetes.envoyService.annotations[key] =
    'deregistration_delay.timeout_seconds=600';
  ({ outcome } = only(planEnvoyGateway([proxy!], DEFAULTS).outcomes));
  t.deepEqual(
    outcome.findings.map((f) => f.code),
    ['LB_DEREGISTRATION_OUTLIVES_GRACE'],
  );
  t.regex(
    outcome.findings[0]?.message ?? '',
    /600 s .* longer than the proxy pod's grace period 505 s/,
  );
});
