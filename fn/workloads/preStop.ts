/**
 * What a container's preStop hook does, read once for every part of kube-graceful (the gateway and
 * app mutators feed its length to the timing model; explain draws it).
 * docs/background.md#kubernetes-pod-termination: one handler per hook; only a plain sleep has a
 * length that can be read from the manifest.
 */
import { MAX_INPUT_SECONDS } from '../timing/model.ts';
import { comparableSeconds, isInt64 } from './grace.ts';
import { KUBERNETES, reached } from '../facts/versionGates.ts';

// kube-graceful never writes a zero sleep (KUBERNETES.sleepZero): a zero-second wait needs no hook.

/** A preStop hook as the kubelet will run it. */
export interface PreStopRead {
  /** Seconds it delays SIGTERM; 'unknown' when it is not a plain sleep. */
  readonly seconds: number | 'unknown';
  readonly handler: 'sleep' | 'exec' | 'httpGet' | 'tcpSocket' | 'other';
  /** In words: "sleep action 180 s", "exec sleep 5 s", "httpGet (length unknown)". */
  readonly text: string;
}

/**
 * Returns what a preStop hook does, or undefined when there is none (absent, null or `{}`). With
 * the oldest kubelet's version, a sleep action counts only where that kubelet runs it: below
 * KUBERNETES.sleepAction the gate is off by default and the kubelet returns at once (KEP-3960),
 * so the hook delays SIGTERM by nothing (issue #27 item 14).
 */
export function readPreStop(preStop: unknown, kubernetesVersion?: string): PreStopRead | undefined {
  if (preStop === undefined || preStop === null) return undefined;
  if (!isRecord(preStop))
    return { seconds: 'unknown', handler: 'other', text: 'a hook of unknown length' };
  if (Object.keys(preStop).length === 0) return undefined;
  const sleep = preStop['sleep'];
  if (isRecord(sleep)) {
    const seconds = sleep['seconds'];
    if (!isInt64(seconds) || seconds < 0)
      return { seconds: 'unknown', handler: 'sleep', text: 'sleep action (seconds unreadable)' };
    if (kubernetesVersion !== undefined && !reached(KUBERNETES.sleepAction, kubernetesVersion))
      return {
        seconds: 0,
        handler: 'sleep',
        text:
          `sleep action ${String(seconds)} s, not run: off by default on a kubelet below ` +
          `${KUBERNETES.sleepAction.since} (oldest kubelet ${kubernetesVersion})`,
      };
    return plannable(comparableSeconds(seconds), 'sleep', `sleep action ${String(seconds)} s`);
  }
  const exec = preStop['exec'];
  if (isRecord(exec)) {
    const command = exec['command'];
    // YAML may hand over `30` as a number; the kubelet gets text either way.
    const words =
      Array.isArray(command) && command.every((w) => typeof w === 'string' || typeof w === 'number')
        ? command.map(String)
        : [];
    const seconds = execSleepSeconds(words);
    return seconds === undefined
      ? {
          seconds: 'unknown',
          handler: 'exec',
          text: `exec ${JSON.stringify(words.join(' '))} (length unknown)`,
        }
      : plannable(seconds, 'exec', `exec sleep ${seconds} s`);
  }
  if (isRecord(preStop['httpGet']))
    return { seconds: 'unknown', handler: 'httpGet', text: 'httpGet (length unknown)' };
  if (isRecord(preStop['tcpSocket']))
    return { seconds: 'unknown', handler: 'tcpSocket', text: 'tcpSocket (length unknown)' };
  return { seconds: 'unknown', handler: 'other', text: 'a hook of unknown length' };
}

/**
 * A sleep longer than the timing model's longest input (a day) is not a drain step but a hook
 * that holds the pod until its grace runs out: its length is not one a plan can be made from
 * (S + R + B would pass what an int64 holds for `sleep 9223372036854775807`), so it reads as a
 * hook of unknown length, which the mutators keep and say so.
 */
function plannable(seconds: number, handler: 'sleep' | 'exec', text: string): PreStopRead {
  return seconds <= MAX_INPUT_SECONDS
    ? { seconds, handler, text }
    : { seconds: 'unknown', handler, text: `${text} (longer than a day: not planned with)` };
}

/**
 * Returns how long a preStop hook delays SIGTERM: seconds, 'unknown', or undefined without a hook.
 */
export function preStopSeconds(
  preStop: unknown,
  kubernetesVersion?: string,
): number | 'unknown' | undefined {
  return readPreStop(preStop, kubernetesVersion)?.seconds;
}

/**
 * `sleep N`, `sh -c "sleep N"` or `sh -c "exec sleep N;"`, with the s/m/h suffixes GNU and busybox
 * sleep accept; fractions round up.
 */
function execSleepSeconds(words: readonly string[]): number | undefined {
  const program = (word: string | undefined) => word?.split('/').pop();
  let operand: string | undefined;
  if (words.length === 2 && program(words[0]) === 'sleep') operand = words[1];
  else if (
    words.length === 3 &&
    ['sh', 'bash', 'ash', 'dash'].includes(program(words[0]) ?? '') &&
    words[1] === '-c'
  ) {
    operand = /^\s*(?:exec\s+)?sleep\s+([^\s;]+)\s*;?\s*$/.exec(words[2] ?? '')?.[1];
  }
  const match = operand === undefined ? null : /^(\d+(?:\.\d+)?)([smh]?)$/.exec(operand.trim());
  if (!match) return undefined;
  const factor = { '': 1, s: 1, m: 60, h: 3600 }[match[2] as '' | 's' | 'm' | 'h'];
  // `sleep 9223372036854775807` is a valid command (GNU and busybox sleep take it): it outlasts
  // any plan, and the model compares it as the longest whole number it holds exactly.
  return Math.min(Math.ceil(Number(match[1]) * factor), Number.MAX_SAFE_INTEGER);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The hook that sleeps, by what the oldest kubelet and the image have: the one choice every mutator
 * makes.
 */
export type SleepHook =
  | { readonly mechanism: 'sleep-action' | 'exec-sleep'; readonly hook: Record<string, unknown> }
  | { readonly mechanism: 'none'; readonly hook: undefined };

/**
 * Returns the preStop that sleeps `seconds`: the `sleep` action where the oldest kubelet has it on
 * by default (from KUBERNETES.sleepAction, KEP-3960; needs no binary in the image), else `exec
 * sleep` only when the image is known to have `sleep` (distroless images have none:
 * istio/istio#47779), else none.
 */
export function sleepHook(
  seconds: number,
  kubernetesVersion: string,
  imageHasSleep: boolean,
): SleepHook {
  if (reached(KUBERNETES.sleepAction, kubernetesVersion))
    return { mechanism: 'sleep-action', hook: { sleep: { seconds } } };
  if (imageHasSleep)
    return { mechanism: 'exec-sleep', hook: { exec: { command: ['sleep', String(seconds)] } } };
  return { mechanism: 'none', hook: undefined };
}
