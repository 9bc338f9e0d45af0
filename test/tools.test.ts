/**
 * The real tools that integration tests depend on are installed and are the versions the
 * design contracts were checked against. These tests fail (never skip) when a tool is
 * missing: Helm comes from `bash scripts/fetch-helm.sh`, kubectl and kpt from the machine.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { helm3Path, helm4Path, helmEnv, requireTool } from './helpers/tools.ts';

/** Runs `file args…` and returns its stdout; throws (failing the test) on non-zero exit. */
function run(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(file, args, { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] });
}

function withTmp<T>(body: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'kube-graceful-tools-'));
  try {
    return body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('helm3 is Helm 3.17', (t) => {
  const helm = helm3Path();
  const version = withTmp((dir) => run(helm, ['version', '--short'], helmEnv(dir))).trim();
  t.regex(version, /^v3\.17\.\d+/, `${helm} reported ${version}`);
});

test('helm4 is Helm 4.1', (t) => {
  const helm = helm4Path();
  const version = withTmp((dir) => run(helm, ['version', '--short'], helmEnv(dir))).trim();
  t.regex(version, /^v4\.1\.\d+/, `${helm} reported ${version}`);
});

test('helmEnv points Helm homes inside the temp folder and drops inherited HELM_* variables', (t) => {
  withTmp((dir) => {
    const saved = process.env['HELM_PLUGINS'];
    process.env['HELM_PLUGINS'] = '/nonexistent/user/plugins';
    try {
      const env = helmEnv(dir);
      for (const key of ['HELM_CACHE_HOME', 'HELM_CONFIG_HOME', 'HELM_DATA_HOME']) {
        t.true(env[key]?.startsWith(dir), `${key}=${env[key]}`);
      }
      t.is(env['HELM_PLUGINS'], undefined);
      t.is(helmEnv(dir, { plugins: join(dir, 'plugins') })['HELM_PLUGINS'], join(dir, 'plugins'));
      t.is(env['PATH'], process.env['PATH']);
      // Helm itself agrees.
      const helmEnvOut = run(helm3Path(), ['env'], env);
      t.true(helmEnvOut.includes(`HELM_CONFIG_HOME="${join(dir, 'helm-config')}"`), helmEnvOut);
    } finally {
      if (saved === undefined) delete process.env['HELM_PLUGINS'];
      else process.env['HELM_PLUGINS'] = saved;
    }
  });
});

test('kubectl is on PATH and runs', (t) => {
  const kubectl = requireTool('kubectl');
  const out = run(kubectl, ['version', '--client']);
  t.regex(out, /Client Version: v1\.\d+/);
});

test('kpt is on PATH and runs', (t) => {
  const kpt = requireTool('kpt');
  const out = run(kpt, ['version']).trim();
  t.regex(out, /^v?1\.\d+\.\d+/);
});

test('missing tools throw a clear error instead of being skipped', (t) => {
  const error = t.throws(() => requireTool('kube-graceful-no-such-tool'));
  t.regex(error?.message ?? '', /kube-graceful-no-such-tool.*not found on PATH/);

  const saved = process.env['KUBE_GRACEFUL_TOOLS_DIR'];
  process.env['KUBE_GRACEFUL_TOOLS_DIR'] = join(tmpdir(), 'kube-graceful-no-tools-here');
  try {
    t.throws(() => helm3Path(), { message: /run `bash scripts\/fetch-helm\.sh`/ });
    t.throws(() => helm4Path(), { message: /run `bash scripts\/fetch-helm\.sh`/ });
  } finally {
    if (saved === undefined) delete process.env['KUBE_GRACEFUL_TOOLS_DIR'];
    else process.env['KUBE_GRACEFUL_TOOLS_DIR'] = saved;
  }
});
