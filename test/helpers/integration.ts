/**
 * Shared pieces of the integration tests (test/integration/): running the real tools
 * asynchronously (the stand-in API server lives in the test process, so a blocking spawn would
 * deadlock), splitting their output into documents, and the changes every path must produce on
 * the demo chart (test/fixtures/charts/graceful-demo).
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { parse } from 'yaml';
import { cliPath, fixturePath, ROOT } from './fixtures.ts';
import { HANG_GUARD_MS } from './hangGuard.ts';

export { HANG_GUARD_MS };

export { cliPath, ROOT };

/**
 * The demo chart: an Istio gateway behind an AWS NLB (IP targets), a post-install hook Job, a
 * ConfigMap.
 */
export const DEMO_CHART = fixturePath('charts', 'graceful-demo');

/** What one process printed and returned. */
export interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
  /** The command line, for assertion messages. */
  readonly command: string;
}

/** Options of {@link run}. */
export interface RunOptions {
  readonly input?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Milliseconds before the process is killed (default HANG_GUARD_MS). */
  readonly timeout?: number;
}

/** Runs `file args` without blocking the event loop; never throws for a non-zero exit. */
export function run(file: string, args: readonly string[], options: RunOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? HANG_GUARD_MS);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        status,
        command: [file, ...args].join(' '),
      });
    });
    child.stdin.on('error', () => {
      // a tool that exits before reading all input
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Runs and fails the test unless the exit code is 0; returns stdout. */
export async function runOk(
  t: ExecutionContext,
  file: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<string> {
  const result = await run(file, args, options);
  if (result.status !== 0)
    t.fail(
      `${result.command} exited ${result.status}\n` +
        `--- stderr ---\n` +
        `${result.stderr}\n` +
        `--- stdout ---\n` +
        `${result.stdout.slice(0, 4000)}`,
    );
  return result.stdout;
}

/** Runs the bundled CLI directly (the expected output of every tool path). */
export function runCliAsync(
  args: readonly string[],
  input: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Run> {
  return run(process.execPath, [cliPath(), ...args], { input, env });
}

/** A temp folder removed when the test file's process ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `kg-int-${prefix}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Returns a folder holding an executable `kube-graceful` that is the bundled CLI, the way
 * `npm install -g` links the bin: put it first on PATH to use the bare name.
 */
export function binDirWithKubeGraceful(base: string): string {
  const bin = join(base, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(cliPath(), join(bin, 'kube-graceful'));
  return bin;
}

/** Returns `env` with `dir` first on PATH. */
export function withPath(env: NodeJS.ProcessEnv, dir: string): NodeJS.ProcessEnv {
  return { ...env, PATH: `${dir}:${env['PATH'] ?? ''}` };
}

/** Writes an executable script. */
export function writeExecutable(file: string, text: string): string {
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

/** One document of a manifest stream: its exact text and its data. */
export interface Doc {
  readonly text: string;
  readonly kind: string;
  readonly name: string;
  readonly object: KubeObject;
}

/** The part of a Kubernetes object the assertions read. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
  };
  spec?: {
    template?: {
      metadata?: { annotations?: Record<string, string> };
      spec?: {
        terminationGracePeriodSeconds?: number;
        containers?: Array<{
          name: string;
          env?: Array<{ name: string; value?: string }>;
          command?: string[];
        }>;
        initContainers?: Array<{ name: string }>;
      };
    };
  };
  [key: string]: unknown;
}

/** Splits a stream on `---` lines; documents with no object (only comments) are dropped. */
export function splitDocs(stream: string): Doc[] {
  const docs: Doc[] = [];
  for (const part of stream.split(/^---[ \t]*$/m)) {
    const object = parse(part, { version: '1.1' }) as KubeObject | null;
    if (!object || typeof object !== 'object') continue;
    docs.push({
      text: part.replace(/^\n/, ''),
      kind: String(object.kind),
      name: String(object.metadata?.name),
      object,
    });
  }
  return docs;
}

/** Returns the one document of this kind and name; fails the test if there is not exactly one. */
export function doc(t: ExecutionContext, docs: readonly Doc[], kind: string, name: string): Doc {
  const found = docs.filter((d) => d.kind === kind && d.name === name);
  if (found.length !== 1)
    t.fail(
      `expected one ${kind} ${name}, found ${found.length} ` +
        `among ${docs.map((d) => `${d.kind}/${d.name}`).join(', ')}`,
    );
  return found[0]!;
}

/**
 * Returns `object` without Helm 4's bookkeeping annotation (and an `annotations` map it leaves
 * empty).
 */
export function withoutHelmFilename(object: KubeObject): KubeObject {
  const copy = structuredClone(object);
  const annotations = copy.metadata?.annotations;
  if (annotations) {
    delete annotations[HELM4_FILENAME];
    if (Object.keys(annotations).length === 0) delete copy.metadata!.annotations;
  }
  return copy;
}

/** The annotation Helm 4 adds to each document it sends to a post-renderer, then strips. */
export const HELM4_FILENAME = 'postrenderer.helm.sh/postrender-filename';

/** The gateway's istio-proxy env as a name → value map. */
export function proxyEnv(object: KubeObject): Record<string, string | undefined> {
  const proxy = object.spec?.template?.spec?.containers?.find((c) => c.name === 'istio-proxy');
  return Object.fromEntries((proxy?.env ?? []).map((e) => [e.name, e.value]));
}

/**
 * Asserts the gateway-drain changes on the demo chart's gateway Deployment: Istio's drain env
 * on istio-proxy (MINIMUM_DRAIN_DURATION as a Go duration, EXIT_ON_ZERO_ACTIVE_CONNECTIONS) and
 * a grace period above Kubernetes' 30 s default that holds the minimum drain (AWS NLB in front).
 */
export function assertGatewayPatched(t: ExecutionContext, object: KubeObject, where: string): void {
  const env = proxyEnv(object);
  t.regex(
    env['MINIMUM_DRAIN_DURATION'] ?? '',
    /^\d+s$/,
    `${where}: istio-proxy MINIMUM_DRAIN_DURATION`,
  );
  t.is(
    env['EXIT_ON_ZERO_ACTIVE_CONNECTIONS'],
    'true',
    `${where}: istio-proxy EXIT_ON_ZERO_ACTIVE_CONNECTIONS`,
  );
  const grace = object.spec?.template?.spec?.terminationGracePeriodSeconds;
  t.true(
    typeof grace === 'number' && grace > 30,
    `${where}: terminationGracePeriodSeconds ${grace} should exceed the 30 s default`,
  );
  t.true(
    typeof grace === 'number' && grace >= Number.parseInt(env['MINIMUM_DRAIN_DURATION'] ?? '0', 10),
    `${where}: grace ${grace} holds the minimum drain`,
  );
}

/** Asserts the gateway Deployment is as the chart rendered it (no drain env, no grace period). */
export function assertGatewayUntouched(
  t: ExecutionContext,
  object: KubeObject,
  where: string,
): void {
  t.deepEqual(proxyEnv(object), {}, `${where}: istio-proxy env`);
  t.is(
    object.spec?.template?.spec?.terminationGracePeriodSeconds,
    undefined,
    `${where}: terminationGracePeriodSeconds`,
  );
}

/** The job-sidecar-quit change in native mode (Kubernetes ≥ 1.29, the default 1.31). */
export function assertJobNative(t: ExecutionContext, object: KubeObject, where: string): void {
  t.is(
    object.spec?.template?.metadata?.annotations?.['sidecar.istio.io/nativeSidecar'],
    'true',
    `${where}: Job pod template sidecar.istio.io/nativeSidecar`,
  );
}

/**
 * The job-sidecar-quit change in wrap mode (Kubernetes 1.28): the command runs under the quit
 * wrapper.
 */
export function assertJobWrapped(t: ExecutionContext, object: KubeObject, where: string): void {
  const migrate = object.spec?.template?.spec?.containers?.find((c) => c.name === 'migrate');
  t.true(
    migrate?.command?.includes('kube-graceful-wrap') ?? false,
    `${where}: migrate command wrapped: ${JSON.stringify(migrate?.command)}`,
  );
  t.is(
    object.spec?.template?.metadata?.annotations?.['sidecar.istio.io/nativeSidecar'],
    'false',
    `${where}: native sidecar pinned off`,
  );
}

/** Asserts the Job is exactly as the chart rendered it. */
export function assertJobUntouched(t: ExecutionContext, object: KubeObject, where: string): void {
  t.is(
    object.spec?.template?.metadata?.annotations,
    undefined,
    `${where}: Job pod template annotations`,
  );
  t.deepEqual(
    object.spec?.template?.spec?.containers?.[0]?.command,
    ['sh', '-c', 'echo migrate'],
    `${where}: Job command`,
  );
}

/**
 * Returns `text` (a stream, a chart template or a package file) with the gateway Deployment
 * carrying a per-workload setting that cannot be read, `kube-graceful.dev/drain-window: "soon"`:
 * an error finding (BAD_ANNOTATION), so stream mode exits 1 with nothing on stdout and KRM mode
 * writes an error result and exits 1.
 */
export function withErrorFinding(text: string): string {
  const broken = text.replace(
    /^(kind: Deployment\nmetadata:\n)/m,
    '$1  annotations:\n    kube-graceful.dev/drain-window: "soon"\n',
  );
  if (broken === text) throw new Error('withErrorFinding: no "kind: Deployment\\nmetadata:" found');
  return broken;
}

/** Copies the demo chart into `dir` with {@link withErrorFinding} applied to its Deployment;
 * returns the chart path. */
export function demoChartWithErrorFinding(dir: string): string {
  const chart = join(dir, 'graceful-demo');
  cpSync(DEMO_CHART, chart, { recursive: true });
  const template = join(chart, 'templates', 'deployment.yaml');
  writeFileSync(template, withErrorFinding(readFileSync(template, 'utf8')));
  return chart;
}
