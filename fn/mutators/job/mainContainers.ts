/**
 * Which containers of a Job's pod are its main containers: the ones whose exit means the work is
 * done. All of `spec.containers` except mesh proxies and declared sidecars, or the names
 * `job.mainContainers` lists.
 */
import type { Spec } from '../../config/schema.ts';
import type { Container } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedFinding } from '../types.ts';
import { MESH_PROXY_CONTAINERS } from '../../workloads/meshProxies.ts';

// The proxy containers' fixed names (docs/background.md#istio "always named istio-proxy"; Linkerd's
// injector names its proxy linkerd-proxy). They are never main containers, even when listed:
// wrapping a proxy would make it ask itself to quit.

/** The main containers and a finding when the configured names match none. */
export function mainContainers(
  workload: Workload,
  spec: Spec,
  sidecars: ReadonlyArray<{ readonly name: string }> = [],
): { containers: Container[]; findings: ProposedFinding[] } {
  const candidates = workload.containers.filter(
    (c) => !MESH_PROXY_CONTAINERS.has(c.name) && !sidecars.some((s) => s.name === c.name),
  );
  const named = spec.job.mainContainers;
  if (named === undefined) return { containers: candidates, findings: [] };
  const containers = candidates.filter((c) => named.includes(c.name));
  if (containers.length > 0) return { containers, findings: [] };
  return {
    containers,
    findings: [
      {
        severity: 'warning',
        code: 'JOB_MAIN_CONTAINER_NOT_FOUND',
        message:
          `job.mainContainers names ${quoted(named)}, ` +
          `but this pod's containers are ${quoted(candidates.map((c) => c.name)) || 'none'}: ` +
          'nothing to wrap',
        path: workload.at('spec', 'containers'),
      },
    ],
  };
}

/** `"a", "b"`: container names as the message quotes them. */
function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}
