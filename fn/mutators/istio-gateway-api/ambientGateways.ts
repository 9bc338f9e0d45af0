/**
 * Waypoints and ambient east-west gateways (issue #27 item 11): Gateways istiod also deploys, but
 * from its `waypoint` template (pilot/pkg/config/kube/gateway/deploymentcontroller.go@1.27.9
 * getClassInfos: class `istio-waypoint`, controller `istio.io/mesh-controller`, a ClusterIP
 * Service; class `istio-east-west` (1.27+), controller `istio.io/eastwest-controller`, a
 * LoadBalancer Service). kube-graceful does not plan them, and says so with the facts it has:
 *
 * - a waypoint's traffic comes from ztunnels over HBONE, which learn of a terminating waypoint
 *   from istiod, not from a load balancer: how long they keep sending to it is not modelled;
 * - an east-west gateway carries other networks' HBONE tunnels through a load balancer: how a
 *   long-lived tunnel drains is not modelled either;
 * - the template hard-codes `terminationGracePeriodSeconds: 2` from 1.22 to 1.27 (waypoint.yaml
 *   @1.22.8 … @1.27.9) and leaves the Kubernetes default, 30 s, from 1.28 (@1.28.10, @1.30.3): a
 *   request longer than that is cut;
 * - the fix by hand: from 1.26, the `data.deployment` overlay of a ConfigMap the Gateway's
 *   `spec.infrastructure.parametersRef` names is merged over the template whatever the class
 *   (applyOverlay in deploymentcontroller.go@1.27.9; ./facts.ts OVERLAYS).
 */
import type { KubeObject } from '../../core/kubeObject.ts';
import { specField } from '../../core/kubeObject.ts';
import type { ProposedFinding } from '../types.ts';
import { istioReached, OVERLAYS } from './facts.ts';
import type { VersionGate } from '../../facts/versionGates.ts';
import type { MinorVersion } from './facts.ts';
import type { GatewayObject } from './objects.ts';

/** The ambient classes istiod deploys from its `waypoint` template, by class and controller. */
const AMBIENT_CLASSES = {
  waypoint: { className: 'istio-waypoint', controller: 'istio.io/mesh-controller' },
  'east-west': { className: 'istio-east-west', controller: 'istio.io/eastwest-controller' },
} as const;

type AmbientGateway = keyof typeof AMBIENT_CLASSES;

/** The first release whose waypoint template leaves the grace period to Kubernetes. */
export const TEMPLATE_GRACE_DROPPED = {
  product: 'Istio',
  since: '1.28',
  source:
    'istio manifests/charts/istio-control/istio-discovery/files/waypoint.yaml@1.27.9 ' +
    '(terminationGracePeriodSeconds: 2), @1.28.10 (none)',
} as const satisfies VersionGate;
const TEMPLATE_GRACE_SECONDS = 2;

/** Returns which ambient Gateway this is, by its class name or its class's controller. */
export function ambientGatewayOf(
  gateway: GatewayObject,
  objects: readonly KubeObject[],
): AmbientGateway | undefined {
  const className = gateway.spec?.gatewayClassName;
  if (typeof className !== 'string') return undefined;
  const controller = objects.find(
    (o) => o.kind === 'GatewayClass' && o.metadata?.name === className,
  );
  for (const [kind, ids] of Object.entries(AMBIENT_CLASSES) as Array<
    [AmbientGateway, (typeof AMBIENT_CLASSES)[AmbientGateway]]
  >) {
    if (
      className === ids.className ||
      (controller && specField(controller, 'controllerName') === ids.controller)
    )
      return kind;
  }
  return undefined;
}

/** The finding that says why nothing is planned for an ambient Gateway, and what to do. */
export function ambientGatewayFinding(
  kind: AmbientGateway,
  istio: MinorVersion & { readonly source: string },
): ProposedFinding {
  const version = `${istio.major}.${istio.minor}`;
  const twoSeconds = !istioReached(TEMPLATE_GRACE_DROPPED, istio);
  const grace = twoSeconds
    ? `Istio ${version}'s waypoint template hard-codes terminationGracePeriodSeconds: ` +
      `${TEMPLATE_GRACE_SECONDS} (manifests/charts/istio-control/istio-discovery/files/` +
      `waypoint.yaml@1.27.9), so a request longer than ${TEMPLATE_GRACE_SECONDS} s is cut`
    : `Istio ${version}'s waypoint template leaves the grace period at the Kubernetes ` +
      `default, 30 s (waypoint.yaml@1.28.10)`;
  const fix = istioReached(OVERLAYS, istio)
    ? 'To change it, name a ConfigMap in spec.infrastructure.parametersRef whose ' +
      'data.deployment sets spec.template.spec.terminationGracePeriodSeconds; istiod merges it ' +
      'over the template (pilot/pkg/config/kube/gateway/deploymentcontroller.go@1.27.9 ' +
      'applyOverlay).'
    : `Istio ${version} reads no parametersRef overlay (from 1.26): only a custom waypoint ` +
      "template in istiod's injector ConfigMap changes it.";
  const what =
    kind === 'waypoint'
      ? 'a waypoint: ztunnels send it their traffic over HBONE and learn of its termination ' +
        'from istiod, not from a load balancer, and kube-graceful does not model how long ' +
        'they keep sending to it'
      : 'an ambient east-west gateway: other networks send their HBONE tunnels to it through ' +
        'a load balancer, and kube-graceful does not model how a long-lived tunnel drains';
  return {
    severity: twoSeconds || kind === 'east-west' ? 'warning' : 'info',
    code: kind === 'waypoint' ? 'ISTIO_WAYPOINT_NOT_PLANNED' : 'ISTIO_EAST_WEST_NOT_PLANNED',
    path: ['spec', 'gatewayClassName'],
    message:
      `This Gateway is ${what}: nothing is planned or written for it (Istio ` +
      `${version}, ${istio.source}). ${grace}. ${fix}`,
  };
}
