/**
 * Findings about rollout safety that users want next to the drain change (issue #3,
 * docs/background.md#load-balancers-in-front-of-gateways): AWS readiness gates, `maxUnavailable`
 * with few replicas, a PodDisruptionBudget. They never change anything: the Namespace, strategy and
 * PDB are the user's.
 */
import type { Spec } from '../../config/schema.ts';
import { namespaceNamed } from '../../workloads/inventory.ts';
import { labelsOf } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { LoadBalancerRecognition } from '../../timing/loadBalancers.ts';
import type { MutatorContext, ProposedFinding } from '../types.ts';
import { specField } from '../../core/kubeObject.ts';

/**
 * docs/background.md#load-balancers-in-front-of-gateways: the namespace label that makes the AWS
 * Load Balancer Controller inject readiness gates.
 */
const READINESS_GATE_LABEL = 'elbv2.k8s.aws/pod-readiness-gate-inject';

/**
 * Returns the rollout findings for a gateway behind `loadBalancer` (undefined: none recognised).
 */
export function rolloutFindings(
  workload: Workload,
  context: MutatorContext,
  loadBalancer: LoadBalancerRecognition | undefined,
): ProposedFinding[] {
  return [
    ...readinessGate(workload, context, loadBalancer),
    ...maxUnavailable(workload),
    ...disruptionBudget(workload, context),
  ];
}

/**
 * What says the pods are AWS IP targets: the recognised LB's evidence, or the configured provider.
 */
function awsIpTargets(
  loadBalancer: LoadBalancerRecognition | undefined,
  spec: Spec,
): string | undefined {
  if (loadBalancer) {
    // Readiness gates work for IP targets only: the controller injects them for pods it
    // registers itself (aws-load-balancer-controller docs/deploy/pod_readiness_gate.md@v2.17.1).
    return loadBalancer.targetType === 'ip' ? loadBalancer.evidence : undefined;
  }
  const provider = spec.loadBalancer.provider;
  return provider === 'aws-nlb-ip' || provider === 'aws-alb-ip'
    ? `configured load-balancer provider ${provider}`
    : undefined;
}

/**
 * docs/background.md#load-balancers-in-front-of-gateways: readiness gates protect rollouts behind
 * AWS IP targets (new pods must be healthy in the target group before old ones go). A Namespace in
 * the stream without the label: warning, since the fix is in the same stream. Not in the stream:
 * info, the user labels it.
 */
function readinessGate(
  workload: Workload,
  context: MutatorContext,
  loadBalancer: LoadBalancerRecognition | undefined,
): ProposedFinding[] {
  const evidence = awsIpTargets(loadBalancer, context.spec);
  if (!evidence) return [];
  const name = workload.ref.namespace;
  const why =
    `The gateway is behind AWS IP targets (${evidence}). ` +
    `Readiness gates make a rollout wait until new pods are healthy in the target group ` +
    `before old ones go (they do nothing at termination; ` +
    `aws-load-balancer-controller docs/deploy/pod_readiness_gate.md@v2.17.1).`;
  const namespace = namespaceNamed(context.inventory, name);
  if (!namespace) {
    return [
      {
        severity: 'info',
        code: 'AWS_READINESS_GATE_NAMESPACE_NOT_IN_STREAM',
        message:
          `${why} Namespace ${name ?? '(the release namespace)'} is not in the stream: ` +
          `label it ${READINESS_GATE_LABEL}=enabled.`,
      },
    ];
  }
  if (String(labelsOf(namespace.metadata)[READINESS_GATE_LABEL] ?? '') === 'enabled') return [];
  return [
    {
      severity: 'warning',
      code: 'AWS_READINESS_GATE_LABEL_MISSING',
      message:
        `${why} Namespace ${name} in the stream has no label ${READINESS_GATE_LABEL}: ` +
        `enabled; add it.`,
    },
  ];
}

/**
 * docs/background.md#load-balancers-in-front-of-gateways: `maxUnavailable: 0` keeps every old
 * gateway pod serving until its replacement is ready. Kubernetes rounds a percentage down (the
 * default 25% of 1–3 replicas is 0), so what is judged is the number of pods a rollout may take
 * down at once. Deployments only: a DaemonSet's maxUnavailable counts nodes. Warning when that is
 * every pod (Recreate, or 1 of 1: an outage); info when it takes part of fewer than 3 pods
 * (capacity drops, nothing is refused).
 */
