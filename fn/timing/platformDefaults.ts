/**
 * What Kubernetes and Istio do when a manifest sets nothing: the values the mutators must not
 * undercut and explain draws "as written" timelines with. One place, each with its source.
 */

/**
 * docs/background.md#kubernetes-pod-termination: `terminationGracePeriodSeconds` when the pod sets
 * none (core/v1 PodSpec).
 */
export const KUBERNETES_DEFAULT_GRACE_SECONDS = 30;
/**
 * docs/background.md#kubernetes-pod-termination: the one-off extension the kubelet grants a preStop
 * hook that overruns the grace period.
 */
export const KUBELET_PRESTOP_EXTENSION_SECONDS = 2;
/**
 * docs/background.md#istio: Envoy `--drain-time-s`, Istio's `drainDuration` default: listeners
 * close after it.
 */
export const ISTIO_DEFAULT_DRAIN_DURATION_SECONDS = 45;
/**
 * docs/background.md#istio: pilot-agent's wait before it kills Envoy when exit-on-zero is off
 * (`terminationDrainDuration`).
 */
export const ISTIO_DEFAULT_TERMINATION_DRAIN_SECONDS = 5;
/**
 * docs/background.md#istio: `MINIMUM_DRAIN_DURATION` default (also what a bare number silently
 * falls back to).
 */
export const ISTIO_DEFAULT_MINIMUM_DRAIN_SECONDS = 5;

/**
 * A probe's `periodSeconds` and `failureThreshold` when the manifest sets none
 * (kubernetes staging/src/k8s.io/api/core/v1/types.go, Probe: "Default to 10 seconds", "Defaults
 * to 3").
 */
export const KUBERNETES_DEFAULT_PROBE = { periodSeconds: 10, failureThreshold: 3 } as const;
