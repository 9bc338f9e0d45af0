/**
 * A route that sends to the pods from a Gateway kube-graceful does not model: one of a class no
 * recognizer knows, or one the input does not hold. Its load balancer may be in the cluster (the
 * in-cluster window then holds) or a cloud one sending to the pods directly (AWS, GKE, Azure each
 * have one), so the window is not known and no verdict is claimed until the user says it.
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { kubeObjectRef } from './kubeObject.ts';
import type { ObjectKey } from './gatewayRoutes.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import { recognitionFor as recognition } from './loadBalancerTable.ts';
import type { FrontNaming } from './unmodelledFront.ts';
import { unmodelledFront } from './unmodelledFront.ts';

/** Why the Gateway is not modelled, as a phrase after its name. */
export type NotModelledBecause =
  | { readonly kind: 'not-in-input' }
  | { readonly kind: 'class-not-in-input'; readonly className: string }
  | { readonly kind: 'controller'; readonly className: string; readonly controller: string };

/**
 * Returns the in-cluster window, marked not modelled, for pods a route sends to from a Gateway
 * kube-graceful does not know.
 */
export function unmodelledGateway(
  route: KubeObject,
  gateway: ObjectKey,
  because: NotModelledBecause,
): LoadBalancerRecognition {
  const name = gateway.namespace ? `${gateway.namespace}/${gateway.name}` : gateway.name;
  const subject = `Gateway ${name}`;
  const why =
    because.kind === 'not-in-input'
      ? 'the Gateway is not in the input'
      : because.kind === 'class-not-in-input'
        ? `its GatewayClass ${because.className} is not in the input`
        : `its GatewayClass ${because.className} names controller ${because.controller}, ` +
          'which kube-graceful does not model';
  const sender = `${route.kind} ${kubeObjectRef(route)}`;
  const evidence = `${sender} sends to these pods from ${subject} (${why})`;
  return recognition('in-cluster', evidence, {
    subject,
    notModelled: unmodelledFront(subject, why, GATEWAY),
  });
}

/** How the unknown names it. */
const GATEWAY: FrontNaming = {
  proxy: 'it is',
  add: 'its Gateway and GatewayClass',
  brief: 'the Gateway is not modelled',
};
