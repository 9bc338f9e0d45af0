/**
 * The resources in the stream that tell how traffic reaches workloads and how they are protected:
 * Services, Namespaces, PodDisruptionBudgets, Ingresses, GKE BackendConfigs. Read by mutators, never changed.
 */
import type { KubeObject } from './kubeObject.ts';

export interface Inventory {
  readonly services: readonly KubeObject[];
  readonly namespaces: readonly KubeObject[];
  readonly podDisruptionBudgets: readonly KubeObject[];
  readonly ingresses: readonly KubeObject[];
  /** GKE `cloud.google.com` BackendConfigs: a Service names one, and its connectionDraining lengthens the NEG's window. */
  readonly backendConfigs: readonly KubeObject[];
}

/** Returns the inventory of a list of objects, with `defaultNamespace` filled in where none is set. */
export function buildInventory(objects: readonly KubeObject[], defaultNamespace?: string): Inventory {
  const withNamespace = (o: KubeObject): KubeObject =>
    o.metadata?.namespace || !defaultNamespace ? o : { ...o, metadata: { ...o.metadata, namespace: defaultNamespace } };
  const of = (kind: string) => objects.filter((o) => o.kind === kind).map(withNamespace);
  return {
    services: of('Service'),
    namespaces: of('Namespace'),
    podDisruptionBudgets: of('PodDisruptionBudget'),
    ingresses: of('Ingress'),
    backendConfigs: of('BackendConfig'),
  };
}

/** Returns the Namespace object of that name in the stream, if there is one. */
export function namespaceNamed(inventory: Inventory, name: string | undefined): KubeObject | undefined {
  return name === undefined ? undefined : inventory.namespaces.find((ns) => ns.metadata?.name === name);
}
