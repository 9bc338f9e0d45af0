/**
 * App containers' preStop hooks: how long an existing one sleeps, and the hook to add where there
 * is none (docs/background.md#kubernetes-pod-termination: the endpoint removal races the kubelet's
 * SIGTERM, so the app must keep serving for the drain window S = W before it is asked to stop).
 */
import type { Spec } from '../../config/schema.ts';
import { sleepHook } from '../../workloads/preStop.ts';
import { KUBERNETES } from '../../facts/versionGates.ts';

/** How long a hook sleeps: whole seconds, or 'unknown' when it is not a plain sleep. */
export type PreStopLength = number | 'unknown';

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
  const chosen = sleepHook(seconds, version, spec.app.imageHasShell);
  if (chosen.mechanism === 'sleep-action') {
    return {
      hook: chosen.hook,
      mechanism:
        `Kubernetes sleep action: beta and on by default from ${KUBERNETES.sleepAction.since}` +
        ` (KEP-3960), target Kubernetes ${version}; needs no sleep binary in ` +
        `the image.`,
    };
  }
  if (chosen.mechanism === 'exec-sleep') {
    return {
      hook: chosen.hook,
      mechanism:
        `exec sleep: Kubernetes ${version} has no sleep action on by default ` +
        `(from ${KUBERNETES.sleepAction.since}, KEP-3960); app.imageHasShell says the ` +
        `image has sleep.`,
    };
  }
  return {
    hook: undefined,
    problem:
      `Kubernetes ${version} has no preStop sleep action on by default (on ` +
      `from ${KUBERNETES.sleepAction.since}, KEP-3960) and ` +
      (`app.imageHasShell is false (distroless images have no sleep binary, ` +
        `istio/istio#47779), so no preStop was added: `) +
      (`the container gets SIGTERM while endpoints may still route to it for ${seconds}` +
        ` s. Set app.imageHasShell: true `) +
      (`(--app-image-has-shell) if the image has sleep, ` +
        `or target Kubernetes ${KUBERNETES.sleepAction.since}+.`),
  };
}
