/**
 * Issue #8, atomic output: stdout is written once, after the whole run has succeeded. A mutator
 * that throws part-way through (after other documents were already edited) leaves no stdout and
 * a non-zero exit, in stream and KRM mode: Helm then fails instead of applying half a release.
 *
 * The crash is injected in-process through transform's `mutators` option, and through the real
 * command line by test/helpers/reliability-throwing-cli.ts, which registers a throwing mutator
 * before loading fn/cli/main.ts from source: nothing of it ships in dist/cli.js.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { KubeGracefulError } from '../../fn/core/errors.ts';
import { transform } from '../../fn/engine/transform.ts';
import { defineMutator } from '../../fn/mutators/types.ts';
import type { RegisteredMutator } from '../../fn/mutators/types.ts';
import { ROOT } from '../helpers/fixtures.ts';
import { HANG_GUARD_MS, runBounded } from '../helpers/reliability-cli.ts';
import { APP_SETTINGS } from '../../fn/mutators/app/settings/slice.ts';

/** Test mutators make no plan, so nothing asks them to explain one. */
const noPlan = (): never => {
  throw new Error('a test mutator makes no plan');
};

const deployment = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: ${name}
        image: nginx:1.27
`;
const STREAM = ['a', 'b', 'c'].map((n) => `---\n${deployment(n)}`).join('');
const ITEMS = ['a', 'b', 'c'].map((n) => `- ${deployment(n).trimEnd().split('\n').join('\n  ')}\n`);
const RESOURCE_LIST =
  `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n` + ITEMS.join('');

/** Edits the first `edits` workloads, then throws what `error` makes. */
function throwingAfter(edits: number, error: () => Error): RegisteredMutator {
  let seen = 0;
  return defineMutator<never, 'app-graceful'>({
    id: 'app-graceful',
    settings: APP_SETTINGS,
    findingCodes: [],
    explain: noPlan,
    description: 'throws part-way',
    enabled: () => true,
    mutate(workload) {
      if (++seen > edits) throw error();
      return {
        changes: [
          {
            path: workload.at('metadata', 'annotations', 'atomic.example/edited'),
            value: String(seen),
            reason: 'edited',
          },
        ],
        findings: [],
      };
    },
  });
}

test('in-process: a mutator that throws after editing a document ends the run with that error, no result', (t) => {
  for (const input of [STREAM, RESOURCE_LIST]) {
    const crash = t.throws(() =>
      transform(input, { mutators: [throwingAfter(1, () => new Error('boom'))] }),
    );
    t.is(crash?.message, 'boom');
    const refused = t.throws(() =>
      transform(input, {
        mutators: [throwingAfter(2, () => new KubeGracefulError('E_INPUT', 'refused'))],
      }),
    );
    t.true(refused instanceof KubeGracefulError);
    // Nothing is left over from the failed run: the same input transforms cleanly afterwards.
    const clean = transform(input, { mutators: [throwingAfter(99, () => new Error('never'))] });
    t.is(clean.changes.length, 3);
  }
});

interface HarnessRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** How many times the CLI wrote to stdout. */
  readonly writes: number;
}

function runWithThrowingMutator(edits: number, how: 'crash' | 'input', input: string): HarnessRun {
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'test', 'helpers', 'reliability-throwing-cli.ts'),
      String(edits),
      how,
    ],
    {
      cwd: ROOT,
      input,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      timeout: HANG_GUARD_MS,
      killSignal: 'SIGKILL',
    },
  );
  return {
    status: run.status,
    stdout: run.stdout.toString('utf8'),
    stderr: run.stderr.toString('utf8'),
    writes: Number(run.output[3]?.toString('utf8') ?? NaN),
  };
}

for (const [mode, input] of [
  ['stream', STREAM],
  ['KRM', RESOURCE_LIST],
] as const) {
  test(`CLI, ${mode} mode: a mutator crash after one edited document exits 70 with nothing on stdout`, (t) => {
    const run = runWithThrowingMutator(1, 'crash', input);
    t.is(run.status, 70, run.stderr);
    t.is(run.stdout, '');
    t.is(run.writes, 0, 'stdout never written to');
    t.regex(
      run.stderr,
      /^kube-graceful: E_INTERNAL: Error: crashed on workload 2 part-way through the run/,
    );
    t.regex(run.stderr, /how to fix: This is a bug in kube-graceful/);
  });

  test(`CLI, ${mode} mode: an input error part-way through exits 2 with nothing on stdout`, (t) => {
    const run = runWithThrowingMutator(2, 'input', input);
    t.is(run.status, 2, run.stderr);
    t.is(run.stdout, '');
    t.is(run.writes, 0, 'stdout never written to');
    t.regex(
      run.stderr,
      /^kube-graceful: E_INPUT: document 3: refused workload 3 part-way through the run/,
    );
  });

  test(`CLI, ${mode} mode: without the crash, the whole output is written in one write`, (t) => {
    const run = runWithThrowingMutator(99, 'crash', input);
    t.is(run.status, 0, run.stderr);
    t.is(run.writes, 1, 'exactly one write');
    t.is(run.stdout.match(/atomic\.example\/edited: "\d"/g)?.length, 3, 'every document edited');
  });
}

test('bundled CLI: whenever a stream run fails, stdout is empty (internal errors included)', (t) => {
  // Inputs that end in each kind of failure: bad YAML, a wrong-typed field, an error finding.
  // (Internal errors are covered with a throwing mutator above; the two real ones this suite
  // found, an empty `command:` and `proxyMetadata` as a list, are fixed and have regression tests
  // in bad-input-corpus.test.ts and injection-safety.test.ts.)
  const failing: Array<[string[], string]> = [
    [[], `${deployment('a')}---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: "broken\n`],
    [
      [],
      deployment('a').replace(
        'image: nginx:1.27',
        'image: nginx:1.27\n        command: "a string"',
      ),
    ],
    [
      [],
      deployment('a').replace(
        'name: a\nspec',
        'name: a\n  annotations: {kube-graceful.dev/drain-window: "-5"}\nspec',
      ),
    ],
  ];
  const statuses: Array<number | null> = [];
  for (const [args, input] of failing) {
    const run = runBounded(args, input);
    statuses.push(run.status);
    t.not(run.status, 0, `expected a failure: ${input}`);
    t.is(run.stdout, '', `exit ${run.status}: nothing on stdout`);
  }
  t.log(`exit codes: ${statuses.join(', ')}`);
});
