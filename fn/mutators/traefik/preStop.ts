/**
 * A preStop the user put on the Traefik container. kube-graceful never adds one here: Traefik's own
 * `requestAcceptGraceTimeout` is its documented way to keep accepting after SIGTERM. One that is
 * there already holds SIGTERM back by its length, which the plan must count.
 */
import type { Container } from '../../core/kubeObject.ts';

/** Returns the hook's sleep in seconds, 'unknown' when it does something else, undefined when there
 * is none. */
export function preStopSleepSeconds(container: Container): number | 'unknown' | undefined {
  const preStop = container.lifecycle?.preStop;
  if (preStop === null || preStop === undefined) return undefined;
  const sleep = (preStop as { sleep?: { seconds?: unknown } }).sleep;
  if (sleep !== undefined) return wholeSeconds(sleep?.seconds);
  const command = (preStop as { exec?: { command?: unknown } }).exec?.command;
  if (!Array.isArray(command)) return 'unknown';
  const words = command.map(String);
  // ["sleep", "30"], ["/bin/sleep", "30"], ["/bin/sh", "-c", "sleep 30"]
  if (words.length === 2 && /(^|\/)sleep$/.test(words[0] ?? '')) return wholeSeconds(words[1]);
  if (words.length === 3 && /(^|\/)(ba|da)?sh$/.test(words[0] ?? '') && words[1] === '-c') {
    const match = /^\s*sleep\s+(\d+)\s*$/.exec(words[2] ?? '');
    if (match) return Number(match[1]);
  }
  return 'unknown';
}

function wholeSeconds(value: unknown): number | 'unknown' {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : 'unknown';
}
