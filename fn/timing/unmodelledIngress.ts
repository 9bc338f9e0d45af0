/**
 * An Ingress routing to the pods whose controller kube-graceful does not know (fn/timing/
 * ingressControllers.ts): it may be an in-cluster proxy (the in-cluster window then holds) or a
 * cloud load balancer sending to the pods directly, so the window is not known and no verdict is
 * claimed until the user says it. The Gateway API counterpart is fn/timing/unmodelledGateway.ts.
 */
import type { IngressClassOf } from './ingressControllers.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import { recognitionFor as recognition } from './loadBalancerTable.ts';
import type { FrontNaming } from './unmodelledFront.ts';
import { unmodelledFront } from './unmodelledFront.ts';

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
    notModelled: unmodelledFront(who, why, INGRESS),
  });
}

/** How the unknown names it. */
const INGRESS: FrontNaming = {
  proxy: 'its controller is',
  add: 'its IngressClass',
  brief: 'the Ingress controller is not modelled',
};
