/**
 * The third outcome (issue #26 items 1 and 2): where a timeline rests on something kube-graceful
 * does not model, `explain` says "? unknown" with what and how to tell it, and `check` warns.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { Explanation } from '../../fn/explain/explain.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import { runInProcess } from './run.ts';

/** A served app whose own preStop is an httpGet (its length cannot be read), behind an NLB. */
const HTTP_GET_APP = `apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  annotations:
    service.beta.kubernetes.io/aws-load-balancer-type: external
    service.beta.kubernetes.io/aws-load-balancer-nlb-target-type: ip
spec: {type: LoadBalancer, selector: {app: web}, ports: [{port: 80, targetPort: 8080}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: example/web:1
          ports: [{containerPort: 8080}]
          lifecycle: {preStop: {httpGet: {path: /drain, port: 8080}}}
`;

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'kube-graceful-unknown-')), 'input.yaml');
  writeFileSync(path, text);
  return path;
}

/** The gateway chart's own Service: a plain type: LoadBalancer, no provider annotation. */
const PLAIN_LB_GATEWAY = fixturePath('corpus', 'istio-gateway-1.30.3-default.yaml');

async function explained(args: readonly string[]): Promise<Explanation> {
  const run = await runInProcess(['explain', '--output', 'json', ...args]);
  return JSON.parse(run.stdout) as Explanation;
}

test('an unrecognised preStop (httpGet) on a served app: ? unknown, naming the hook and the fix', async (t) => {
  const input = file(HTTP_GET_APP);
  const [web] = (await explained([input])).workloads;
  const { verdict } = web!.timelines.patched;
  t.is(verdict.outcome, 'unknown');
  t.regex(verdict.text, /^unknown: what web's preStop hook \(httpGet \(length unknown\)\) does/);
  t.regex(verdict.text, /tell kube-graceful with a preStop it reads in place of this one/);
  // Item 2: no longer drawn as "keeps serving" for W.
  t.false(web!.timelines.patched.events.some((e) => e.text.includes('starts; keeps serving')));
  const text = await runInProcess(['explain', input]);
  t.regex(text.stdout, /Patched: \? unknown: /);
  const markdown = await runInProcess(['explain', '--output', 'markdown', input]);
  t.regex(markdown.stdout, /\| ❔ unknown: /);
  const html = await runInProcess(['explain', '--output', 'html', input]);
  t.regex(html.stdout, /patched \? unknown: /);
});

test('a plain type: LoadBalancer gateway: ? unknown with --lb-provider; with it, ✓', async (t) => {
  const [guessed] = (await explained([PLAIN_LB_GATEWAY])).workloads;
  t.is(guessed!.timelines.patched.verdict.outcome, 'unknown');
  t.regex(
    guessed!.timelines.patched.verdict.text,
    /W = 15 s is a guess\); tell kube-graceful with --lb-provider/,
  );
  const [told] = (await explained([PLAIN_LB_GATEWAY, '--lb-provider', 'aws-nlb-ip'])).workloads;
  t.is(told!.timelines.patched.verdict.outcome, 'ok');
  t.is(told!.inputs.find((i) => i.symbol === 'W')?.value, 180);
});

test('check: an unknown outcome is a warning; exit 0 by default once written, 1 with --fail-on warning', async (t) => {
  // The patched output, so that no pending change fails the default check.
  const transformed = await runInProcess([PLAIN_LB_GATEWAY]);
  const written = file(transformed.stdout);
  const byDefault = await runInProcess(['check', written]);
  t.regex(
    byDefault.stdout,
    /^warning: OUTCOME_UNKNOWN .*Deployment istio-ingress\/istio-ingressgateway: /m,
  );
  t.regex(byDefault.stdout, /tell kube-graceful with --lb-provider/);
  t.is(byDefault.exitCode, 0);
  const strict = await runInProcess(['check', '--fail-on', 'warning', written]);
  t.is(strict.exitCode, 1);
  const told = await runInProcess([
    'check',
    '--fail-on',
    'warning',
    '--lb-provider',
    'aws-nlb-ip',
    written,
  ]);
  t.notRegex(told.stdout, /OUTCOME_UNKNOWN/);
});
