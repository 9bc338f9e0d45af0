import test from 'ava';
import fc from 'fast-check';
import { recognizeServiceLoadBalancer } from '../helpers/recognize.ts';
import { MAX_INPUT_SECONDS, planTiming, planTimingResult } from '../../fn/timing/model.ts';
import type { Derived, TimingCheckCode, TimingInputs, TimingPlan } from '../../fn/timing/model.ts';
import type { KubeObject } from '../../fn/core/kubeObject.ts';
import { corpusObject } from '../helpers/fixtures.ts';
import { fromEvidence } from '../helpers/sources.ts';

const src = (value: number, source = 'default') => ({ value, source: fromEvidence(source) });
const base = (W: number, R: number, B: number): TimingInputs => ({
  drainWindow: src(W, 'config drainWindowSeconds'),
  maxRequest: src(R),
  buffer: src(B),
});
const codes = (plan: TimingPlan): TimingCheckCode[] => plan.checks.map((c) => c.code);

test("seed thread's worked example: W=180, R=10, B=10 → sleep 180, grace 200", (t) => {
  const plan = planTiming(base(180, 10, 10));
  t.is(plan.preStopSeconds.value, 180);
  t.is(plan.graceSeconds.value, 200);
  t.is(plan.graceSeconds.formula, 'G = S + R + B = 180 + 10 + 10 = 200');
  t.is(plan.minimumDrainSeconds.value, 180);
  t.is(plan.drainDurationSeconds.value, 190);
  t.is(plan.drainDurationSeconds.formula, 'D = W + B = 180 + 10 = 190');
  t.is(plan.sidecarOutlivesSeconds.value, 190);
  t.deepEqual(plan.checks, []);
});

// The Service of the real chart render (test/fixtures/corpus/istio-gateway-1.17.8-nlb.yaml,
// istio/istio manifests/charts/gateway @1.17.8, Apache-2.0), read from the fixture itself.
const corpusNlbService = corpusObject('istio-gateway-1.17.8-nlb.yaml', 'Service') as KubeObject;

test('corpus NLB gateway: LB evidence flows into the plan; delay 200 with termination passes', (t) => {
  const lb = recognizeServiceLoadBalancer(corpusNlbService);
  const tg = lb.targetGroup;
  const inputs: TimingInputs = {
    drainWindow: { value: lb.drainWindowSeconds, source: fromEvidence(lb.evidence) },
    maxRequest: src(10, 'config maxRequestSeconds'),
    buffer: src(10, 'config bufferSeconds'),
    loadBalancer: {
      deregistrationDelaySeconds: {
        value: tg?.deregistrationDelaySeconds ?? 300,
        source: {
          kind: 'target-group',
          isDefault: false,
          where: 'in service.beta.kubernetes.io/aws-load-balancer-target-group-attributes',
        },
      },
      connectionTermination: tg?.connectionTermination ?? false,
    },
  };
  const plan = planTiming(inputs);
  t.is(plan.preStopSeconds.value, 180);
  t.is(plan.graceSeconds.value, 200);
  t.regex(
    plan.preStopSeconds.explanation,
    /Service istio-system\/istio-public-ingressgateway: AWS NLB with IP targets/,
  );
  t.deepEqual(plan.checks, []);

  // The same Service with R = 20 (default): S + R = 200 ≤ 200, grace 205 > 200 → still fine.
  t.deepEqual(codes(planTiming({ ...inputs, maxRequest: src(20) })), []);
  // R = 30: the LB cuts connections after 200 s while the pod drains until 210 s.
  t.deepEqual(codes(planTiming({ ...inputs, maxRequest: src(30) })), [
    'LB_DEREGISTRATION_TOO_SHORT',
  ]);
});

