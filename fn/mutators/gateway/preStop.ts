/**
 * The gateway proxy's preStop hook: reading how long one the user wrote sleeps, and building the
 * one kube-graceful writes in sleep mode (DOMAIN §1: one handler per hook; the `sleep` action is
 * beta and on from Kubernetes 1.30 and needs no binary in the image).
 */
import { atLeast } from '../../config/versions.ts';

/** DOMAIN §1: `preStop.sleep` (KEP-3960) is beta, on by default, from 1.30; on 1.29 it is off and silently dropped. */
export const SLEEP_ACTION_SINCE = '1.30';

/**
 * Returns how many seconds an existing preStop hook sleeps: a `sleep` action, or `exec` of
 * `sleep N` / `sh -c "sleep N"`; 'unknown' for any other hook (httpGet, scripts…); undefined
 * when there is no hook. Fractions are rounded up (the model takes whole seconds).
 */
export function existingPreStopSeconds(preStop: unknown): number | 'unknown' | undefined {
  if (preStop === undefined || preStop === null) return undefined;
  if (typeof preStop !== 'object' || Array.isArray(preStop)) return 'unknown';
  const hook = preStop as { sleep?: { seconds?: unknown } | null; exec?: { command?: unknown } | null };
  if (Object.keys(hook).length === 0) return undefined;
  if (hook.sleep && typeof hook.sleep.seconds === 'number' && Number.isInteger(hook.sleep.seconds) && hook.sleep.seconds >= 0) return hook.sleep.seconds;
  const command = hook.exec?.command;
  if (!Array.isArray(command) || !command.every((part) => typeof part === 'string')) return 'unknown';
  const words = command as string[];
  const program = (word: string | undefined) => word?.split('/').pop();
  if (words.length === 2 && program(words[0]) === 'sleep') return sleepArgument(words[1]!);
  if (words.length === 3 && ['sh', 'bash', 'ash', 'dash'].includes(program(words[0]) ?? '') && words[1] === '-c') {
    const script = /^\s*(?:exec\s+)?sleep\s+([^\s;]+)\s*;?\s*$/.exec(words[2]!);
    if (script) return sleepArgument(script[1]!);
  }
  return 'unknown';
}

/** `sleep`'s argument: seconds, with the s/m/h suffixes GNU and busybox sleep accept. */
function sleepArgument(text: string): number | 'unknown' {
  const match = /^(\d+(?:\.\d+)?)([smh]?)$/.exec(text.trim());
  if (!match) return 'unknown';
  const factor = { '': 1, s: 1, m: 60, h: 3600 }[match[2] as '' | 's' | 'm' | 'h'];
  return Math.ceil(Number(match[1]) * factor);
}

/** The hook to write, or why none can be written. */
export type PreStopChoice =
  | { readonly hook: Record<string, unknown>; readonly how: string }
  | { readonly refused: string };

/**
 * Returns the preStop that sleeps `seconds`: the `sleep` action on Kubernetes ≥ 1.30, else
 * `exec sleep` only when config says the image has a shell and `sleep` (the distroless proxy
 * image has neither, DOMAIN §2), else a refusal.
 */
export function sleepPreStop(seconds: number, kubernetes: { version: string; source: string }, imageHasShell: { value: boolean; source: string }): PreStopChoice {
  if (atLeast(kubernetes.version, SLEEP_ACTION_SINCE)) {
    return { hook: { sleep: { seconds } }, how: `Kubernetes sleep action (beta and on by default from ${SLEEP_ACTION_SINCE}; cluster ${kubernetes.version}, ${kubernetes.source})` };
  }
  if (imageHasShell.value) {
    return { hook: { exec: { command: ['sleep', String(seconds)] } }, how: `exec sleep: cluster ${kubernetes.version} (${kubernetes.source}) is older than ${SLEEP_ACTION_SINCE}, and gateway.imageHasShell is true (${imageHasShell.source})` };
  }
  return {
    refused:
      `Kubernetes ${kubernetes.version} (${kubernetes.source}) has no preStop sleep action on by default (beta from ${SLEEP_ACTION_SINCE}), ` +
      `and the gateway image is not known to have sleep (the distroless proxy image has no shell or sleep, DOMAIN §2): no preStop written. ` +
      `Use --gateway-mode env (Istio ≥ 1.12), set --kube-version if the cluster is newer, or --gateway-image-has-shell true if the image has sleep.`,
  };
}
