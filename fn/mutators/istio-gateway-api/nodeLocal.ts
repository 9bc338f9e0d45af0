/**
 * A Gateway's generated Service behind node targets with externalTrafficPolicy Local (issue #27
 * item 3): pilot-agent fails readiness from SIGTERM on, and the kube-gateway template's probe
 * (./facts.ts KUBE_GATEWAY_READINESS_PROBE) keeps the pod counted ready 45 s at least; where that
 * falls short of W, a warning (fn/mutators/shared/nodeLocalReadiness.ts).
 */
import { container } from '../../explanation/rows.ts';
import { nodeForwardingOf } from '../../timing/loadBalancers.ts';
import { nodeLocalReadinessMessage } from '../shared/nodeLocalReadiness.ts';
import { PROXY_CONTAINER } from './facts.ts';
import type { IstioGatewayApiFinding } from './finding.ts';
import type { GeneratedPod } from './generatedPod.ts';
import type { GatewayApiTiming } from './decision.ts';

/** Returns the warning where the gateway pod may turn unready before W, if it may. */
export function nodeLocalFinding(
  { loadBalancer, inputs }: Pick<GatewayApiTiming, 'loadBalancer' | 'inputs'>,
  kubernetesVersion: string,
  pod: GeneratedPod,
  parametersName: string,
): IstioGatewayApiFinding | undefined {
  const message = nodeLocalReadinessMessage(
    nodeForwardingOf(loadBalancer, kubernetesVersion),
    container(pod.template, PROXY_CONTAINER),
    inputs.drainWindow.value,
    {
      pods: 'the gateway pods',
      fails: 'istio-proxy fails it at SIGTERM',
      thresholdAt: `on container istio-proxy in data.deployment of ConfigMap ${parametersName}`,
      policyAt: 'in the service overlay',
    },
  );
  return message === undefined
    ? undefined
    : { severity: 'warning', code: 'ISTIO_GATEWAY_API_NODE_LOCAL', message };
}
