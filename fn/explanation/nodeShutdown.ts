/**
 * The third timeline of explain, beside the rollout's (issue #31 item 3): the patched pod when its
 * node goes away with a budget shorter than its grace period (a Spot reclaim, a Karpenter
 * NodePool's terminationGracePeriod, kubelet graceful node shutdown). The kubelet then kills at the
 * budget, not at G: the same timeline, drawn by the mutator's own kit, with the deadline there.
 * The pod's deletion is taken as the rollout's (endpoints removal starts with it), as a drain by
 * eviction does it.
 */
import { sourceText } from '../core/source.ts';
import type { TimingInputs } from '../timing/model.ts';
import type { Valued } from './podSettings.ts';
import type { Timeline } from './timeline.ts';

/** The title renderers give it. */
export const NODE_SHUTDOWN_TITLE = 'Patched, when the node goes away';

/**
 * Returns the timeline `draw` makes with the node's budget for a grace period, when the inputs
 * have a budget shorter than the patched pod's `grace`; else undefined.
 */
export function whenTheNodeGoesAway(
  inputs: TimingInputs,
  grace: Valued<number>,
  draw: (grace: Valued<number>) => Timeline,
): Timeline | undefined {
  const budget = inputs.nodeShutdownBudget;
  if (budget === undefined || budget.value >= grace.value) return undefined;
  return draw({
    value: budget.value,
    source:
      `cut to what the node gives, ${sourceText(budget.source)}; ` +
      `the pod's own is ${grace.value} s`,
  });
}

/** `{ nodeShutdown }` for a timeline, `{}` for none: spread into an explanation's timelines. */
export function optionalTimeline(timeline: Timeline | undefined): { nodeShutdown?: Timeline } {
  return timeline === undefined ? {} : { nodeShutdown: timeline };
}
