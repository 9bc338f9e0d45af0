/**
 * The ready-made CI integrations (issue #29 item 5), run as far as this machine can:
 * - the GitHub Action (action.yml): its check step's script is run in bash as the runner runs it
 *   (`bash --noprofile --norc -eo pipefail`), with its env block's expressions filled in from the
 *   inputs and a stand-in `github` context. Its build step (npm ci, npm run build) is not run: the
 *   tests run on the build `npm test` made. Never run on a GitHub runner here.
 * - the pre-commit hook (.pre-commit-hooks.yaml): Debian's real `pre-commit` on a temporary git
 *   repository whose config points at this repository at its HEAD commit (so the hook file must be
 *   committed), with `kube-graceful` on PATH as the hook's `language: system` expects.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import test from 'ava';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli.ts';
import { cliPath, ROOT } from '../helpers/fixtures.ts';
import { HANG_GUARD_MS } from '../helpers/hangGuard.ts';
import { requireTool } from '../helpers/tools.ts';

const RAW = readFileSync(join(ROOT, 'examples', 'manifests', 'graceful-demo.yaml'), 'utf8');
/** The post-rendered stream: what the gate must pass. */
const PATCHED = runCli([], RAW).stdout;

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, timeout: HANG_GUARD_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

interface ActionStep {
  readonly id: string;
  readonly run: string;
  readonly env?: Record<string, string>;
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; steps: ActionStep[] };
};

/** Fills `${{ inputs.x }}` and `${{ github.x }}` as the runner would; any other is a test error. */
function expand(text: string, inputs: Record<string, string>, github: Record<string, string>) {
  return text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
    const [scope, key] = name.split('.') as [string, string];
    const value =
      scope === 'inputs'
        ? (inputs[key] ?? action.inputs[key]?.default)
        : scope === 'github'
          ? github[key]
          : undefined;
    if (value === undefined) throw new Error(`action.yml: no value for ${name}`);
    return value;
  });
}

async function runAction(manifest: string, inputs: Record<string, string>) {
  const workspace = mkdtempSync(join(tmpdir(), 'kg-action-'));
  mkdirSync(join(workspace, 'rendered'));
  writeFileSync(join(workspace, 'rendered', 'demo.yaml'), manifest);
  const files = { output: join(workspace, 'output'), summary: join(workspace, 'summary.md') };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  const github = {
    action_path: ROOT,
    server_url: 'https://github.com',
    action_repository: 'example/kube-graceful',
    action_ref: 'v0.1.0',
  };
  const step = action.runs.steps.find((s) => s.id === 'check')!;
  const env = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([name, value]) => [name, expand(value, inputs, github)]),
  );
  const script = join(workspace, 'step.sh');
  writeFileSync(script, expand(step.run, inputs, github));
  const result = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd: workspace,
    env: {
      ...process.env,
      ...env,
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
    },
  });
  const read = (name: string) => readFileSync(join(workspace, name), 'utf8');
  return { ...result, read, output: read('output'), summary: read('summary.md') };
}

test('action.yml: a composite action whose steps are build then check', (t) => {
  t.is(action.runs.using, 'composite');
  t.deepEqual(
    action.runs.steps.map((s) => s.id),
    ['build', 'check'],
  );
  t.regex(action.runs.steps[0]!.run, /npm ci[^\n]*\n\s*npm run build/);
});

test('action.yml check step: the raw render fails with SARIF and a summary; the post-rendered one passes', async (t) => {
  t.true(cliPath().startsWith(ROOT), 'the step runs dist/cli.js under the action path');
  const [raw, patched] = await Promise.all([
    runAction(RAW, { path: 'rendered/' }),
    runAction(PATCHED, { path: 'rendered', args: '--max-request 10', 'sarif-file': 'out.sarif' }),
  ]);
  t.is(raw.status, 1, raw.stderr);
  t.is(raw.output, 'exit-code=1\n');
  t.regex(raw.stderr, /^kube-graceful check: FAIL /m, 'the verdict in the step log');
  const sarif = JSON.parse(raw.read('kube-graceful.sarif')) as {
    runs: Array<{ results: Array<{ ruleId: string }>; tool: { driver: { rules: object[] } } }>;
  };
  t.true(sarif.runs[0]!.results.some((r) => r.ruleId === 'gateway-drain'));
  t.regex(
    JSON.stringify(sarif.runs[0]!.tool.driver.rules),
    /https:\/\/github\.com\/example\/kube-graceful\/blob\/v0\.1\.0\/docs\/mutators\//,
  );
  t.regex(raw.summary, /^#+ /m, 'markdown in the job summary');
  t.true(raw.summary.includes('demo-gateway'));

  t.is(patched.status, 0, patched.stderr);
  t.is(patched.output, 'exit-code=0\n');
  const left = (
    JSON.parse(patched.read('out.sarif')) as { runs: Array<{ results: Array<{ level: string }> }> }
  ).runs[0]!.results;
  t.deepEqual(
    left.map((r) => r.level),
    ['warning'],
    "the gateway's load balancer warning stays (it is about AWS, not the manifest); no error",
  );
});

test('pre-commit: the hook passes post-rendered manifests and fails the raw render', async (t) => {
  const preCommit = requireTool('pre-commit');
  const rev = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const committed = execFileSync('git', ['show', `${rev}:.pre-commit-hooks.yaml`], { cwd: ROOT });
  t.true(committed.length > 0, 'the hook file is in the commit pre-commit clones');
  const dir = mkdtempSync(join(tmpdir(), 'kg-pre-commit-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'kube-graceful'),
    `#!/bin/sh\nexec "${process.execPath}" "${cliPath()}" "$@"\n`,
  );
  chmodSync(join(bin, 'kube-graceful'), 0o755);
  const env = {
    ...process.env,
    PATH: `${bin}:${process.env['PATH'] ?? ''}`,
    PRE_COMMIT_HOME: join(dir, 'cache'),
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: dir,
  };
  const repo = (name: string, manifest: string) => {
    const path = join(dir, name);
    mkdirSync(join(path, 'deploy'), { recursive: true });
    writeFileSync(join(path, 'deploy', 'demo.yaml'), manifest);
    writeFileSync(join(path, 'values.yaml'), 'replicas: 2\n'); // not under deploy/: not checked
    writeFileSync(
      join(path, '.pre-commit-config.yaml'),
      [
        'repos:',
        `  - repo: ${ROOT}`,
        `    rev: ${rev}`,
        '    hooks:',
        '      - id: kube-graceful-check',
        '        files: ^deploy/',
        '',
      ].join('\n'),
    );
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
        cwd: path,
        env,
      });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'manifests');
    return path;
  };
  const clean = repo('clean', PATCHED);
  const raw = repo('raw', RAW);
  // One after the other: both would clone the hook repository into the same cache at once.
  const pass = await run(preCommit, ['run', '--all-files'], { cwd: clean, env });
  const fail = await run(preCommit, ['run', '--all-files'], { cwd: raw, env });
  t.is(pass.status, 0, pass.stdout + pass.stderr);
  t.regex(pass.stdout, /kube-graceful check\.+Passed/);
  t.is(fail.status, 1, fail.stdout + fail.stderr);
  t.regex(fail.stdout, /kube-graceful check\.+Failed/);
  t.regex(
    fail.stdout,
    /^change: gateway-drain deploy\/demo\.yaml:\d+:\d+ Deployment demo-gateway /m,
  );
});
