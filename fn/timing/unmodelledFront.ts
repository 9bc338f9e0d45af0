/**
 * What is not known about a Gateway or an Ingress that kube-graceful does not model
 * (unmodelledGateway.ts, unmodelledIngress.ts): whether its load balancer is an in-cluster proxy,
 * which follows the endpoints within seconds, or a cloud load balancer sending to the pods
 * directly, for much longer.
 */
import type { Unknown } from '../core/unknown.ts';

/** How the sentences name the front end, the objects that would make it known, and its brief. */
export interface FrontNaming {
  /** Who would be the in-cluster proxy, after "where": "it is", "its controller is". */
  readonly proxy: string;
  /** What to add to the input, after "add": "its Gateway and GatewayClass". */
  readonly add: string;
  /** The few words for where a timeline draws W: "the Gateway is not modelled". */
  readonly brief: string;
}

/** The Unknown of a front end `subject` not modelled, `why` saying why as a phrase. */
export function unmodelledFront(subject: string, why: string, naming: FrontNaming): Unknown {
  return {
    what:
      `which load balancer ${subject} is and how long it keeps sending to these pods (${why}): ` +
      `an in-cluster proxy follows the endpoints within seconds, a cloud load balancer ` +
      `sending to the pods directly for much longer`,
    tell:
      `--lb-provider in-cluster where ${naming.proxy} an in-cluster proxy, else --lb-provider ` +
      `or --drain-window for its load balancer (per workload: the kube-graceful.dev/lb-provider ` +
      `or kube-graceful.dev/drain-window annotation), or add ${naming.add} to the input`,
    brief: naming.brief,
  };
}
