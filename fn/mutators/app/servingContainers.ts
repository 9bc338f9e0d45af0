/**
 * Which app containers serve traffic and so need a preStop delay (issue #5): those that declare
 * ports, and those a Service in the stream sends traffic to; or exactly the names config lists.
 * Mesh proxies are never among them: their lifecycle belongs to the mesh
 * (docs/background.md#istio).
 */
import type { ProposedFinding } from '../types.ts';
import type { MutatorContext } from '../types.ts';
import { serviceSelectsPod } from '../../timing/loadBalancers.ts';
import { servicesSelecting } from '../../workloads/inventory.ts';
import { labelsOf } from '../../core/kubeObject.ts';
import type { Container } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import { MESH_PROXY_CONTAINERS } from '../../workloads/meshProxies.ts';
import { specField } from '../../core/kubeObject.ts';
import { cloudSqlProxyOf } from '../../workloads/cloudSqlProxy.ts';

/** The serving containers, in pod order, each with why it serves; findings about the choice. */
export interface ServingContainers {
  readonly names: readonly string[];
  readonly why: ReadonlyMap<string, string>;
  readonly findings: readonly ProposedFinding[];
}

interface ServicePort {
  name?: string;
  port?: number;
  targetPort?: number | string;
}

/** Returns the app containers of the pod template that serve traffic. */
export function servingContainers(workload: Workload, context: MutatorContext): ServingContainers {
  // A Cloud SQL Auth Proxy serves the app, not the pod's clients: its end is ./cloudSqlProxy.ts's.
  const apps = workload.containers.filter(
    (c) => !MESH_PROXY_CONTAINERS.has(c.name) && cloudSqlProxyOf(c) === undefined,
  );
  const why = new Map<string, string>();
  const findings: ProposedFinding[] = [];
  const configured = context.spec.app.servingContainers;
  if (configured !== undefined) {
    for (const name of configured) {
      if (MESH_PROXY_CONTAINERS.has(name)) {
        findings.push({
          severity: 'warning',
          code: 'PROXY_NOT_SERVING_CONTAINER',
          message:
            `app.servingContainers names ${name}, a mesh proxy: its lifecycle ` +
            `belongs to the mesh and is never changed; ignored.`,
        });
      } else if (apps.some((c) => c.name === name)) {
        why.set(name, 'named in app.servingContainers');
      }
    }
    return { names: apps.map((c) => c.name).filter((n) => why.has(n)), why, findings };
  }
  for (const container of apps) {
    if ((container.ports ?? []).length > 0) why.set(container.name, 'declares container ports');
  }
  const labels = labelsOf(workload.template.metadata);
  const services = servicesSelecting(context.inventory, labels, workload.ref.namespace, (s) =>
    serviceSelectsPod(s, labels, s.metadata?.namespace, workload.ref.namespace),
  );
  for (const service of services) {
    const ports = (specField(service, 'ports') ?? []) as ServicePort[];
    for (const port of ports) {
      const target = port.targetPort ?? port.port;
      const what = `Service ${service.metadata?.name} port ${port.name ?? port.port}`;
      const hit = apps.find((c) => declares(c, target));
      if (hit) {
        if (!why.has(hit.name)) why.set(hit.name, `${what} targets its port ${String(target)}`);
      } else if (typeof target === 'string') {
        findings.push({
          severity: 'info',
          code: 'SERVICE_PORT_NAME_UNMATCHED',
          message:
            `${what} targets port name ${target}, which no app container declares: ` +
            `Kubernetes sends that port no traffic.`,
        });
      } else if (apps.length === 1) {
        // Declaring a port is informational: traffic to an undeclared port still reaches the one
        // container listening on it (core/v1 Container.ports API doc).
        if (!why.has(apps[0]!.name))
          why.set(
            apps[0]!.name,
            `${what} sends port ${String(target)} to the pod's only app container`,
          );
      } else if (apps.length > 1) {
        // Cannot tell which container listens: every app container waits (conservative; a sleep
        // on a container that serves nothing only delays its stop by S).
        for (const c of apps)
          if (!why.has(c.name))
            why.set(c.name, `${what} sends port ${String(target)}, which no container declares`);
        findings.push({
          severity: 'info',
          code: 'SERVICE_PORT_UNDECLARED',
          message:
            `${what} sends port ${String(target)} to the pods, but no container ` +
            `declares it; every app container gets the preStop delay. List the ` +
            `ones that serve in app.servingContainers.`,
        });
      }
    }
  }
  return { names: apps.map((c) => c.name).filter((n) => why.has(n)), why, findings };
}

/** Returns true when the container declares the port, by number or by name. */
function declares(container: Container, target: number | string | undefined): boolean {
  if (target === undefined) return false;
  return (container.ports ?? []).some((p) =>
    typeof target === 'string' ? p.name === target : p.containerPort === target,
  );
}
