/**
 * Issue #27 item 14: a sleep action already on a container counts only where the oldest kubelet
 * runs it (PodLifecycleSleepAction, on by default from 1.30: kubernetes
 * pkg/features/kube_features.go@v1.35.0). On a 1.28 kubelet the hook returns at once, so the
 * Traefik chart's own 20 s sleep must not be taken off W: that left 20 s of refused connections.
 * Input: the Traefik 41.3.0 chart behind an NLB, with `deployment.lifecycle` set to a 20 s sleep.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { readPreStop } from '../../fn/workloads/preStop.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import { runCliAsync } from '../helpers/cli.ts';

const SLEEP = { sleep: { seconds: 20 } };

test('a sleep action reads as 20 s where the oldest kubelet runs it, as 0 s below 1.30', (t) => {
  t.is(readPreStop(SLEEP, '1.30')?.seconds, 20);
  t.is(readPreStop(SLEEP, '1.31.4')?.seconds, 20);
  t.is(readPreStop(SLEEP)?.seconds, 20, 'no version given: as written');
  const old = readPreStop(SLEEP, '1.29');
  t.is(old?.seconds, 0);
  t.regex(old?.text ?? '', /sleep action 20 s, not run: off by default on a kubelet below 1\.30/);
  t.is(readPreStop({ exec: { command: ['sleep', '20'] } }, '1.28')?.seconds, 20, 'exec runs');
});

const CHART = readFileSync(
  fixturePath('gateways', 'traefik', 'chart-41.3.0-nlb.yaml'),
  'utf8',
).replace(
  '        lifecycle: null\n',
  '        lifecycle:\n          preStop:\n            sleep:\n              seconds: 20\n',
);

/** The requestAcceptGraceTimeout traefik-drain gives the web entry point. */
const accept = (stream: string) =>
  /--entryPoints\.web\.transport\.lifeCycle\.requestAcceptGraceTimeout=(\w+)/.exec(stream)?.[1];

test('the Traefik chart’s 20 s sleep is taken off W on a 1.31 kubelet, not on a 1.28 one', async (t) => {
  t.true(CHART.includes('seconds: 20'), 'the hook is in the input');
  const [recent, old, explainOld] = await Promise.all([
    runCliAsync(['--kube-version', '1.31'], CHART),
    runCliAsync(['--kube-version', '1.28'], CHART),
    runCliAsync(['explain', '--kube-version', '1.28'], CHART),
  ]);
  t.is(recent.status, 0, recent.stderr);
  t.is(old.status, 0, old.stderr);
  t.is(accept(recent.stdout), '160s', 'W = 180 s, 20 s of it in the preStop');
  t.is(accept(old.stdout), '180s', 'the hook does not run: Traefik keeps accepting for all of W');
  t.regex(explainOld.stdout, /SIGTERM \(no preStop\)/);
});
