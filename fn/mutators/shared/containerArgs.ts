/**
 * One argument appended to a container's `args`: an item after the last where the container has a
 * list, else the list itself (a path into a list that is not there names nothing to set).
 */
import type { Container } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedChange } from '../types.ts';

/** Returns the change that appends `arg` to the container's args. */
export function appendArg(
  workload: Workload,
  container: Container,
  arg: string,
  reason: string,
): ProposedChange {
  const args = container.args;
  return Array.isArray(args)
    ? { path: workload.containerAt(container.name, 'args', args.length), value: arg, reason }
    : { path: workload.containerAt(container.name, 'args'), value: [arg], reason };
}
