/**
 * Issue #27 item 4: `…-target-group-attributes.<port>` (AWS Load Balancer Controller v2.14+)
 * overrides the Service-wide attributes for that port's target group, entry by entry
 * (pkg/service/model_build_target_group.go@v2.14.0 buildPortSpecificTargetGroupAttributes). The
 * plan takes the shortest deregistration delay across the ports. Input: the istio/gateway 1.30.3
 * chart behind an NLB with IP targets (200 s delay, connection termination on, for every port).
 */
import test from 'ava';
import { corpus } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';

const GATEWAY = corpus('istio-gateway-1.30.3-nlb.yaml');
const TYPE = '    service.beta.kubernetes.io/aws-load-balancer-type: external\n';
const PORT_ATTRIBUTES = 'service.beta.kubernetes.io/aws-load-balancer-target-group-attributes';

function withPortAttributes(lines: string): string {
  if (!GATEWAY.includes(TYPE)) throw new Error('the fixture changed');
  return GATEWAY.replace(TYPE, `${TYPE}${lines}`);
}

test('a port whose own delay is shorter is planned with, and said to be', async (t) => {
  const input = withPortAttributes(
    `    ${PORT_ATTRIBUTES}.443: deregistration_delay.timeout_seconds=30\n`,
  );
  const [run, explain] = await Promise.all([
    runCliAsync([], input),
    runCliAsync(['explain'], input),
  ]);
  t.is(run.status, 0, run.stderr);
  t.regex(run.stderr, /LB_DEREGISTRATION_TOO_SHORT .*deregistration delay is 30 s/);
  t.regex(run.stderr, /planned with port 443's, the shortest deregistration delay/);
  t.regex(explain.stdout, /LB deregistration delay\s+30 s/);
  t.regex(explain.stdout, /the load balancer drops connections still in flight at t=30/);
});

test('an empty port value keeps the Service-wide one; equal groups give no note', async (t) => {
  const input = withPortAttributes(
    `    ${PORT_ATTRIBUTES}.443: deregistration_delay.timeout_seconds=\n` +
      `    ${PORT_ATTRIBUTES}.80: deregistration_delay.timeout_seconds=200\n`,
  );
  const [plain, run] = await Promise.all([runCliAsync([], GATEWAY), runCliAsync([], input)]);
  t.is(run.status, 0, run.stderr);
  t.is(run.stderr, plain.stderr, 'the same findings as without the port annotations');
  t.notRegex(run.stderr, /LB_ASSUMPTION/);
});
