/**
 * Istio ambient mode (`istio.io/dataplane-mode: ambient`, issue #13 item 14): the pod has no
 * istio-proxy, so there is no sidecar to keep up, drain or quit. ztunnel, on the node, carries
 * the pod's traffic (and a waypoint proxy its L7 traffic, when one is bound). Said once per pod as
 * an info finding, with what the pod still needs from kube-graceful.
 */
import type { ProposedFinding } from '../types.ts';

/** The upstream rule that decides ambient capture. */
const SOURCE = 'istio cni/pkg/util/podutil.go@1.24.6 PodRedirectionEnabled';

/** Returns the info finding for an ambient app or gateway-less serving workload. */
/** The finding codes of this module. */
export const AMBIENT_FINDING_CODES = ['ISTIO_AMBIENT'] as const;

export function ambientAppFinding(evidence: string): ProposedFinding {
  return {
    severity: 'info',
    code: 'ISTIO_AMBIENT',
    message:
      `Istio ambient mode (${evidence}): the pod has no istio-proxy, ` +
      `so no sidecar settings are written; ztunnel on the node (and a waypoint, ` +
      `if one is bound) carries its traffic (${SOURCE}). ` +
      `What still applies is the app's own shutdown: its preStop, ` +
      `so that load balancers and endpoints stop sending before it stops accepting, ` +
      `and a grace period that holds the preStop and its last requests.`,
  };
}

/** Returns the info finding for an ambient Job: nothing keeps it from completing. */
export function ambientJobFinding(evidence: string): ProposedFinding {
  return {
    severity: 'info',
    code: 'ISTIO_AMBIENT',
    message:
      `Istio ambient mode (${evidence}): ` +
      `the pod has no istio-proxy that could keep it running, ` +
      `so the Job completes when its containers exit; nothing to do (${SOURCE}).`,
  };
}
