/**
 * The timing a mesh sidecar must outlast in a pod another mutator claims but whose sidecar it
 * leaves to app-graceful (traefik-drain's Traefik): that mutator says how long its server serves
 * (a `ServingSpan`: W = how long it accepts, R = what it needs after), and the pod's plan is the
 * model's for those inputs, so the sidecar functions size the proxy from it unchanged. The
 * claiming mutator writes the grace period; app-graceful only reads what it will be.
 */
import { graceToWrite, planTiming } from '../../timing/model.ts';
import { KUBERNETES_DEFAULT_GRACE_SECONDS } from '../../timing/platformDefaults.ts';
import type { ServingSpan } from '../types.ts';
import type { AppTiming } from './timing.ts';

/** Returns the pod timing of a claimed workload for its mesh sidecar. */
export function planClaimedPodTiming(span: ServingSpan): AppTiming {
  const planned = planTiming(span.inputs);
  const pod = {
    ...planned,
    sidecarOutlivesSeconds: {
      ...planned.sidecarOutlivesSeconds,
      explanation:
        `${span.outlives} Used as Istio MINIMUM_DRAIN_DURATION with exit-on-zero or ` +
        `terminationDrainDuration, or Linkerd proxy-wait-before-exit-seconds, which must stay ` +
        `below G = ${planned.graceSeconds.value} s.`,
    },
  };
  const existingGrace = span.inputs.existingGraceSeconds;
  const grace = graceToWrite(pod.graceSeconds.value, existingGrace);
  return {
    inputs: span.inputs,
    pod,
    containers: new Map([[span.container, pod]]),
    findings: [],
    podChecks: [],
    graceToWrite: undefined,
    effectiveGraceSeconds: grace ?? existingGrace ?? KUBERNETES_DEFAULT_GRACE_SECONDS,
    stopsAccepting: span.stopsAccepting,
  };
}
