/** The plan contour-drain makes for one Envoy pod, and that its `explain` reads. */
import type { LoadBalancerRecognition } from '../../timing/loadBalancers.ts';
import type { Derived, TimingInputs } from '../../timing/model.ts';
import type { MeshMembership } from '../../workloads/mesh.ts';
import type { NodeForwarding } from '../../timing/loadBalancers.ts';

export interface ContourPlan {
  /** W, R, B with their sources, and the grace period the pod already had. */
  readonly inputs: TimingInputs;
  /** S: `--drain-delay` + `--check-delay`, the earliest Envoy may stop accepting (≥ W). */
  readonly stopAccepting: Derived;
  /** G = S + R + check interval + B. */
  readonly grace: Derived;
  /** The shutdown-manager container's name. */
  readonly shutdownManager: string;
  /** The Envoy container's name (its preStop asks the shutdown-manager's /shutdown). */
  readonly envoy: string;
  /** The Contour release the shutdown-manager's image names, when it names one. */
  readonly version?: string;
  /** The load balancer that decided W, when one in the stream did. */
  readonly loadBalancer?: LoadBalancerRecognition;
  /**
   * Set when the load balancer reaches Envoy through its node with externalTrafficPolicy Local:
   * until when the node forwards to the terminating pod, which the timeline draws from Envoy's
   * readiness (no unknown).
   */
  readonly nodeForwarding?: NodeForwarding;
  /** The meshes whose sidecar runs in the pod: not modelled with Envoy yet. */
  readonly mesh?: MeshMembership;
}
