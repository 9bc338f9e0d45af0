/**
 * The GKE Gateway controller: a Gateway of one of GKE's single-cluster L7 GatewayClasses
 * (`gke-l7-global-external-managed`, `gke-l7-regional-external-managed`, `gke-l7-rilb`,
 * `gke-l7-gxlb`; GKE installs them, so a chart shows only the Gateway's gatewayClassName), or of a
 * GatewayClass whose controllerName is `networking.gke.io/gateway`, sends to the pods of each
 * route's Service through NEGs: GKE's Gateway runs on VPC-native clusters only and takes no
 * BackendConfig (GKE docs, "Configure Gateway resources using Policies"). Connection draining
 * comes from the GCPBackendPolicy whose targetRef names the Service (same namespace):
 * `spec.default.connectionDraining.drainingTimeoutSec`, 0 s (off) when omitted
 * (GoogleCloudPlatform/gke-networking-recipes gateway-api/config/servicepolicies/crd/standard/
 * gcpbackendpolicies.yaml@d644f78). The multi-cluster (`-mc`) classes route to ServiceImports,
 * which select no pod here.
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { specField } from '../core/kubeObject.ts';
import { kubeObjectRef } from './kubeObject.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import { recognitionFor as recognition } from './loadBalancerTable.ts';

/** The GKE Gateway controller's name in a GatewayClass. */
const GKE_GATEWAY_CONTROLLER = 'networking.gke.io/gateway';

/** GKE's single-cluster L7 GatewayClasses (GKE docs, GatewayClass capabilities). */
const GKE_L7_CLASSES: readonly string[] = [
  'gke-l7-global-external-managed',
  'gke-l7-regional-external-managed',
  'gke-l7-rilb',
  'gke-l7-gxlb',
];

/**
 * Returns how the Gateway is known to be GKE's: its class's controllerName where the GatewayClass
 * is in the input, else one of GKE's built-in class names; undefined for another Gateway.
 */
export function gkeGatewayEvidence(
  gateway: KubeObject,
  gatewayClass: KubeObject | undefined,
): string | undefined {
  const className = specField(gateway, 'gatewayClassName');
  if (gatewayClass !== undefined)
    return specField(gatewayClass, 'controllerName') === GKE_GATEWAY_CONTROLLER
      ? `GatewayClass ${String(className)}: controllerName ${GKE_GATEWAY_CONTROLLER}`
      : undefined;
  return typeof className === 'string' && GKE_L7_CLASSES.includes(className)
    ? `gatewayClassName ${className}, a GKE GatewayClass`
    : undefined;
}

/**
 * Returns the NEG load balancer a GKE Gateway puts in front of the pods of `service`, with the
 * connection draining of its GCPBackendPolicy (`policy`, if the input holds one).
 */
export function recognizeGkeGateway(path: {
  readonly gateway: KubeObject;
  readonly evidence: string;
  readonly route: KubeObject;
  readonly policy?: KubeObject;
}): LoadBalancerRecognition {
  const subject = `Gateway ${kubeObjectRef(path.gateway)}`;
  const draining = path.policy && drainingOf(path.policy);
  return recognition(
    'gke-neg',
    `${subject}: GKE Gateway, container-native load balancing (${path.evidence}) via ` +
      `${path.route.kind} ${kubeObjectRef(path.route)}`,
    {
      subject,
      connectionDraining:
        draining === undefined
          ? { seconds: 0, setBy: 'GCPBackendPolicy' }
          : {
              seconds: draining,
              backendConfig: kubeObjectRef(path.policy!),
              setBy: 'GCPBackendPolicy',
            },
    },
  );
}

/** The policy's drainingTimeoutSec, or undefined where it sets none (0 s, off, then). */
function drainingOf(policy: KubeObject): number | undefined {
  const settings = specField(policy, 'default') as
    { connectionDraining?: { drainingTimeoutSec?: unknown } | null } | null | undefined;
  const seconds = settings?.connectionDraining?.drainingTimeoutSec;
  // The compute API takes 0–3600 s.
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds >= 0 && seconds <= 3600
    ? seconds
    : undefined;
}
