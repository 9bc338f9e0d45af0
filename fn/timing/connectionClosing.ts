/**
 * When the load balancer closes a terminating pod's established connections, as the timing model
 * takes it (`TimingInputs.loadBalancer`), from a recognition: an AWS target group's deregistration
 * delay, counted from deregistration (≈ t = 0), or GKE's connection draining, counted from the NEG
 * endpoint's removal (≈ W). Both are compared with the pod's drain by the model's checks and drawn
 * by explain; the one home of that mapping, for every mutator that plans with a load balancer.
 */
import type { Source } from '../core/source.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import type { TimingInputs } from './model.ts';

/**
 * Returns the load balancer's closing of established connections, or undefined when the
 * recognition says nothing of it. `where` names the annotation's object for an AWS attribute
 * (`on Service ns/name`).
 */
export function connectionClosingInputs(
  recognized: LoadBalancerRecognition | undefined,
  where: string,
): TimingInputs['loadBalancer'] {
  if (recognized === undefined) return undefined;
  const draining = recognized.connectionDraining;
  if (draining !== undefined) {
    const source: Source = {
      kind: 'connection-draining',
      removedAt: recognized.drainWindowSeconds,
      drainingSeconds: draining.seconds,
      ...(draining.backendConfig === undefined ? {} : { backendConfig: draining.backendConfig }),
      ...(draining.setBy === undefined ? {} : { setBy: draining.setBy }),
    };
    return {
      deregistrationDelaySeconds: {
        value: recognized.drainWindowSeconds + draining.seconds,
        source,
      },
      // GCP closes what is left when the draining timeout ends: nothing is routed to the pod after.
      connectionTermination: true,
      closing: 'gke-connection-draining',
    };
  }
  const group = recognized.targetGroup;
  if (group?.deregistrationDelaySeconds === undefined) return undefined;
  const attributesIn = recognized.targetGroupAttributesIn;
  const setIn = attributesIn === undefined ? {} : { attributesIn };
  const source: Source = group.deregistrationDelayIsDefault
    ? { kind: 'target-group', isDefault: true, ...setIn }
    : {
        kind: 'target-group',
        isDefault: false,
        where: attributesIn === undefined ? where : `in ${attributesIn}`,
        ...setIn,
      };
  return {
    deregistrationDelaySeconds: { value: group.deregistrationDelaySeconds, source },
    connectionTermination: group.connectionTermination ?? false,
  };
}
