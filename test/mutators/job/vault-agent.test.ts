/**
 * Issue #30 item 2: a Job that asks the Vault Agent Injector for its agent gets
 * `vault.hashicorp.com/agent-pre-populate-only: "true"`, the injector's own switch for a pod with
 * no running agent (hashicorp/vault-k8s agent-inject/agent/annotations.go@v1.7.6), so the Job
 * completes; a chart that chose a running agent is told the Job hangs. Input: the Vault Agent
 * Injector Job sample of Talend/vault-sidecar-injector (as published), alone and with Istio.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../../helpers/fixtures.ts';
import { runCliAsync } from '../../helpers/cli.ts';
import { verdictsOf } from '../../helpers/verdicts.ts';

const SAMPLE = readFileSync(
  fixturePath('jobs', 'vault-agent-injector-hashi-job-1-secrets.yaml'),
  'utf8',
);
const ANNOTATIONS = '      annotations:\n';
const ONLY = '        vault.hashicorp.com/agent-pre-populate-only: "true"\n';

/** The job-sidecar-quit verdicts explain gives `input`. */
const verdicts = (input: string, args: string[] = []) =>
  verdictsOf('job-sidecar-quit', input, args);

test('the sample gets pre-populate-only and nothing else; check passes on it; idempotent; explain agrees', async (t) => {
  t.is((await runCliAsync(['check'], SAMPLE)).status, 1, 'check fails as written');
  const out = await runCliAsync([], SAMPLE);
  t.is(out.status, 0, out.stderr);
  const lines = (text: string) => text.split('\n');
  const added = lines(out.stdout).filter((line) => !lines(SAMPLE).includes(line));
  t.deepEqual(added, [ONLY.trimEnd()]);
  t.is(out.stdout.length, SAMPLE.length + ONLY.length, 'one line added, every other byte kept');
  t.is((await runCliAsync(['check'], out.stdout)).status, 0);
  t.is((await runCliAsync([], out.stdout)).stdout, out.stdout);
  t.deepEqual(await verdicts(SAMPLE), { asWritten: 'fail', patched: 'ok' });
  t.deepEqual(await verdicts(out.stdout), { asWritten: 'ok', patched: 'ok' });
});

test('a chart that pins pre-populate-only "false" keeps its running agent, and is told the Job hangs', async (t) => {
  const kept = SAMPLE.replace(ANNOTATIONS, `${ANNOTATIONS}${ONLY.replace('"true"', '"false"')}`);
  t.not(kept, SAMPLE);
  const out = await runCliAsync([], kept);
  t.is(out.stdout, kept);
  const check = await runCliAsync(['check', '--fail-on', 'warning'], kept);
  t.is(check.status, 1);
  t.regex(check.stdout + check.stderr, /JOB_VAULT_AGENT_KEPT/);
});

test('injection off ("false", Go\'s "0") or absent: no Vault agent, nothing to do', async (t) => {
  for (const value of ['"false"', '"0"']) {
    const off = SAMPLE.replace(
      'vault.hashicorp.com/agent-inject: "true"',
      `vault.hashicorp.com/agent-inject: ${value}`,
    );
    t.not(off, SAMPLE);
    t.is((await runCliAsync([], off)).stdout, off, value);
  }
  // Go's ParseBool reads "1" and "T" as true, as the injector does.
  const one = SAMPLE.replace(
    'vault.hashicorp.com/agent-inject: "true"',
    'vault.hashicorp.com/agent-inject: "1"',
  );
  t.true((await runCliAsync([], one)).stdout.includes(ONLY));
});

test('with Istio as well: one plan, the mesh annotation and pre-populate-only', async (t) => {
  const out = await runCliAsync(
    ['--istio-injected-namespaces', 'default', '--istio-version', '1.28'],
    SAMPLE,
  );
  t.is(out.status, 0, out.stderr);
  t.true(out.stdout.includes(ONLY));
  t.true(out.stdout.includes('sidecar.istio.io/nativeSidecar: "true"'));
  t.deepEqual(
    await verdicts(SAMPLE, ['--istio-injected-namespaces', 'default', '--istio-version', '1.28']),
    { asWritten: 'fail', patched: 'ok' },
  );
});
