/** The plan kong-drain makes for one Kong pod, and that its `explain` reads. */
import type { LoadBalancerRecognition, NodeForwarding } from '../../timing/loadBalancers.ts';
import type { Derived, TimingInputs } from '../../timing/model.ts';
import type { MeshMembership } from '../../workloads/mesh.ts';

export interface KongPlan {
  /** W, R, B with their sources, and the grace period the pod already had. */
  readonly inputs: TimingInputs;
  /** P: `kong quit --wait`, how long nginx keeps accepting after the pod starts terminating. */
  readonly wait: Derived;
  /** T: `kong quit --timeout`, how long requests in flight have after SIGQUIT (≥ R). */
  readonly timeout: Derived;
  /** G = P + R + B. */
  readonly grace: Derived;
  /** The proxy container's name. */
  readonly container: string;
  /** The pod's other app containers (the ingress controller): not behind the load balancer. */
  readonly others: readonly string[];
  /** The load balancer that decided W, when one in the stream did. */
  readonly loadBalancer?: LoadBalancerRecognition;
  /** Until when a node forwards to the terminating pod, behind node targets with Local. */
  readonly nodeForwarding?: NodeForwarding;
  /** The meshes whose sidecar runs in the pod: not modelled with Kong yet. */
  readonly mesh?: MeshMembership;
}
