/**
 * A regular container made a native sidecar (KEP-753): moved to `initContainers` with
 * `restartPolicy: Always`, every other field kept as written. Shared by the sidecars a chart
 * declares in a Job (fn/mutators/job/declared.ts) and beside an app (fn/mutators/app/
 * cloudSqlProxy.ts): Kubernetes then starts it before the main containers and stops it once they
 * have exited.
 */
import type { Container } from '../../core/kubeObject.ts';

/** The container as a native sidecar: its name, `restartPolicy: Always`, then its fields. */
export function asNativeSidecar(container: Container): Container {
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