function maxUnavailable(workload: Workload): ProposedFinding[] {
  if (workload.ref.kind !== 'Deployment') return [];
  const spec = (workload.object.spec ?? {}) as {
    replicas?: unknown;
    strategy?: { type?: unknown; rollingUpdate?: { maxUnavailable?: unknown } | null } | null;
  };
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : undefined;
  const count = replicas ?? 1;
  const shown =
    replicas === undefined
      ? 'replicas unset (1 unless an autoscaler sets more)'
      : `${replicas} replica${replicas === 1 ? '' : 's'}`;
  if (spec.strategy?.type === 'Recreate') {
    return [
      {
        severity: 'warning',
        code: 'GATEWAY_ROLLOUT_UNAVAILABLE',
        message:
          'strategy Recreate stops every gateway pod before new ones start: ' +
          'each rollout is an outage. Use RollingUpdate with maxUnavailable: 0.',
        path: ['spec', 'strategy', 'type'],
      },
    ];
  }
  if (count >= 3) return [];
  const raw = spec.strategy?.rollingUpdate?.maxUnavailable ?? '25%';
  const percent = typeof raw === 'string' ? /^(\d+)%$/.exec(raw) : null;
  const pods =
    typeof raw === 'number'
      ? raw
      : percent
        ? Math.floor((count * Number(percent[1])) / 100)
        : undefined;
  if (pods === 0) return [];
  const all = pods === undefined || pods >= count;
  const out =
    pods === undefined
      ? 'an unknown number of gateway pods'
      : all
        ? 'every gateway pod'
        : `${pods} gateway pod${pods === 1 ? '' : 's'}`;
  return [
    {
      severity: all ? 'warning' : 'info',
      code: 'GATEWAY_ROLLOUT_UNAVAILABLE',
      message:
        `strategy.rollingUpdate.maxUnavailable is ${JSON.stringify(raw)} with ${shown}: ` +
        `a rollout may take ${out} out before replacements are ready. ` +
        'Set maxUnavailable: 0 (and maxSurge ≥ 1) so old pods serve until new ones are ready.',
      path: ['spec', 'strategy', 'rollingUpdate', 'maxUnavailable'],
    },
  ];
}

/**
 * docs/background.md#load-balancers-in-front-of-gateways: a PodDisruptionBudget keeps node drains
 * from evicting every gateway pod at once. Info: the stream may not hold it (a separate release).
 * DaemonSet pods are not drained by eviction in the usual `kubectl drain --ignore-daemonsets`, and
 * a bare Pod has no controller.
 */
function disruptionBudget(workload: Workload, context: MutatorContext): ProposedFinding[] {
  if (workload.ref.kind === 'DaemonSet' || workload.ref.kind === 'Pod') return [];
  const labels = labelsOf(workload.template.metadata);
  const namespace = workload.ref.namespace;
  const covered = context.inventory.podDisruptionBudgets.some((pdb) => {
    const ns = pdb.metadata?.namespace;
    if (ns !== undefined && namespace !== undefined && ns !== namespace) return false;
    return selects(specField(pdb, 'selector') as LabelSelector | null | undefined, labels);
  });
  if (covered) return [];
  return [
    {
      severity: 'info',
      code: 'GATEWAY_NO_PDB',
      message:
        'No PodDisruptionBudget in the stream selects the gateway pods: ' +
        'a node drain may evict them all at once. Add one (e.g. ' +
        'minAvailable: 1, or maxUnavailable: 1 with several replicas).',
    },
  ];
}

interface LabelSelector {
  matchLabels?: Record<string, unknown> | null;
  matchExpressions?: Array<{ key?: unknown; operator?: unknown; values?: unknown }> | null;
}

/**
 * Returns true when a LabelSelector selects these labels (policy/v1: `{}` selects every pod; null
 * none).
 */
function selects(
  selector: LabelSelector | null | undefined,
  labels: Record<string, string>,
): boolean {
  if (selector === null || selector === undefined || typeof selector !== 'object') return false;
  const pairs = Object.entries(selector.matchLabels ?? {});
  if (
    !pairs.every(
      ([key, value]) => labels[key] !== undefined && String(labels[key]) === String(value),
    )
  )
    return false;
  return (selector.matchExpressions ?? []).every((expression) => {
    const key = String(expression.key);
    const values = Array.isArray(expression.values) ? expression.values.map(String) : [];
    const has = labels[key] !== undefined;
    switch (expression.operator) {
      case 'In':
        return has && values.includes(String(labels[key]));
      case 'NotIn':
        return !has || !values.includes(String(labels[key]));
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
      default:
        return false;
    }
  });
}
