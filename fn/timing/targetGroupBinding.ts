/**
 * A TargetGroupBinding (elbv2.k8s.aws, AWS Load Balancer Controller): a target group made outside
 * the cluster, whose targets the controller keeps in step with a Service's endpoints. Facts from
 * kubernetes-sigs/aws-load-balancer-controller apis/elbv2/v1beta1/targetgroupbinding_types.go
 * @v2.17.1: `serviceRef` (name, port) in the binding's namespace; `targetType` ip or instance, else
 * inferred from AWS by the webhook; `targetGroupProtocol` (HTTP/HTTPS: an ALB's group; TCP, TLS,
 * UDP, TCP_UDP, QUIC, TCP_QUIC: an NLB's), else inferred. The group's deregistration delay and
 * health check are the group's own attributes, set where it was made: the stream never shows them.
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { specField } from '../core/kubeObject.ts';
import type { Unknown } from '../core/unknown.ts';
import { kubeObjectRef } from './kubeObject.ts';
import type { LoadBalancerProvider, LoadBalancerRecognition } from './loadBalancerTable.ts';
import { LOAD_BALANCERS, recognitionFor as recognition } from './loadBalancerTable.ts';

const ALB_PROTOCOLS: readonly string[] = ['HTTP', 'HTTPS'];
const NLB_PROTOCOLS: readonly string[] = ['TCP', 'TLS', 'UDP', 'TCP_UDP', 'QUIC', 'TCP_QUIC'];

/**
 * Returns the load balancer a TargetGroupBinding puts in front of the pods of the Service it
 * binds. W is the table's for the group's kind and target type (the longest where the binding
 * leaves either to AWS); the recognition is never fully modelled: the group's own deregistration
 * delay and health check are not in the stream.
 */
export function recognizeTargetGroupBinding(
  binding: KubeObject,
  service: KubeObject,
): LoadBalancerRecognition {
  const subject = `TargetGroupBinding ${kubeObjectRef(binding)}`;
  const targetType = specField(binding, 'targetType');
  const protocol = specField(binding, 'targetGroupProtocol');
  const lb = ALB_PROTOCOLS.includes(protocol as string)
    ? 'ALB'
    : NLB_PROTOCOLS.includes(protocol as string)
      ? 'NLB'
      : undefined;
  const group = groupName(binding);
  const kind =
    lb === undefined
      ? 'an AWS target group (no targetGroupProtocol: ALB or NLB)'
      : `an AWS ${lb}'s target group (spec.targetGroupProtocol: ${String(protocol)})`;
  const targets =
    targetType === 'ip' || targetType === 'instance'
      ? `${targetType === 'ip' ? 'IP' : 'instance'} targets (spec.targetType: ${targetType})`
      : 'target type left to AWS (no spec.targetType)';
  const evidence =
    `${subject}: ${kind}, ${group}, made outside the cluster, bound to Service ` +
    `${kubeObjectRef(service)}; ${targets}`;
  const notModelled = outsideTheCluster(subject, group);
  if (targetType === 'instance') {
    const propagation = LOAD_BALANCERS['in-cluster'].drainWindowSeconds;
    const local = specField(service, 'externalTrafficPolicy') === 'Local';
    return recognition(
      'aws-nlb-instance',
      `${evidence}; targets are nodes, so a pod's deletion deregisters nothing` +
        (local
          ? `; externalTrafficPolicy Local: the group's own node health check decides W`
          : `; externalTrafficPolicy Cluster: only kube-proxy's endpoint update ` +
            `(≈ ${propagation} s)`),
      {
        drainWindowSeconds: propagation,
        targetType: 'instance',
        subject,
        notModelled,
        ...(local ? { nodeLocal: true as const } : {}),
      },
    );
  }
  // IP targets, or a type AWS decides: the IP window is the longer reading, the NLB's the
  // longer of the two kinds.
  const provider: LoadBalancerProvider = lb === 'ALB' ? 'aws-alb-ip' : 'aws-nlb-ip';
  return recognition(provider, evidence, {
    subject,
    notModelled,
    ...(targetType === 'ip' ? { targetType: 'ip' as const } : {}),
    ...(lb === undefined || targetType !== 'ip'
      ? {
          note:
            `${subject} leaves the ${lb === undefined ? 'load balancer kind and ' : ''}` +
            `target type to AWS; planned with the ${LOAD_BALANCERS[provider].label} window ` +
            `(${LOAD_BALANCERS[provider].drainWindowSeconds} s), the longest it may be. Set ` +
            `spec.targetType and spec.targetGroupProtocol on it to make it certain.`,
        }
      : {}),
  });
}

/** The group as the binding names it: `targetGroupName x` or `targetGroupARN arn`. */
function groupName(binding: KubeObject): string {
  const arn = specField(binding, 'targetGroupARN');
  const name = specField(binding, 'targetGroupName');
  // The ARN prevails when both are set (docs/guide/targetgroupbinding/targetgroupbinding.md).
  if (typeof arn === 'string' && arn !== '') return `targetGroupARN ${arn}`;
  if (typeof name === 'string' && name !== '') return `targetGroupName ${name}`;
  return 'no target group named';
}

/** What the stream cannot tell of a group made outside it, and how the user says it. */
function outsideTheCluster(subject: string, group: string): Unknown {
  return {
    what:
      `how long the target group of ${subject} (${group}) keeps sending new connections and ` +
      `when it closes established ones: its health check and deregistration delay are set ` +
      `where it was made, outside the stream`,
    tell:
      `--drain-window set to that target group's window (per workload: the ` +
      `kube-graceful.dev/drain-window annotation), once its deregistration_delay.timeout_seconds ` +
      `is known to outlast the pods' drain`,
    brief: 'the target group is made outside the cluster',
  };
}
