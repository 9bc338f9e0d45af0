/**
 * Recognises Contour's Envoy pod with its shutdown-manager and reads what its shutdown depends on
 * (issue #26 item 4). One home for these facts: the contour-drain mutator plans these pods,
 * app-graceful leaves them alone (a sleep in front of Envoy's `/shutdown` hook would only move
 * every step later), and its compatibility rows (fn/mutators/contour/compatibility.ts) cite the
 * same sources.
 *
 * How the pod stops, read at projectcontour/contour v1.33.6 (cmd/contour/shutdownmanager.go,
 * examples/render/contour.yaml); the same code and defaults from v1.22.0 on:
 * - the shutdown-manager container (`contour envoy shutdown-manager`) serves `/shutdown` on
 *   `--serve-port` (8090); it answers only once the ready file exists;
 * - Envoy's preStop `httpGet :8090/shutdown` therefore holds Envoy's SIGTERM until then, and Envoy
 *   keeps its listeners open meanwhile;
 * - the shutdown-manager's own preStop `contour envoy shutdown` waits `--drain-delay` (0s), POSTs
 *   Envoy's `/healthcheck/fail` (Envoy fails its health checks and closes each connection after its
 *   current request, but keeps accepting), waits `--check-delay` (0s; 60s before v1.22.0), then
 *   polls Envoy's open downstream connections every `--check-interval` (5s) and writes the ready
 *   file as soon as they are ≤ `--min-open-connections` (0);
 * - so Envoy may get SIGTERM (and exit, closing its listeners) as early as drain-delay +
 *   check-delay, when no connection happens to be open then.
 * The flags are kingpin's (`--name=value` or `--name value`, durations in Go's syntax); an unknown
 * or unparsable flag fails the command, which would leave Envoy waiting for a file never written.
 */
import type { Container, PodSpec, PodTemplate } from '../../core/kubeObject.ts';
import { imageTag } from '../../core/versions.ts';
import { reached } from '../../facts/versionGates.ts';
import type { VersionGate } from '../../facts/versionGates.ts';
import { parseGoDurationSeconds } from '../../timing/durations.ts';

/** The shutdown-manager's HTTP port (`--serve-port`, default 8090). */
const SERVE_PORT_DEFAULT = 8090;
/** The path Envoy's preStop asks (examples/render/contour.yaml@v1.33.6). */
const SHUTDOWN_PATH = '/shutdown';

export const DRAIN_DELAY_FLAG = 'drain-delay';
export const CHECK_DELAY_FLAG = 'check-delay';
const CHECK_INTERVAL_FLAG = 'check-interval';
const MIN_OPEN_FLAG = 'min-open-connections';
const CHECK_INTERVAL_DEFAULT_SECONDS = 5;
/** `--check-delay`'s default became 0s in v1.22.0 (60s in v1.20.0 and v1.21.x). */
export const CHECK_DELAY_ZERO = {
  product: 'Contour',
  since: '1.22.0',
  source:
    'projectcontour/contour cmd/contour/shutdownmanager.go@v1.22.0 (Default("0s")), ' +
    '@v1.21.0 (Default("60s"))',
} as const satisfies VersionGate;
/** The oldest release read with these flags and this shutdown sequence. */
export const CONTOUR_SHUTDOWN = {
  product: 'Contour',
  since: '1.20.0',
  source:
    'projectcontour/contour cmd/contour/shutdownmanager.go@v1.20.0, @v1.33.6 (the same flags ' +
    'and defaults but --check-delay)',
} as const satisfies VersionGate;

/** Returns the default `--check-delay` in seconds of a Contour release. */
function checkDelayDefaultSeconds(version: string): number {
  return reached(CHECK_DELAY_ZERO, version) ? 0 : 60;
}

const words = (list: readonly unknown[] | null | undefined): string[] =>
  (list ?? []).map((w) => (typeof w === 'string' || typeof w === 'number' ? String(w) : ''));

const program = (word: string | undefined): string | undefined => word?.split('/').pop();

