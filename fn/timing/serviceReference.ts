/**
 * Whether an object applies to a Service, as each CRD that configures a Service's load balancing
 * names it: always in the object's own namespace, by a reference field whose kind is
 * - absent: the field can only name a Service (TargetGroupBinding `spec.serviceRef`,
 *   aws-load-balancer-controller apis/elbv2/v1beta1/targetgroupbinding_types.go@v2.17.1);
 * - optional, Service by default (TargetGroupConfiguration `spec.targetReference`,
 *   apis/gateway/v1beta1/targetgroupconfig_types.go@v2.17.1; the controller takes the first in
 *   the Service's namespace, pkg/gateway/routeutils/backend.go@v2.17.1
 *   LookUpTargetGroupConfiguration);
 * - required, with the core group (GCPBackendPolicy `spec.targetRef`, a Gateway API policy
 *   target reference: gke-networking-recipes gcpbackendpolicies.yaml@d644f78).
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { specField } from '../core/kubeObject.ts';

/** How the reference field names its kind. */
type KindRule = 'no-kind' | 'service-by-default' | 'core-service-required';

/** Returns true when `object`'s `spec[field]` names `service` (same namespace). */
export function namesService(
  object: KubeObject,
  field: string,
  kindRule: KindRule,
  service: KubeObject,
): boolean {
  const ref = specField(object, field) as
    { group?: unknown; kind?: unknown; name?: unknown } | null | undefined;
  if (ref?.name !== service.metadata?.name) return false;
  if (object.metadata?.namespace !== service.metadata?.namespace) return false;
  switch (kindRule) {
    case 'no-kind':
      return true;
    case 'service-by-default':
      return (ref?.kind ?? 'Service') === 'Service';
    case 'core-service-required':
      return (ref?.group ?? '') === '' && ref?.kind === 'Service';
  }
}
