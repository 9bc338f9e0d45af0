/**
 * Kuma's sidecar in a Job (issue #30 item 2), said rather than planned. Kuma's injector adds a
 * `kuma-sidecar` container to a pod labelled `kuma.io/sidecar-injection` true, yes or enabled
 * (pkg/plugins/runtime/k8s/webhooks/injector/precheck.go@2.12.3; metadata/annotations.go
 * GetEnabled; util/names.go KumaSidecarContainerName), or in a namespace so labelled (read where
 * the Namespace is in the stream). It runs
 * until it is told to stop, so the Job's pod never completes. kube-graceful does not end it: the
 * control plane quits Envoy through an admin listener it reaches over TLS, on a port the bootstrap
 * assigns (pkg/envoy/admin/client.go@2.12.3 PostQuit; app/kuma-dp/cmd/run.go@2.12.3), and how
 * kuma-dp then exits is not modelled. Kuma runs its sidecar as a native one where the control
 * plane's `experimental.sidecarContainers` (KUMA_EXPERIMENTAL_SIDECAR_CONTAINERS, 2.7.0+:
 * pkg/config/app/kuma-cp/config.go@2.7.0) is on, and the Job then completes; that setting is not
 * in the Job's stream, so the warning says so.
 */
import { labelsOf } from '../../core/kubeObject.ts';
import type { KubeObject, PodTemplate } from '../../core/kubeObject.ts';

export const KUMA_INJECTION = 'kuma.io/sidecar-injection';

/** The container Kuma's injector adds (util/names.go@2.12.3). */
export const KUMA_SIDECAR = 'kuma-sidecar';

/** Kuma's GetEnabled (metadata/annotations.go@2.12.3): true, yes, enabled; else not. */
function enabled(value: string): boolean {
  return ['true', 'yes', 'enabled'].includes(value);
}

/**
 * True when Kuma's injector adds its sidecar to this pod: the pod template's label when it has
 * one, else its namespace's, where that Namespace is in the stream (precheck.go@2.12.3).
 */
export function kumaInjected(template: PodTemplate, namespace: KubeObject | undefined): boolean {
  const own = labelsOf(template.metadata)[KUMA_INJECTION];
  if (own !== undefined) return enabled(own);
  const inherited = labelsOf(namespace?.metadata)[KUMA_INJECTION];
  return inherited !== undefined && enabled(inherited);
}