/** Returns the index after `contour envoy <sub>` in a command line, or -1. */
function subcommandEnd(line: readonly string[], sub: string): number {
  for (let i = 0; i + 2 < line.length; i++)
    if (program(line[i]) === 'contour' && line[i + 1] === 'envoy' && line[i + 2] === sub)
      return i + 3;
  return -1;
}

/** Returns true when the container runs `contour envoy shutdown-manager`. */
function runsShutdownManager(container: Container): boolean {
  return (
    subcommandEnd([...words(container.command), ...words(container.args)], 'shutdown-manager') >= 0
  );
}

/** The shutdown-manager's `--serve-port`, as written or its default. */
function servePort(container: Container): number {
  const line = [...words(container.command), ...words(container.args)];
  const flag = readFlag(line, 'serve-port', subcommandEnd(line, 'shutdown-manager'));
  const port = flag === undefined ? SERVE_PORT_DEFAULT : Number(flag.text);
  return Number.isInteger(port) ? port : SERVE_PORT_DEFAULT;
}

/** True when the preStop is `httpGet` of `/shutdown` on the given port. */
function asksShutdown(container: Container, port: number): boolean {
  const httpGet = container.lifecycle?.preStop?.['httpGet'] as
    { path?: unknown; port?: unknown } | undefined;
  if (typeof httpGet !== 'object' || httpGet === null) return false;
  const path = typeof httpGet.path === 'string' ? httpGet.path.replace(/^\/*/, '/') : '';
  return path === SHUTDOWN_PATH && String(httpGet.port) === String(port);
}

/** Contour's Envoy pod: the shutdown-manager and the Envoy container its `/shutdown` holds. */
export interface ContourEnvoyPod {
  readonly shutdownManager: Container;
  /** The container whose preStop asks the shutdown-manager's `/shutdown`, when one does. */
  readonly envoy?: Container;
}

/** Returns Contour's Envoy pod parts, or undefined when no container runs the shutdown-manager. */
export function contourEnvoyPod(spec: PodSpec | null | undefined): ContourEnvoyPod | undefined {
  const containers = spec?.containers ?? [];
  const shutdownManager = containers.find(runsShutdownManager);
  if (shutdownManager === undefined) return undefined;
  const port = servePort(shutdownManager);
  const envoy = containers.find((c) => c !== shutdownManager && asksShutdown(c, port));
  return { shutdownManager, ...(envoy ? { envoy } : {}) };
}

/** Returns true when the pod runs Contour's shutdown-manager. */
export function runsContourShutdownManager(template: PodTemplate): boolean {
  return contourEnvoyPod(template.spec) !== undefined;
}

/** One flag of a command line as written: its value text, and where it is. */
export interface CommandFlag {
  readonly text: string;
  /** The index of the word holding the value (`--x=5`: the flag's own; `--x 5`: the next). */
  readonly valueIndex: number;
  /** True when the value shares its word with the flag name (`--x=5`). */
  readonly inline: boolean;
}

/** Returns the last `--name` after index `from` of a kingpin command line, or undefined. */
function readFlag(line: readonly string[], name: string, from: number): CommandFlag | undefined {
  let found: CommandFlag | undefined;
  for (let i = Math.max(from, 0); i < line.length; i++) {
    const word = line[i]!;
    if (word === '--') break;
    if (word.startsWith(`--${name}=`))
      found = { text: word.slice(name.length + 3), valueIndex: i, inline: true };
    else if (word === `--${name}` && i + 1 < line.length) {
      found = { text: line[i + 1]!, valueIndex: i + 1, inline: false };
      i++;
    }
  }
  return found;
}

/** The shutdown-manager's preStop `contour envoy shutdown …`, as the kubelet runs it. */
export interface ShutdownHook {
  /** The preStop's `exec.command`, word by word. */
  readonly command: readonly string[];
  readonly drainDelay?: CommandFlag;
  readonly checkDelay?: CommandFlag;
  readonly checkInterval?: CommandFlag;
  readonly minOpen?: CommandFlag;
}

/** Returns the shutdown-manager's preStop when it is `contour envoy shutdown`, else undefined. */
export function shutdownHook(container: Container): ShutdownHook | undefined {
  const exec = container.lifecycle?.preStop?.['exec'] as { command?: unknown } | undefined;
  if (typeof exec !== 'object' || exec === null || !Array.isArray(exec.command)) return undefined;
  const command = words(exec.command as unknown[]);
  const from = subcommandEnd(command, 'shutdown');
  if (from < 0) return undefined;
  const flag = (name: string) => readFlag(command, name, from);
  const drainDelay = flag(DRAIN_DELAY_FLAG);
  const checkDelay = flag(CHECK_DELAY_FLAG);
  const checkInterval = flag(CHECK_INTERVAL_FLAG);
  const minOpen = flag(MIN_OPEN_FLAG);
  return {
    command,
    ...(drainDelay ? { drainDelay } : {}),
    ...(checkDelay ? { checkDelay } : {}),
    ...(checkInterval ? { checkInterval } : {}),
    ...(minOpen ? { minOpen } : {}),
  };
}

/** A value of the shutdown sequence, and in words where it came from. */
interface ShutdownValue {
  readonly value: number;
  readonly source: string;
  /** The value as written, where it differs from `value` in seconds (`1m`). */
  readonly display?: string;
}

/** The values `contour envoy shutdown` runs with. */
export interface ShutdownSettings {
  /** D: `--drain-delay`, before Envoy's health checks fail. */
  readonly drainDelay: ShutdownValue;
  /** C: `--check-delay`, after that, before the first poll. */
  readonly checkDelay: ShutdownValue;
  /** I: `--check-interval`, between polls. */
  readonly checkInterval: ShutdownValue;
  /** M: `--min-open-connections`, a count. */
  readonly minOpen: ShutdownValue;
  /** The flags kingpin cannot parse (the command then fails), as `--name=text`. */
  readonly unreadable: readonly string[];
}

/** Returns the values of the hook's flags, or the release's defaults (kingpin's parsing). */
export function shutdownSettings(hook: ShutdownHook, version: string): ShutdownSettings {
  const unreadable: string[] = [];
  const duration = (name: string, flag: CommandFlag | undefined, fallback: number) => {
    if (flag === undefined) return { value: fallback, source: 'Contour default (flag not set)' };
    const value = parseGoDurationSeconds(flag.text.trim());
    if (value === undefined) {
      unreadable.push(`--${name}=${flag.text}`);
      return { value: fallback, source: `--${name} unreadable (${JSON.stringify(flag.text)})` };
    }
    return { value, source: `flag --${name}`, display: flag.text };
  };
  const minOpenText = hook.minOpen?.text.trim();
  let minOpen: ShutdownValue = { value: 0, source: 'Contour default (flag not set)' };
  if (minOpenText !== undefined) {
    if (/^\d{1,9}$/.test(minOpenText))
      minOpen = { value: Number(minOpenText), source: `flag --${MIN_OPEN_FLAG}` };
    else unreadable.push(`--${MIN_OPEN_FLAG}=${minOpenText}`);
  }
  return {
    drainDelay: duration(DRAIN_DELAY_FLAG, hook.drainDelay, 0),
    checkDelay: duration(CHECK_DELAY_FLAG, hook.checkDelay, checkDelayDefaultSeconds(version)),
    checkInterval: duration(
      CHECK_INTERVAL_FLAG,
      hook.checkInterval,
      CHECK_INTERVAL_DEFAULT_SECONDS,
    ),
    minOpen,
    unreadable,
  };
}

/**
 * Returns the Contour release the image tag names (`v1.33.6`, `v1.33.6@sha256:…`), or undefined
 * for a tag that names none (a digest only, `latest`, `main`).
 */
export function contourVersion(container: Container): string | undefined {
  return /^v?(\d+\.\d+\.\d+)/.exec(imageTag(container.image))?.[1];
}
