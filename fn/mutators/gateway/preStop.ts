/**
 * The gateway proxy's preStop hook: the one kube-graceful writes in sleep mode (reading one the
 * user wrote is fn/workloads/preStop.ts) (docs/background.md#kubernetes-pod-termination: one
 * handler per hook; the `sleep` action is beta and on from Kubernetes 1.30 and needs no binary in
 * the image).
 */
import { sleepHook } from '../../workloads/preStop.ts';
import { KUBERNETES } from '../../facts/versionGates.ts';

/** The hook to write, or why none can be written. */
export type PreStopChoice =
  { readonly hook: Record<string, unknown>; readonly how: string } | { readonly refused: string };

/**
 * Returns the preStop that sleeps `seconds`: the `sleep` action on Kubernetes ≥ 1.30, else
 * `exec sleep` only when config says the image has a shell and `sleep` (the distroless proxy
 * image has neither, docs/background.md#istio), else a refusal.
 */
export function sleepPreStop(
  seconds: number,
  kubernetes: { version: string; source: string },
  imageHasShell: { value: boolean; source: string },
  envModeAvailable: boolean,
): PreStopChoice {
  const chosen = sleepHook(seconds, kubernetes.version, imageHasShell.value);
  if (chosen.mechanism === 'sleep-action') {
    return {
      hook: chosen.hook,
      how:
        `Kubernetes sleep action (beta and on by default from ${KUBERNETES.sleepAction.since}; ` +
        `cluster ${kubernetes.version}, ${kubernetes.source})`,
    };
  }
  if (chosen.mechanism === 'exec-sleep') {
    return {
      hook: chosen.hook,
      how:
        `exec sleep: cluster ${kubernetes.version} (${kubernetes.source}) is older than ` +
        `${KUBERNETES.sleepAction.since}, ` +
        `and gateway.imageHasShell is true (${imageHasShell.source})`,
    };
  }
  return {
    refused:
      `Kubernetes ${kubernetes.version} (${kubernetes.source}) has no preStop sleep action ` +
      `on by default (beta from ${KUBERNETES.sleepAction.since}), ` +
      `and the gateway image is not known to have sleep (the distroless proxy image has no ` +
      `shell or sleep): no preStop written. ` +
      `${envModeAvailable ? 'Use --gateway-mode env, ' : ''}set --kube-version if the oldest ` +
      `kubelet is newer, or --gateway-image-has-shell true if the image has sleep.`,
  };
}
