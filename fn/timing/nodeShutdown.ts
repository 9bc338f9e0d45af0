/**
 * The node's own budget for its pods when it goes away: a pod's grace period holds only if the
 * node waits for it. Karpenter's NodePool `spec.template.spec.terminationGracePeriod` (v1.0.0+)
 * caps it: "Karpenter will preemptively delete pods so their terminationGracePeriodSeconds align
 * with the node's terminationGracePeriod" (kubernetes-sigs/karpenter pkg/apis/v1/nodepool.go
 * @v1.0.0 … @v1.14.1), so a pod whose grace period is longer is stopped at the node's deadline. A
 * Spot node gets a two-minute interruption notice (AWS EC2 docs, Spot Instance interruption
 * notices), so a NodePool that asks for Spot capacity (`karpenter.sh/capacity-type In [spot]`)
 * gives its pods at most 120 s.
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { specField } from '../core/kubeObject.ts';
import { kubeObjectRef } from './kubeObject.ts';

/** A Spot instance's interruption notice, in seconds (AWS EC2 docs: two minutes). */
const SPOT_NOTICE_SECONDS = 120;

/** The Karpenter label that pins a pod to a NodePool (kubernetes-sigs/karpenter v1 well-known). */
const NODEPOOL_LABEL = 'karpenter.sh/nodepool';

/** A NodePool's budget and why. */
export interface NodePoolBudget {
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
): NodePoolBudget | undefined {
  const pinned =
    nodeSelector !== null && typeof nodeSelector === 'object'
      ? (nodeSelector as Record<string, unknown>)[NODEPOOL_LABEL]
      : undefined;
  const candidates =
    typeof pinned === 'string' ? pools.filter((p) => p.metadata?.name === pinned) : pools;
  let shortest: NodePoolBudget | undefined;
  for (const pool of candidates)
    for (const budget of budgetsOf(pool))
      if (shortest === undefined || budget.seconds < shortest.seconds) shortest = budget;
  return shortest;
}

function budgetsOf(pool: KubeObject): NodePoolBudget[] {
  const template = specField(pool, 'template') as { spec?: Record<string, unknown> } | null;
  const spec = template?.spec ?? {};
  const name = `NodePool ${kubeObjectRef(pool)}`;
  const budgets: NodePoolBudget[] = [];
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
