/**
 * Recognises Kong's proxy container and reads its preStop `kong quit` (issue #26 item 5). One home
 * for these facts: the kong-drain mutator plans these pods, app-graceful leaves them alone (a sleep
 * in front of `kong quit` would only move every step later, and the chart's ingress-controller
 * container is not behind the load balancer), and the compatibility table cites the same sources.
 *
 * How Kong stops, read at Kong/kong 3.9.3 (kong/cmd/quit.lua, the same file since 2.0.0) and the
 * chart Kong/charts kong-3.4.1 (charts/kong/values.yaml `lifecycle`,
 * `terminationGracePeriodSeconds` 30):
 * - the chart's preStop `kong quit --wait=15` keeps nginx serving for `--wait` seconds (default
 *   0), then sends it SIGQUIT: nginx closes its listeners and its workers finish the requests in
 *   flight;
 * - `kong quit` waits up to `--timeout` seconds (default 10, at least 1) for nginx to exit, then
 *   sends SIGTERM, nginx's fast shutdown, which cuts what is still in flight; the hook returns;
 * - Kong's nginx template sets no `worker_shutdown_timeout`, so nothing else cuts them earlier.
 * The options are Penlight lapp's (`--wait=15`, `--wait 15`, `-w 15`, numbers); a value lapp cannot
 * read fails the command at once.
 */
import type { Container, PodSpec, PodTemplate } from '../../core/kubeObject.ts';
import { atLeast, imageTag } from '../../core/versions.ts';
import { reached } from '../../facts/versionGates.ts';
import type { VersionGate } from '../../facts/versionGates.ts';

export const WAIT_OPTION = 'wait';
export const TIMEOUT_OPTION = 'timeout';
const SHORT: Readonly<Record<string, string>> = { [WAIT_OPTION]: '-w', [TIMEOUT_OPTION]: '-t' };
const WAIT_DEFAULT_SECONDS = 0;
const TIMEOUT_DEFAULT_SECONDS = 10;
/** `kong quit` waits at least this long for nginx (`math.max(args.timeout, 1)`). */
const TIMEOUT_MIN_SECONDS = 1;
/** The releases whose kong/cmd/quit.lua was read: 2.0.0 up to 3.9.3, the last open-source one. */
export const KONG_QUIT = {
  product: 'Kong',
  since: '2.0',
  source: 'Kong/kong kong/cmd/quit.lua@2.0.0 … @3.9.3 (unchanged)',
} as const satisfies VersionGate;
/** The last release read (3.9.3; later ones are Kong Enterprise's). */
export const KONG_QUIT_READ_UP_TO = '3.9';
/** The repositories of Kong's gateway images (`kong`, `kong/kong`, `kong/kong-gateway`). */
const KONG_IMAGES = new Set(['kong', 'kong-gateway']);

const words = (list: readonly unknown[] | null | undefined): string[] =>
  (list ?? []).map((w) => (typeof w === 'string' || typeof w === 'number' ? String(w) : ''));

/** The preStop `exec.command`, word by word, or undefined when the hook is not an exec. */
function execCommand(container: Container): string[] | undefined {
  const exec = container.lifecycle?.preStop?.['exec'] as { command?: unknown } | undefined;
  if (typeof exec !== 'object' || exec === null || !Array.isArray(exec.command)) return undefined;
  return words(exec.command as unknown[]);
}

/** True when a command line is `kong quit …`. */
function isKongQuit(command: readonly string[] | undefined): boolean {
  return command !== undefined && command[0]?.split('/').pop() === 'kong' && command[1] === 'quit';
}

/** True when the container runs one of Kong's gateway images. */
function runsKongImage(container: Container): boolean {
  const image = typeof container.image === 'string' ? container.image : '';
  const repository = (image.split('@')[0] ?? '').split('/').pop()?.split(':')[0] ?? '';
  return KONG_IMAGES.has(repository);
}

/** Returns the pod's Kong proxy containers: a `kong quit` preStop, or a Kong gateway image. */
export function kongContainers(spec: PodSpec | null | undefined): Container[] {
  return (spec?.containers ?? []).filter((c) => isKongQuit(execCommand(c)) || runsKongImage(c));
}

/** Returns true when an app container of the pod is Kong's proxy. */
export function runsKong(template: PodTemplate): boolean {
  return kongContainers(template.spec).length > 0;
}

/** One option of `kong quit` as written. */
export interface QuitOption {
  /** The number lapp reads, or undefined when it reads none (the command then fails). */
  readonly seconds: number | undefined;
  readonly text: string;
  /** The index of the word holding the value (`--wait=15`: the option's own; `-w 15`: the next). */
  readonly valueIndex: number;
  readonly inline: boolean;
}

/** The preStop `kong quit`, as the kubelet runs it. */
export interface KongQuit {
  readonly command: readonly string[];
  readonly wait?: QuitOption;
  readonly timeout?: QuitOption;
}

function number(text: string): number | undefined {
  return /^\d{1,9}(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/** Returns the last occurrence of an option (`--name=N`, `--name N` or its short form). */
function readOption(command: readonly string[], name: string): QuitOption | undefined {
  let found: QuitOption | undefined;
  for (let i = 2; i < command.length; i++) {
    const word = command[i]!;
    if (word.startsWith(`--${name}=`)) {
      const text = word.slice(name.length + 3);
      found = { seconds: number(text), text, valueIndex: i, inline: true };
    } else if ((word === `--${name}` || word === SHORT[name]) && i + 1 < command.length) {
      const text = command[i + 1]!;
      found = { seconds: number(text), text, valueIndex: i + 1, inline: false };
      i++;
    }
  }
  return found;
}

/** Returns the container's preStop when it is `kong quit`, else undefined. */
export function kongQuit(container: Container): KongQuit | undefined {
  const command = execCommand(container);
  if (command === undefined || !isKongQuit(command)) return undefined;
  const wait = readOption(command, WAIT_OPTION);
  const timeout = readOption(command, TIMEOUT_OPTION);
  return { command, ...(wait ? { wait } : {}), ...(timeout ? { timeout } : {}) };
}

/** A value of `kong quit`, and in words where it came from. */
export interface QuitValue {
  readonly value: number;
  readonly source: string;
}

/** The `--wait` and `--timeout` a `kong quit` runs with (defaults 0 and 10, timeout ≥ 1). */
export function quitSettings(quit: KongQuit): { wait: QuitValue; timeout: QuitValue } {
  const read = (option: QuitOption | undefined, name: string, fallback: number): QuitValue =>
    option?.seconds === undefined
      ? { value: fallback, source: 'kong quit default (option not set)' }
      : { value: option.seconds, source: `option --${name}` };
  const timeout = read(quit.timeout, TIMEOUT_OPTION, TIMEOUT_DEFAULT_SECONDS);
  return {
    wait: read(quit.wait, WAIT_OPTION, WAIT_DEFAULT_SECONDS),
    timeout: { ...timeout, value: Math.max(timeout.value, TIMEOUT_MIN_SECONDS) },
  };
}

/**
 * Returns the Kong release the image tag names as X.Y (`3.9`, `3.9.1`, `3.9.1.0-ubuntu`), or
 * undefined for a tag that names none (a digest only, `latest`).
 */
export function kongVersion(container: Container): string | undefined {
  return /^(\d+\.\d+)(?:[.-]|$)/.exec(imageTag(container.image))?.[1];
}

/** True when `kong quit` of that release was read (2.0 up to 3.9). */
export function quitModelled(version: string | undefined): boolean {
  return (
    version !== undefined && reached(KONG_QUIT, version) && atLeast(KONG_QUIT_READ_UP_TO, version)
  );
}
