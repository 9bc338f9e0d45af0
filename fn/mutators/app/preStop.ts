/**
 * App containers' preStop hooks: how long an existing one sleeps, and the hook to add where there
 * is none (DOMAIN.md §1: the endpoint removal races the kubelet's SIGTERM, so the app must keep
 * serving for the drain window S = W before it is asked to stop).
 */
import { atLeast } from '../../config/versions.ts';
import type { Spec } from '../../config/schema.ts';

/** How long a hook sleeps: whole seconds, or 'unknown' when it is not a plain sleep. */
export type PreStopLength = number | 'unknown';

/** `sleep` action: beta and on by default from Kubernetes 1.30 (KEP-3960, DOMAIN.md §1). */
export const SLEEP_ACTION_SINCE = '1.30';

/** Shells whose `-c "sleep N"` is a plain sleep. */
const SHELLS = /^(?:\/(?:usr\/)?bin\/)?(?:sh|bash|ash|dash)$/;
const SLEEP = /^(?:\/(?:usr\/)?bin\/)?sleep$/;
/** `sleep`'s operand: seconds, optionally with GNU/busybox's `s` suffix; fractions round up. */
const SECONDS = /^(\d+(?:\.\d+)?)s?$/;

/**
 * Returns how long an existing preStop hook delays SIGTERM: the `sleep` action's seconds, exec
 * `sleep N`, or `sh -c "sleep N"`; 'unknown' for anything else (httpGet, scripts); undefined when
 * there is no hook.
 */
export function readPreStopLength(preStop: unknown): PreStopLength | undefined {
  if (preStop === undefined || preStop === null) return undefined;
  if (typeof preStop !== 'object') return 'unknown';
  const hook = preStop as { sleep?: { seconds?: unknown }; exec?: { command?: unknown } };
  if (hook.sleep) return typeof hook.sleep.seconds === 'number' && Number.isInteger(hook.sleep.seconds) && hook.sleep.seconds >= 0 ? hook.sleep.seconds : 'unknown';
  const command = hook.exec?.command;
  if (!Array.isArray(command) || !command.every((word) => typeof word === 'string' || typeof word === 'number')) return 'unknown';
  const words = command.map(String);
  if (words.length === 2 && SLEEP.test(words[0]!)) return seconds(words[1]!);
  if (words.length === 3 && SHELLS.test(words[0]!) && words[1] === '-c') {
    const script = words[2]!.trim().replace(/;$/, '').trim().split(/\s+/);
    if (script.length === 2 && SLEEP.test(script[0]!)) return seconds(script[1]!);
  }
  return 'unknown';
}

function seconds(text: string): PreStopLength {
  const match = SECONDS.exec(text);
  return match ? Math.ceil(Number(match[1])) : 'unknown';
}

/** A hook to add, and in words which mechanism it uses and why. */
export type NewPreStop =
  | { readonly hook: Record<string, unknown>; readonly mechanism: string }
  | { readonly hook: undefined; readonly problem: string };

/**
 * Returns the hook that sleeps `seconds`: the Kubernetes `sleep` action from 1.30 (needs no binary
 * in the image), else `exec sleep` only when config says the image has one (distroless images do
 * not: istio/istio#47779), else no hook and the reason.
 */
export function newPreStop(seconds: number, spec: Spec): NewPreStop {
  const version = spec.kubernetesVersion;
  if (atLeast(version, SLEEP_ACTION_SINCE)) {
    return { hook: { sleep: { seconds } }, mechanism: `Kubernetes sleep action: beta and on by default from ${SLEEP_ACTION_SINCE} (KEP-3960), target Kubernetes ${version}; needs no sleep binary in the image.` };
  }
  if (spec.app.imageHasShell) {
    return { hook: { exec: { command: ['sleep', String(seconds)] } }, mechanism: `exec sleep: Kubernetes ${version} has no sleep action on by default (from ${SLEEP_ACTION_SINCE}, KEP-3960); app.imageHasShell says the image has sleep.` };
  }
  return {
    hook: undefined,
    problem:
      `Kubernetes ${version} has no preStop sleep action on by default (on from ${SLEEP_ACTION_SINCE}, KEP-3960) and ` +
      `app.imageHasShell is false (distroless images have no sleep binary, istio/istio#47779), so no preStop was added: ` +
      `the container gets SIGTERM while endpoints may still route to it for ${seconds} s. Set app.imageHasShell: true ` +
      `(--app-image-has-shell) if the image has sleep, or target Kubernetes ${SLEEP_ACTION_SINCE}+.`,
  };
}