const checkCases: Array<{
  name: string;
  inputs: TimingInputs;
  expected: Array<[TimingCheckCode, 'error' | 'warning' | 'info']>;
  S?: number;
  G?: number;
  D?: number;
}> = [
  {
    name: 'existing grace above the need is kept',
    inputs: { ...base(180, 10, 10), existingGraceSeconds: 300 },
    expected: [],
    S: 180,
    G: 300,
    D: 190,
  },
  {
    name: 'existing grace below the need is raised, no check',
    inputs: { ...base(180, 10, 10), existingGraceSeconds: 30 },
    expected: [],
    G: 200,
  },
  {
    name: 'existing drainDuration below W: raised, info',
    inputs: { ...base(180, 10, 10), existingDrainDurationSeconds: 45 },
    expected: [['DRAIN_DURATION_BELOW_WINDOW', 'info']],
    D: 190,
  },
  {
    name: 'existing drainDuration above W + B is kept',
    inputs: { ...base(180, 10, 10), existingDrainDurationSeconds: 600 },
    expected: [],
    D: 600,
  },
  {
    name: 'existing preStop of unknown length',
    inputs: { ...base(180, 10, 10), existingPreStopSeconds: 'unknown' },
    expected: [['PRESTOP_LENGTH_UNKNOWN', 'warning']],
    S: 180,
    G: 200,
  },
  {
    name: 'existing preStop longer than W is what really sleeps',
    inputs: { ...base(30, 10, 5), existingPreStopSeconds: 60 },
    expected: [],
    S: 60,
    G: 75,
  },
  {
    name: 'existing preStop shorter than W warns',
    inputs: { ...base(180, 10, 10), existingPreStopSeconds: 15 },
    expected: [['PRESTOP_BELOW_WINDOW', 'warning']],
    S: 15,
    G: 35,
  },
  {
    name: 'R = B = 0: sleep not below grace and sidecar wait not below grace',
    inputs: base(30, 0, 0),
    expected: [
      ['PRESTOP_NOT_BELOW_GRACE', 'error'],
      ['SIDECAR_WAIT_NOT_BELOW_GRACE', 'error'],
    ],
    G: 30,
  },
  {
    name: 'B = 0: sidecar wait equals grace',
    inputs: base(30, 10, 0),
    expected: [['SIDECAR_WAIT_NOT_BELOW_GRACE', 'error']],
    G: 40,
  },
  {
    name: 'B = 0 but the manifest grace is longer: fine',
    inputs: { ...base(30, 10, 0), existingGraceSeconds: 60 },
    expected: [],
    G: 60,
  },
  {
    name: 'deregistration delay shorter than S + R',
    inputs: {
      ...base(180, 10, 10),
      loadBalancer: {
        deregistrationDelaySeconds: src(120, 'annotation'),
        connectionTermination: true,
      },
    },
    expected: [['LB_DEREGISTRATION_TOO_SHORT', 'warning']],
  },
  {
    name: 'AWS default 300 s outlives grace without connection termination',
    inputs: {
      ...base(180, 10, 10),
      loadBalancer: { deregistrationDelaySeconds: src(300, 'AWS default') },
    },
    expected: [['LB_DEREGISTRATION_OUTLIVES_GRACE', 'warning']],
  },
  {
    name: 'AWS default 300 s with connection termination is fine',
    inputs: {
      ...base(180, 10, 10),
      loadBalancer: {
        deregistrationDelaySeconds: src(300, 'AWS default'),
        connectionTermination: true,
      },
    },
    expected: [],
  },
];

for (const c of checkCases) {
  test(`planTiming: ${c.name}`, (t) => {
    const plan = planTiming(c.inputs);
    t.deepEqual(
      plan.checks.map((k) => [k.code, k.severity]),
      c.expected,
    );
    if (c.S !== undefined) t.is(plan.preStopSeconds.value, c.S);
    if (c.G !== undefined) t.is(plan.graceSeconds.value, c.G);
    if (c.D !== undefined) t.is(plan.drainDurationSeconds.value, c.D);
  });
}

test('kept grace formula names the manifest value and the computed need', (t) => {
  const plan = planTiming({ ...base(180, 10, 10), existingGraceSeconds: 300 });
  t.is(plan.graceSeconds.formula, 'G = 300 (kept from manifest) ≥ S + R + B = 180 + 10 + 10 = 200');
});

test('messages name the numbers and what to change', (t) => {
  const plan = planTiming({
    ...base(180, 10, 10),
    loadBalancer: { deregistrationDelaySeconds: src(300, 'AWS default (attribute absent)') },
  });
  const message = plan.checks[0]?.message ?? '';
  t.regex(message, /300 s \(AWS default \(attribute absent\)\)/);
  t.regex(message, /G = 200 s/);
  t.regex(message, /deregistration_delay\.connection_termination\.enabled=true/);
});

const invalid: Array<[string, TimingInputs, RegExp]> = [
  ['negative W', base(-1, 10, 10), /drainWindow\.value/],
  ['NaN R', base(180, Number.NaN, 10), /maxRequest\.value/],
  ['fractional B', base(180, 10, 2.5), /buffer\.value/],
  ['huge W', base(MAX_INPUT_SECONDS + 1, 10, 10), /drainWindow\.value/],
  [
    'negative existing grace',
    { ...base(180, 10, 10), existingGraceSeconds: -5 },
    /existingGraceSeconds/,
  ],
  [
    'fractional existing preStop',
    { ...base(180, 10, 10), existingPreStopSeconds: 1.5 },
    /existingPreStopSeconds/,
  ],
  [
    'infinite existing drain',
    { ...base(180, 10, 10), existingDrainDurationSeconds: Infinity },
    /existingDrainDurationSeconds/,
  ],
  [
    'huge deregistration delay',
    { ...base(180, 10, 10), loadBalancer: { deregistrationDelaySeconds: src(1e9) } },
    /loadBalancer\.deregistrationDelaySeconds/,
  ],
  [
    'empty source',
    { ...base(180, 10, 10), buffer: { value: 5, source: fromEvidence('') } },
    /buffer\.source/,
  ],
];

for (const [name, inputs, names] of invalid) {
  test(`planTiming rejects ${name} with a RangeError naming the input`, (t) => {
    const error = t.throws(() => planTiming(inputs), { instanceOf: RangeError });
    t.regex(error?.message ?? '', names);
  });
}

/**
 * Checks the arithmetic a formula shows: every `a + b (+ c) = n` and `max(a, b) = n` holds,
 * and the formula ends in the value, or states it as kept (`= value (kept`).
 */
