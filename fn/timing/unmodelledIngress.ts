/**
 * An Ingress routing to the pods whose controller kube-graceful does not know (fn/timing/
 * ingressControllers.ts): it may be an in-cluster proxy (the in-cluster window then holds) or a
 * cloud load balancer sending to the pods directly, so the window is not known and no verdict is
 * claimed until the user says it. The Gateway API counterpart is fn/timing/unmodelledGateway.ts.
 */
import type { Unknown } from '../core/unknown.ts';
import type { IngressClassOf } from './ingressControllers.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import { recognitionFor as recognition } from './loadBalancerTable.ts';

/**
 * Returns the in-cluster window, marked not modelled, for pods an Ingress (`who`) of an unknown
 * controller routes to.
 */
export function unmodelledIngress(
  who: string,
  ingressClass: IngressClassOf,
): LoadBalancerRecognition {
  const why =
    ingressClass.name === undefined
      ? 'it names no class and the input holds no default IngressClass, so the cluster decides ' +
        "which controller takes it; on GKE, GKE's own load balancer does"
      : ingressClass.controller === undefined
        ? `its class ${ingressClass.name} is not one kube-graceful knows, and its IngressClass ` +
          'is not in the input'
        : `its IngressClass ${ingressClass.name} names controller ${ingressClass.controller}, ` +
          'which kube-graceful does not model';
  return recognition('in-cluster', `${who} routes to these pods (${why})`, {
    subject: who,
    notModelled: notKnown(who, why),
  });
}

function notKnown(subject: string, why: string): Unknown {
  return {
    what:
      `which load balancer ${subject} is and how long it keeps sending to these pods (${why}): ` +
      `an in-cluster proxy follows the endpoints within seconds, a cloud load balancer ` +
      `sending to the pods directly for much longer`,
    tell:
      `--lb-provider in-cluster where its controller is an in-cluster proxy, else --lb-provider ` +
      `or --drain-window for its load balancer (per workload: the kube-graceful.dev/lb-provider ` +
      `or kube-graceful.dev/drain-window annotation), or add its IngressClass to the input`,
    brief: 'the Ingress controller is not modelled',
  };
}
