/**
 * `explain --workload NAME --kind KIND --in-namespace NS` (issue #29 item 6): the explanation of
 * the workloads a busy reader asks for, in every format, its header counted over them alone. The
 * namespace filter is `--in-namespace`: `--namespace` is already the setting that names the
 * namespace of resources that name none, which changes what the transform computes.
 */
import { KubeGracefulError } from '../core/errors.ts';
import { formatRef } from '../core/kubeObject.ts';
import type { ResourceRef } from '../core/kubeObject.ts';
import { summarize } from './explain.ts';
import type { Explanation } from './explain.ts';

/** What to keep; each list is OR-ed within, the lists AND-ed together. */
export interface Selection {
  /** Object names (`metadata.name`). */
  readonly workloads?: readonly string[];
  /** Kinds, compared without case (`deployment` is `Deployment`). */
  readonly kinds?: readonly string[];
  readonly namespaces?: readonly string[];
}

function selected(resource: ResourceRef, selection: Selection): boolean {
  const { workloads, kinds, namespaces } = selection;
  const kind = resource.kind.toLowerCase();
  return (
    (!workloads?.length || workloads.includes(resource.name)) &&
    (!kinds?.length || kinds.some((k) => k.toLowerCase() === kind)) &&
    (!namespaces?.length || namespaces.includes(resource.namespace ?? ''))
  );
}

/**
 * Returns the explanation of the selected workloads (and of the objects left alone that match).
 * Throws a usage error when a selection matches nothing: an empty report would read as "nothing to
 * fix" in CI.
 */
export function selectWorkloads(explanation: Explanation, selection: Selection): Explanation {
  const { workloads: names, kinds, namespaces } = selection;
  const asked = [names, kinds, namespaces].some((list) => list !== undefined && list.length > 0);
  if (!asked) return explanation;
  const workloads = explanation.workloads.filter((w) => selected(w.resource, selection));
  if (workloads.length === 0) {
    const known = explanation.workloads.map((w) => formatRef(w.resource));
    throw new KubeGracefulError(
      'E_USAGE',
      'no explained workload matches the selection ' +
        `(${[
          selection.workloads?.length ? `--workload ${selection.workloads.join(',')}` : '',
          selection.kinds?.length ? `--kind ${selection.kinds.join(',')}` : '',
          selection.namespaces?.length ? `--in-namespace ${selection.namespaces.join(',')}` : '',
        ]
          .filter(Boolean)
          .join(' ')})`,
      {},
      known.length
        ? `the workloads explained are: ${known.join(', ')}`
        : 'no workload in the input was handled by a mutator',
    );
  }
  const leftAlone = explanation.leftAlone.filter((entry) => selected(entry.resource, selection));
  return {
    ...explanation,
    workloads,
    leftAlone,
    summary: summarize(
      workloads,
      workloads.reduce((n, w) => n + w.changes.length, 0),
    ),
  };
}