function assertFormula(t: { true: (v: boolean, m?: string) => void }, d: Derived): void {
  for (const m of d.formula.matchAll(/(\d+(?: \+ \d+)+) = (\d+)/g)) {
    const sum = (m[1] ?? '').split(' + ').reduce((a, b) => a + Number(b), 0);
    t.true(sum === Number(m[2]), `${d.formula}: ${m[0]}`);
  }
  for (const m of d.formula.matchAll(/max\((\d+), (\d+)\) = (\d+)/g)) {
    t.true(Math.max(Number(m[1]), Number(m[2])) === Number(m[3]), `${d.formula}: ${m[0]}`);
  }
  t.true(
    d.formula.endsWith(`= ${d.value}`) || d.formula.includes(`= ${d.value} (kept`),
    `${d.formula} shows ${d.value}`,
  );
}

const seconds = fc.integer({ min: 0, max: MAX_INPUT_SECONDS });
const validInputs: fc.Arbitrary<TimingInputs> = fc.record(
  {
    drainWindow: seconds.map((v) => src(v, 'config drainWindowSeconds')),
    maxRequest: seconds.map((v) => src(v)),
    buffer: seconds.map((v) => src(v)),
    existingGraceSeconds: seconds,
    existingPreStopSeconds: fc.oneof(seconds, fc.constant('unknown' as const)),
    existingDrainDurationSeconds: seconds,
    loadBalancer: fc.record(
      {
        deregistrationDelaySeconds: fc
          .integer({ min: 0, max: 3600 })
          .map((v) => src(v, 'annotation')),
        connectionTermination: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['drainWindow', 'maxRequest', 'buffer'] },
);

test('property: the plan is safe and explains itself for every valid input', (t) => {
  fc.assert(
    fc.property(validInputs, (inputs) => {
      const plan = planTiming(inputs);
      const W = inputs.drainWindow.value;
      const R = inputs.maxRequest.value;
      const B = inputs.buffer.value;
      const S = plan.preStopSeconds.value;
      const G = plan.graceSeconds.value;
      const D = plan.drainDurationSeconds.value;
      const ok =
        G >= S + R + B &&
        G >= S + R &&
        G >= (inputs.existingGraceSeconds ?? 0) &&
        D >= W &&
        D >= (inputs.existingDrainDurationSeconds ?? 0) &&
        plan.minimumDrainSeconds.value >= S &&
        plan.minimumDrainSeconds.value >= W &&
        plan.sidecarOutlivesSeconds.value === S + R &&
        (typeof inputs.existingPreStopSeconds === 'number'
          ? S === inputs.existingPreStopSeconds
          : S === W) &&
        S + R < G === !codes(plan).includes('SIDECAR_WAIT_NOT_BELOW_GRACE') &&
        S < G === !codes(plan).includes('PRESTOP_NOT_BELOW_GRACE');
      if (!ok) return false;
      for (const d of [
        plan.preStopSeconds,
        plan.graceSeconds,
        plan.minimumDrainSeconds,
        plan.drainDurationSeconds,
        plan.sidecarOutlivesSeconds,
      ]) {
        let good = true;
        assertFormula(
          {
            true: (v) => {
              if (!v) good = false;
            },
          },
          d,
        );
        if (!good) return false;
      }
      return true;
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test('property: invalid numbers always throw RangeError', (t) => {
  const bad = fc.oneof(
    fc.integer({ max: -1 }),
    fc.integer({ min: MAX_INPUT_SECONDS + 1 }),
    fc.double({ noInteger: true }),
    fc.constant(Number.NaN),
  );
  fc.assert(
    fc.property(bad, fc.integer({ min: 0, max: 2 }), (value, which) => {
      const inputs = base(180, 20, 5);
      if (which === 0) inputs.drainWindow = src(value);
      if (which === 1) inputs.maxRequest = src(value);
      // Manifest values are facts with no upper cap (Kubernetes takes any int64 grace).
      if (which === 2) {
        if (value > MAX_INPUT_SECONDS) return true;
        inputs.existingGraceSeconds = value;
      }
      try {
        planTiming(inputs);
        return false;
      } catch (error) {
        return error instanceof RangeError;
      }
    }),
  );
  t.pass();
});

test('a manifest grace above a day is a fact: kept, never lowered to the settings cap', (t) => {
  const plan = planTiming({ ...base(180, 20, 5), existingGraceSeconds: 1_000_000 });
  t.is(plan.graceSeconds.value, 1_000_000);
});

test('planTimingResult says which input is out of range instead of throwing; a plan otherwise', (t) => {
  const bad = planTimingResult({ ...base(180, 10, 10), existingGraceSeconds: -1 });
  t.deepEqual(bad, {
    ok: false,
    problem:
      'planTiming: existingGraceSeconds must be a whole number of seconds, 0 or more, got -1',
  });
  const good = planTimingResult(base(180, 10, 10));
  t.true(good.ok);
  t.deepEqual(good.ok ? good.plan : undefined, planTiming(base(180, 10, 10)));
});
