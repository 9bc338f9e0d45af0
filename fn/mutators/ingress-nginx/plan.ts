/** The plan ingress-nginx-drain makes for one controller, and that its `explain` reads. */
import type { LoadBalancerRecognition, NodeForwarding } from '../../timing/loadBalancers.ts';
import type { Derived, TimingInputs } from '../../timing/model.ts';
import type { MeshMembership } from '../../workloads/mesh.ts';

export interface IngressNginxPlan {
  /** W, R, B with their sources, and the grace period the pod already had. */
  readonly inputs: TimingInputs;
  /** P: `--shutdown-grace-period`, how long nginx keeps accepting after SIGTERM (= W). */
  readonly shutdownGrace: Derived;
  /** G = P + R + post-shutdown grace + B. */
  readonly grace: Derived;
  /** The controller container's name. */
  readonly container: string;
  /** The load balancer that decided W, when one in the stream did. */
  readonly loadBalancer?: LoadBalancerRecognition;
  /** Until when a node forwards to the terminating controller, behind node targets with Local. */
  readonly nodeForwarding?: NodeForwarding;
  /** The meshes whose sidecar runs in the pod: not modelled with the controller yet. */
  readonly mesh?: MeshMembership;
}
