/** The plan traefik-drain makes for one Traefik workload, and that its `explain` reads
 * (./explain.ts). */
import type { LoadBalancerRecognition } from '../../timing/loadBalancers.ts';
import type { MeshMembership } from '../../workloads/mesh.ts';
import type { NodeForwarding } from '../../timing/loadBalancers.ts';
import type { TraefikTimingInputs, TraefikTimingPlan } from './timing.ts';

export interface TraefikPlan {
  /** W, R, B with their sources, and what the pod already had (grace period, a user's preStop). */
  readonly inputs: TraefikTimingInputs;
  /** S (requestAcceptGraceTimeout), R (graceTimeOut), G and what each entry point ends up with. */
  readonly timing: TraefikTimingPlan;
  /** The Traefik container's name. */
  readonly container: string;
  /** Where its static configuration is read from: the place the settings were written. */
  readonly source: 'flags' | 'env';
  /** The load balancer that decided W, when one in the stream did. */
  readonly loadBalancer?: LoadBalancerRecognition;
  /** Behind node targets with externalTrafficPolicy Local: until when the node forwards. */
  readonly nodeForwarding?: NodeForwarding;
  /**
   * The meshes whose sidecar proxy runs in the pod, when any: Traefik reaches its backends through
   * it, so the timeline draws it too (app-graceful sizes it from ./servingSpan.ts).
   */
  readonly mesh?: MeshMembership;
}
