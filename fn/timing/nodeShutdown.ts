/**
 * The node's own budget for its pods when it goes away: a pod's grace period holds only if the
 * node waits for it. Read from the input in two ways, and named by a preset where it is not:
 * - Karpenter's NodePool `spec.template.spec.terminationGracePeriod` (v1.0.0+) caps it: "Karpenter
 *   will preemptively delete pods so their terminationGracePeriodSeconds align with the node's
 *   terminationGracePeriod" (kubernetes-sigs/karpenter pkg/apis/v1/nodepool.go @v1.0.0 …
 *   @v1.14.1), so a pod whose grace period is longer is stopped at the node's deadline. A Spot
 *   node gets a two-minute interruption notice (AWS EC2 docs, Spot Instance interruption notices),
 *   so a NodePool that asks for Spot capacity (`karpenter.sh/capacity-type In [spot]`) gives its
 *   pods at most 120 s;
 * - a pod whose nodeSelector asks for interruptible capacity by a provider's label gets that
 *   provider's budget (CAPACITY_LABELS below);
 * - the presets (`timing.nodeShutdownPreset`) name the same budgets for nodes the input does not
 *   show.
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { specField } from '../core/kubeObject.ts';

/** A Spot instance's interruption notice, in seconds (AWS EC2 docs: two minutes). */
const SPOT_NOTICE_SECONDS = 120;

const AWS_SPOT_NOTICE =
  'the two-minute EC2 Spot interruption notice ' +
  '(https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html)';

/**
 * What GKE gives a Spot or preemptible node's pods, in seconds: of the 30 s after the preemption
 * notice, the first 15 are for the node's Pods and the last 15 for critical system Pods (GKE docs,
 * Spot VMs, "Termination and graceful shutdown of Spot VMs"; preemptible VMs likewise from
 * 1.22.8-gke.200). Autopilot Spot Pods get up to 25 s, and Standard node
 * pools from 1.35.0-gke.1171000 may be configured to give up to 120 s: say so with
 * --node-shutdown-budget.
 */
const GKE_SPOT_SECONDS = 15;

const GKE_SPOT_NOTICE =
  "GKE's 15 s for non-system Pods of a Spot or preemptible node's 30 s shutdown " +
  '(https://cloud.google.com/kubernetes-engine/docs/concepts/spot-vms; Autopilot Spot Pods get ' +
  'up to 25 s: set --node-shutdown-budget then)';

/** Names of the presets of `timing.nodeShutdownPreset`: a provider's interruptible capacity. */
export const NODE_SHUTDOWN_PRESET_NAMES = ['aws-spot', 'gke-spot'] as const;

type NodeShutdownPreset = (typeof NODE_SHUTDOWN_PRESET_NAMES)[number];

/** The presets' budgets, with where each was read. */
export const NODE_SHUTDOWN_PRESETS: Readonly<
  Record<NodeShutdownPreset, { readonly seconds: number; readonly evidence: string }>
> = {
  'aws-spot': { seconds: SPOT_NOTICE_SECONDS, evidence: AWS_SPOT_NOTICE },
  'gke-spot': { seconds: GKE_SPOT_SECONDS, evidence: GKE_SPOT_NOTICE },
};

/**
 * Node labels a pod's nodeSelector asks interruptible capacity with, and the budget each gives:
 * Karpenter's capacity type (kubernetes-sigs/karpenter pkg/apis/v1/labels.go@v1.0.0
 * CapacityTypeLabelKey, CapacityTypeSpot), EKS managed node groups' (Amazon EKS User Guide,
 * managed node groups: `eks.amazonaws.com/capacityType: SPOT`), GKE's Spot and preemptible labels
 * (GKE docs, Spot VMs and preemptible VMs: `cloud.google.com/gke-spot`,
 * `cloud.google.com/gke-preemptible` set to "true").
 */
const CAPACITY_LABELS: ReadonlyArray<{
  readonly key: string;
  readonly value: string;
  readonly preset: NodeShutdownPreset;
}> = [
  { key: 'karpenter.sh/capacity-type', value: 'spot', preset: 'aws-spot' },
  { key: 'eks.amazonaws.com/capacityType', value: 'SPOT', preset: 'aws-spot' },
  { key: 'cloud.google.com/gke-spot', value: 'true', preset: 'gke-spot' },
  { key: 'cloud.google.com/gke-preemptible', value: 'true', preset: 'gke-spot' },
];

