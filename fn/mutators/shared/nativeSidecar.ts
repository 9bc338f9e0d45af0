/**
 * A regular container made a native sidecar (KEP-753): moved to `initContainers` with
 * `restartPolicy: Always`, every other field kept as written. Shared by the sidecars a chart
 * declares in a Job (fn/mutators/job/declared.ts) and beside an app (fn/mutators/app/
 * cloudSqlProxy.ts): Kubernetes then starts it before the main containers and stops it once they
 * have exited.
 */
import type { Container } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedChange } from '../types.ts';

/**
 * Returns the two changes that move `container` to `initContainers` as a native sidecar: the new
 * init container, with `reason` (why, in the caller's words), and the regular one removed.
 */
export function moveToNativeSidecar(
  workload: Workload,
  container: Container,
  reason: string,
): ProposedChange[] {
  return [
    {
      path: workload.at('spec', 'initContainers', { key: 'name', equals: container.name }),
      value: asNativeSidecar(container),
      reason,
    },
    {
      path: workload.containerAt(container.name),
      value: undefined,
      reason:
        `${container.name} leaves containers: it runs as a native sidecar in initContainers ` +
        `(the change above).`,
    },
  ];
}

/** The container as a native sidecar: its name, `restartPolicy: Always`, then its fields. */
function asNativeSidecar(container: Container): Container {
  const {
    name,
    restartPolicy: _ignored,
    ...fields
  } = container as Container & {
    restartPolicy?: unknown;
  };
  return { name, restartPolicy: 'Always', ...fields };
}

/** What moving changes in when the containers start (KEP-753), in words. */
export function startOrder(container: Container): string {
  const probe = (container as { startupProbe?: unknown }).startupProbe !== undefined;
  return (
    'It now starts after the init containers before it, and the main containers start once it ' +
    (probe ? 'has passed its startupProbe.' : 'is running (it has no startupProbe).')
  );
}
