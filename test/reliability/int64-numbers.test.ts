/**
 * Issue #33 item 1: numbers the API server takes never crash kube-graceful, and the ones it
 * refuses are an exit-2 message naming document, line and field. `terminationGracePeriodSeconds`
 * is an int64 (k8s.io/api core/v1 types.go): 9223372036854775807 is a legal manifest, which yaml
 * reads as a bigint; a fraction, .nan, .inf or 2^63 is refused by the API server's decoder.
 *
 * Inputs: the istio/gateway 1.30.3 chart rendered behind an NLB (a gateway kube-graceful drains)
 * and a plain Deployment with a Service (an app it gives a preStop), with the grace or the hook
 * replaced.
 */
import test from 'ava';
import { corpus } from '../helpers/fixtures.ts';
import { NO_MUTATORS, runCliAsync } from '../helpers/cli.ts';
import type { CliRun } from '../helpers/cli.ts';

const GATEWAY = corpus('istio-gateway-1.30.3-nlb.yaml');
const GRACE_LINE = /^(\s+terminationGracePeriodSeconds:) .*$/m;
const COMMANDS: ReadonlyArray<readonly string[]> = [
  [],
  ['explain'],
  ['explain', '-o', 'json'],
  ['explain', '-o', 'markdown'],
  ['explain', '-o', 'svg'],
  ['explain', '-o', 'html'],
  ['check'],
  ['patches'],
];

/** Runs every command on one input, side by side. */
async function all(
  commands: ReadonlyArray<readonly string[]>,
  input: string,
): Promise<Array<[readonly string[], CliRun]>> {
  return Promise.all(
    commands.map(async (args) => [args, await runCliAsync(args, input)] as const),
  ).then((runs) => runs.map(([args, run]) => [args, run]));
}

function gatewayWithGrace(value: string): string {
  if (!GRACE_LINE.test(GATEWAY)) throw new Error('the fixture has no grace period line');
  return GATEWAY.replace(GRACE_LINE, `$1 ${value}`);
}

const app = (grace: string, preStop: string) => `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
    spec:
      terminationGracePeriodSeconds: ${grace}
      containers:
      - name: web
        image: nginx:1.27
        ports: [{containerPort: 8080}]
        lifecycle:
          preStop: ${preStop}
`;

const INT64 = ['9223372036854775807', '9007199254740993', '-9223372036854775808', '-5', '0'];

for (const value of INT64) {
  test(`an int64 grace period ${value} passes every command without an internal error`, async (t) => {
    const input = gatewayWithGrace(value);
    for (const [args, run] of await all(COMMANDS, input)) {
      // 0, or 1 where `check` finds the stream not yet patched: never 2, 70 or a hang (null).
      t.true(
        run.status === 0 || run.status === 1,
        `${args.join(' ')}: ${run.status} ${run.stderr}`,
      );
      t.notRegex(run.stderr, /E_INTERNAL|BigInt/, args.join(' '));
    }
    const off = await runCliAsync([...NO_MUTATORS], input);
    t.is(off.status, 0, off.stderr);
    t.is(off.stdout, input, 'every mutator off: the stream passes through byte for byte');
  });
}

test('a grace period beyond 2^53 is kept, digit for digit, and never lowered to the plan', async (t) => {
  const run = await runCliAsync([], gatewayWithGrace('9223372036854775807'));
  t.is(run.status, 0, run.stderr);
  t.regex(run.stdout, /^\s+terminationGracePeriodSeconds: 9223372036854775807$/m);
  t.regex(run.stdout, /name: MINIMUM_DRAIN_DURATION/, 'the drain is still planned');
  const explain = await runCliAsync(['explain'], gatewayWithGrace('9223372036854775807'));
  t.regex(explain.stdout, /terminationGracePeriodSeconds\s+9223372036854775807 s/);
});

test('a negative grace period (no drain time at all) is raised to the plan', async (t) => {
  const run = await runCliAsync([], gatewayWithGrace('-5'));
  t.is(run.status, 0, run.stderr);
  t.regex(run.stdout, /^\s+terminationGracePeriodSeconds: 205$/m);
});

for (const value of [
  '1.5',
  '.nan',
  '.inf',
  '-.inf',
  '9223372036854775808',
  '-9223372036854775809',
]) {
  test(`a grace period the API server refuses (${value}) is exit 2 naming document, line and field`, async (t) => {
    const input = gatewayWithGrace(value);
    const line = input.slice(0, input.search(GRACE_LINE) + 1).split('\n').length;
    for (const [args, run] of await all([...COMMANDS, NO_MUTATORS], input)) {
      t.is(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
      t.is(run.stdout, '', 'nothing on stdout');
      t.true(
        run.stderr.includes(
          `document 5 (Deployment istio-system/istio-public-ingressgateway), line ${line}, ` +
            'spec.template.spec.terminationGracePeriodSeconds:',
        ),
        run.stderr,
      );
      t.true(run.stderr.includes(`is ${value}, not a whole number of seconds`), run.stderr);
    }
  });
}

for (const hook of [
  '{exec: {command: [sleep, "9223372036854775807"]}}',
  '{exec: {command: [sh, -c, "sleep 99999999999999999999999999999999"]}}',
  '{sleep: {seconds: 9223372036854775807}}',
]) {
  for (const grace of ['30', '9223372036854775807']) {
    test(`an app whose own preStop ${hook} outlasts any plan is kept (grace ${grace})`, async (t) => {
      const input = app(grace, hook);
      for (const [args, run] of await all(COMMANDS, input)) {
        t.true(
          run.status === 0 || run.status === 1,
          `${args.join(' ')}: ${run.status} ${run.stderr}`,
        );
        t.notRegex(run.stderr, /E_INTERNAL/, args.join(' '));
      }
      const run = await runCliAsync([], input);
      t.is(run.status, 0, run.stderr);
      t.true(run.stdout.includes(`preStop: ${hook}`), 'the hook is the user’s, unchanged');
      t.true(run.stdout.includes(`terminationGracePeriodSeconds: ${grace}`), 'grace not lowered');
    });
  }
}