/** The Karpenter label that pins a pod to a NodePool (kubernetes-sigs/karpenter v1 well-known). */
const NODEPOOL_LABEL = 'karpenter.sh/nodepool';

/** A node's budget for its pods and why: a NodePool's, or the capacity a nodeSelector asks for. */
export interface NodeBudget {
  readonly seconds: number;
  /** `NodePool name: terminationGracePeriod 90s` or `… requests Spot capacity (notice 120 s)`. */
  readonly evidence: string;
}

/**
 * Returns the budget of the NodePools a pod may land on (the one its nodeSelector names, else every
 * NodePool of the input): the shortest, or undefined where none sets one.
 */
export function nodePoolBudget(
  pools: readonly KubeObject[],
  nodeSelector: unknown,
): NodeBudget | undefined {
  const pinned =
    nodeSelector !== null && typeof nodeSelector === 'object'
      ? (nodeSelector as Record<string, unknown>)[NODEPOOL_LABEL]
      : undefined;
  const candidates =
    typeof pinned === 'string' ? pools.filter((p) => p.metadata?.name === pinned) : pools;
  let shortest: NodeBudget | undefined;
  for (const pool of candidates)
    for (const budget of budgetsOf(pool))
      if (shortest === undefined || budget.seconds < shortest.seconds) shortest = budget;
  return shortest;
}

/**
 * Returns the budget of the interruptible capacity a pod's nodeSelector asks for by a provider's
 * label (CAPACITY_LABELS), or undefined.
 */
export function capacityBudget(nodeSelector: unknown): NodeBudget | undefined {
  if (nodeSelector === null || typeof nodeSelector !== 'object') return undefined;
  const labels = nodeSelector as Record<string, unknown>;
  const asked = CAPACITY_LABELS.find((l) => labels[l.key] === l.value);
  if (asked === undefined) return undefined;
  const preset = NODE_SHUTDOWN_PRESETS[asked.preset];
  return {
    seconds: preset.seconds,
    evidence: `nodeSelector ${asked.key}: ${JSON.stringify(asked.value)}: ${preset.evidence}`,
  };
}

function budgetsOf(pool: KubeObject): NodeBudget[] {
  const template = specField(pool, 'template') as { spec?: Record<string, unknown> } | null;
  const spec = template?.spec ?? {};
  // Cluster-scoped: named by its name alone, even where the input writes a namespace on it.
  const name = `NodePool ${String(pool.metadata?.name ?? '(unnamed)')}`;
  const budgets: NodeBudget[] = [];
  const grace = goDurationSeconds(spec['terminationGracePeriod']);
  if (grace !== undefined)
    budgets.push({
      seconds: grace,
      evidence: `${name}: terminationGracePeriod ${String(spec['terminationGracePeriod'])}`,
    });
  if (asksForSpot(spec['requirements']))
    budgets.push({
      seconds: SPOT_NOTICE_SECONDS,
      evidence:
        `${name}: Spot capacity (karpenter.sh/capacity-type In [spot]), whose interruption ` +
        `notice is ${SPOT_NOTICE_SECONDS} s`,
    });
  return budgets;
}

function asksForSpot(requirements: unknown): boolean {
  return (Array.isArray(requirements) ? requirements : []).some((r: unknown) => {
    const req = (r ?? {}) as { key?: unknown; operator?: unknown; values?: unknown };
    return (
      req.key === 'karpenter.sh/capacity-type' &&
      req.operator === 'In' &&
      Array.isArray(req.values) &&
      req.values.includes('spot')
    );
  });
}

/**
 * The seconds of a duration in the form the NodePool CRD admits, `^([0-9]+(s|m|h))+$`
 * (nodepool.go@v1.0.0 … @v1.14.1); undefined for anything else.
 */
function goDurationSeconds(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^([0-9]+(s|m|h))+$/.test(value)) return undefined;
  const unit: Record<string, number> = { s: 1, m: 60, h: 3600 };
  let seconds = 0;
  for (const [, amount, u] of value.matchAll(/([0-9]+)(s|m|h)/g))
    seconds += Number(amount) * unit[u!]!;
  return seconds;
}
