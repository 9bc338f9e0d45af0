/**
 * A Gateway's generated Service behind node targets with externalTrafficPolicy Local (issue #27
 * item 3): the node forwards to the terminating gateway pod only while it passes readiness
 * (fn/timing/loadBalancerTable.ts nodeForwardingOf). pilot-agent fails the probe from SIGTERM on,
 * and the kubelet still counts the pod ready for (failureThreshold − 1) × periodSeconds at least:
 * 45 s with the kube-gateway template's probe (./facts.ts KUBE_GATEWAY_READINESS_PROBE). Where
 * that falls short of W the connections the load balancer still sends are dropped; the plan
 * writes no probe (a higher threshold also keeps a failing pod in rotation longer, the operator's
 * call), so a warning names the threshold that would hold, and the other ways out.
 */
import { readinessHoldOf } from '../../explanation/podSettings.ts';
import { container } from '../../explanation/rows.ts';
import { KUBERNETES } from '../../facts/versionGates.ts';
import { nodeForwardingOf } from '../../timing/loadBalancers.ts';
import { KUBERNETES_DEFAULT_PROBE } from '../../timing/platformDefaults.ts';
import type { LoadBalancerRecognition } from '../../timing/loadBalancers.ts';
import { PROXY_CONTAINER } from './facts.ts';
import type { IstioGatewayApiFinding } from './finding.ts';
import type { GeneratedPod } from './generatedPod.ts';

/** Returns the warning where the gateway pod may turn unready before W, if it may. */
export function nodeLocalFinding(
  recognition: LoadBalancerRecognition,
  kubernetesVersion: string,
  pod: GeneratedPod,
  W: number,
  parametersName: string,
): IstioGatewayApiFinding | undefined {
  const forwarding = nodeForwardingOf(recognition, kubernetesVersion);
  if (forwarding === undefined) return undefined;
  if (forwarding === 'never')
    return {
      severity: 'warning',
      code: 'ISTIO_GATEWAY_API_NODE_LOCAL',
      message:
        `The generated Service reaches the gateway pods through their nodes with ` +
        `externalTrafficPolicy Local, and before Kubernetes ` +
        `${KUBERNETES.proxyTerminatingEndpoints.since} a node forwards nothing to a ` +
        `terminating pod: what the load balancer sends in its ${W} s is dropped. Use IP ` +
        `targets, or externalTrafficPolicy: Cluster in the service overlay.`,
    };
  const probe = container(pod.template, PROXY_CONTAINER)?.readinessProbe;
  const hold = readinessHoldOf(container(pod.template, PROXY_CONTAINER));
  if (hold === undefined || hold.value >= W) return undefined;
  const period =
    typeof probe?.periodSeconds === 'number'
      ? probe.periodSeconds
      : KUBERNETES_DEFAULT_PROBE.periodSeconds;
  const threshold = Math.ceil(W / period) + 1;
  return {
    severity: 'warning',
    code: 'ISTIO_GATEWAY_API_NODE_LOCAL',
    message:
      `The generated Service reaches the gateway pods through their nodes with ` +
      `externalTrafficPolicy Local, which forwards to a terminating pod only while it passes ` +
      `readiness; istio-proxy fails it at SIGTERM and may be unready ${hold.value} s later ` +
      `(${hold.source}), before the load balancer stops sending at W = ${W} s: those ` +
      `connections are dropped. Set readinessProbe.failureThreshold: ${threshold} on container ` +
      `istio-proxy in data.deployment of ConfigMap ${parametersName} (a failing pod then stays ` +
      `in rotation longer too), or use IP targets, or externalTrafficPolicy: Cluster in the ` +
      `service overlay.`,
  };
}
