/**
 * A proxy that fails readiness as it starts stopping, behind node targets with
 * externalTrafficPolicy Local (issue #27 item 3): the node forwards to a terminating pod only
 * while it passes readiness (fn/timing/loadBalancerTable.ts nodeForwardingOf), and the kubelet
 * still counts it ready for (failureThreshold − 1) × periodSeconds at least
 * (fn/explanation/podSettings.ts readinessHoldOf). Where that falls short of W, the connections
 * the load balancer still sends are dropped. No probe is written: a higher threshold also keeps a
 * failing pod in rotation longer, the operator's call; the warning names the threshold that holds.
 */
import type { Container } from '../../core/kubeObject.ts';
import { readinessHoldOf } from '../../explanation/podSettings.ts';
import { KUBERNETES } from '../../facts/versionGates.ts';
import type { NodeForwarding } from '../../timing/loadBalancers.ts';
import { KUBERNETES_DEFAULT_PROBE } from '../../timing/platformDefaults.ts';

/** Who the warning is about, and where its fixes go. */
export interface NodeLocalSubject {
  /** "the gateway pods" */
  readonly pods: string;
  /** The container whose probe counts, and when it starts failing: "istio-proxy fails it at
   * SIGTERM". */
  readonly fails: string;
  /** Where a failureThreshold goes: "on container istio-proxy in data.deployment of …". */
  readonly thresholdAt: string;
  /** Where externalTrafficPolicy: Cluster goes: "in the service overlay". */
  readonly policyAt: string;
}

/** Returns the warning's text where the node may stop forwarding before W, if it may. */
export function nodeLocalReadinessMessage(
  forwarding: NodeForwarding | undefined,
  proxy: Container | undefined,
  W: number,
  subject: NodeLocalSubject,
): string | undefined {
  if (forwarding === undefined) return undefined;
  const reach =
    `The load balancer reaches ${subject.pods} through their nodes with ` +
    `externalTrafficPolicy Local`;
  if (forwarding === 'never')
    return (
      `${reach}, and before Kubernetes ${KUBERNETES.proxyTerminatingEndpoints.since} a node ` +
      `forwards nothing to a terminating pod: what the load balancer sends in its ${W} s is ` +
      `dropped. Use IP targets, or externalTrafficPolicy: Cluster ${subject.policyAt}.`
    );
  const hold = readinessHoldOf(proxy);
  if (hold === undefined || hold.value >= W) return undefined;
  const period = proxy?.readinessProbe?.periodSeconds;
  const p =
    typeof period === 'number' && period > 0 ? period : KUBERNETES_DEFAULT_PROBE.periodSeconds;
  const threshold = Math.ceil(W / p) + 1;
  return (
    `${reach}, which forwards to a terminating pod only while it passes readiness; ` +
    `${subject.fails} and may be unready ${hold.value} s later (${hold.source}), before the ` +
    `load balancer stops sending at W = ${W} s: those connections are dropped. Set ` +
    `readinessProbe.failureThreshold: ${threshold} ${subject.thresholdAt} (a failing pod then ` +
    `stays in rotation longer too), or use IP targets, or externalTrafficPolicy: Cluster ` +
    `${subject.policyAt}.`
  );
}
