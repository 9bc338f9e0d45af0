/**
 * Issue #33 item 9: `kube-graceful.dev/skip` is "true" or "false". Any other value is a
 * BAD_ANNOTATION error, and the object is left alone all the same: a user's opt-out is never
 * dropped in silence. Inputs: Istio's helloworld sample (an app kube-graceful patches) and Envoy
 * Gateway's EnvoyProxy example behind an NLB (an object mutator's target).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { corpus, fixturePath } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';

const HELLOWORLD = corpus('istio-sample-helloworld-helloworld.yaml');
const ENVOY_PROXY = readFileSync(
  fixturePath('gateways', 'envoy-gateway', 'examples-v1.9.0-envoy-proxy-config-nlb.yaml'),
  'utf8',
);

/** helloworld with helloworld-v1 annotated `kube-graceful.dev/skip: VALUE` (text as written). */
function helloworldSkip(value: string): string {
  const head = 'metadata:\n  name: helloworld-v1\n';
  if (!HELLOWORLD.includes(head)) throw new Error('the fixture changed');
  return HELLOWORLD.replace(head, `${head}  annotations:\n    kube-graceful.dev/skip: ${value}\n`);
}

/** The document of helloworld-v1 in a stream. */
const v1 = (stream: string) =>
  stream.split(/^---$/m).find((d) => d.includes('name: helloworld-v1'));

test('skip "true" leaves the workload alone; "false" has it patched like no annotation', async (t) => {
  const plain = await runCliAsync([], HELLOWORLD);
  t.is(plain.status, 0, plain.stderr);
  t.not(v1(plain.stdout), v1(HELLOWORLD), 'the sample is one kube-graceful patches');

  const skipped = await runCliAsync([], helloworldSkip('"true"'));
  t.is(skipped.status, 0, skipped.stderr);
  t.is(v1(skipped.stdout), v1(helloworldSkip('"true"')), 'left byte for byte');

  const patched = await runCliAsync([], helloworldSkip('"false"'));
  t.is(patched.status, 0, patched.stderr);
  t.is(
    v1(patched.stdout),
    v1(plain.stdout)!.replace(
      'name: helloworld-v1\n',
      'name: helloworld-v1\n  annotations:\n    kube-graceful.dev/skip: "false"\n',
    ),
  );
});

for (const value of ['"True"', '"yes"', '"1"', '"banana"', '""', '"TRUE"', '" true"']) {
  test(`skip ${value} is a BAD_ANNOTATION error, and the workload is not patched`, async (t) => {
    const input = helloworldSkip(value);
    const run = await runCliAsync([], input);
    t.is(run.status, 1, 'error findings: exit 1');
    t.is(run.stdout, '', 'stream mode: nothing written');
    t.regex(
      run.stderr,
      /error: BAD_ANNOTATION Deployment helloworld-v1 .*: kube-graceful\.dev\/skip: got /,
    );
    t.regex(run.stderr, /write "true" to leave this object alone or "false"/);

    const check = await runCliAsync(['check'], input);
    t.is(check.status, 1);
    t.regex(check.stdout + check.stderr, /BAD_ANNOTATION/);
    t.notRegex(
      check.stdout + check.stderr,
      /helloworld-v1.*(preStop|terminationGracePeriodSeconds)/,
    );
  });
}

test('an EnvoyProxy annotated skip "yes" is refused with BAD_ANNOTATION and left alone', async (t) => {
  const head = 'kind: EnvoyProxy\nmetadata:\n  name: config\n';
  t.true(ENVOY_PROXY.includes(head));
  const plain = await runCliAsync([], ENVOY_PROXY);
  t.is(plain.status, 0, plain.stderr);
  t.not(plain.stdout, ENVOY_PROXY, 'kube-graceful sets this EnvoyProxy’s shutdown');

  const input = ENVOY_PROXY.replace(
    head,
    `${head}  annotations:\n    kube-graceful.dev/skip: "yes"\n`,
  );
  const run = await runCliAsync([], input);
  t.is(run.status, 1);
  t.regex(
    run.stderr,
    /error: BAD_ANNOTATION EnvoyProxy envoy-gateway-system\/config .*: \S+\/skip: got "yes"/,
  );
  const explain = await runCliAsync(['explain'], input);
  t.notRegex(explain.stdout, /spec\.shutdown.*→/, 'no change planned for it');
});
