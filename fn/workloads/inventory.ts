/**
 * The resources in the stream that tell how traffic reaches workloads and how they are protected:
 * Services, Namespaces, PodDisruptionBudgets, Ingresses, GKE BackendConfigs. Read by mutators,
 * never changed.
 *
 * Mutators ask about one workload at a time; the lookups here answer from indexes built once per
 * inventory, so no workload scans every Service, Namespace or Ingress of the stream (issue #16:
 * on bookinfo in 400 namespaces, those scans made time grow faster than the input).
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { selectorIndex } from './selectorIndex.ts';
import { groupOf } from './kinds.ts';
import { ROUTE_KINDS } from '../timing/gatewayRoutes.ts';
import type { SelectorIndex } from './selectorIndex.ts';

export interface Inventory {
  readonly services: readonly KubeObject[];
  readonly namespaces: readonly KubeObject[];
  readonly podDisruptionBudgets: readonly KubeObject[];
  readonly ingresses: readonly KubeObject[];
  /** `networking.k8s.io` IngressClasses: which controller takes an Ingress's class. */
  readonly ingressClasses: readonly KubeObject[];
  /** AWS `elbv2.k8s.aws` IngressClassParams: an ALB IngressClass's target type. */
  readonly ingressClassParams: readonly KubeObject[];
  /**
   * GKE `cloud.google.com` BackendConfigs: a Service names one, and its connectionDraining
   * lengthens the NEG's window.
   */
  readonly backendConfigs: readonly KubeObject[];
  /** AWS `elbv2.k8s.aws` TargetGroupBindings: a target group made outside bound to a Service. */
  readonly targetGroupBindings: readonly KubeObject[];
  /** AWS `gateway.k8s.aws` TargetGroupConfigurations: an AWS Gateway's groups for a Service. */
  readonly targetGroupConfigurations: readonly KubeObject[];
  /** AWS `gateway.k8s.aws` LoadBalancerConfigurations: they name a Gateway's default group. */
  readonly loadBalancerConfigurations: readonly KubeObject[];
  /** GKE `networking.gke.io` GCPBackendPolicies: a GKE Gateway's connection draining. */
  readonly gcpBackendPolicies: readonly KubeObject[];
  /** Karpenter `karpenter.sh` NodePools: how long their nodes wait for pods when they go away. */
  readonly nodePools: readonly KubeObject[];
  /** Gateway API GatewayClasses, Gateways and routes: which Gateways send to which Services. */
  readonly gatewayClasses: readonly KubeObject[];
  readonly gateways: readonly KubeObject[];
  readonly routes: readonly KubeObject[];
}

const GATEWAY_API = 'gateway.networking.k8s.io';

/**
 * Returns the inventory of a list of objects, with `defaultNamespace` filled in where a namespaced
 * object sets none. The cluster-scoped kinds keep none: they are named by their name alone
 * (Namespace and IngressClass are cluster-scoped in Kubernetes; GatewayClass, IngressClassParams
 * and NodePool by their definitions: gateway-api apis/v1/gatewayclass_types.go@v1.3.0
 * `scope=Cluster`, aws-load-balancer-controller
 * config/crd/bases/elbv2.k8s.aws_ingressclassparams.yaml@v2.17.1 and karpenter
 * pkg/apis/crds/karpenter.sh_nodepools.yaml@v1.9.1 `scope: Cluster`).
 */
export function buildInventory(
  objects: readonly KubeObject[],
  defaultNamespace?: string,
): Inventory {
  const withNamespace = (o: KubeObject): KubeObject =>
    o.metadata?.namespace || !defaultNamespace
      ? o
      : { ...o, metadata: { ...o.metadata, namespace: defaultNamespace } };
  const ofKind = (kinds: readonly string[] | string, group?: string) =>
    objects.filter(
      (o) =>
        (typeof kinds === 'string' ? o.kind === kinds : kinds.includes(o.kind ?? '')) &&
        (group === undefined || groupOf(String(o.apiVersion ?? '')) === group),
    );
  const clusterScoped = ofKind;
  const namespaced = (kinds: readonly string[] | string, group?: string) =>
    ofKind(kinds, group).map(withNamespace);
  return {
    services: namespaced('Service'),
    namespaces: clusterScoped('Namespace'),
    podDisruptionBudgets: namespaced('PodDisruptionBudget'),
    ingresses: namespaced('Ingress'),
    ingressClasses: clusterScoped('IngressClass', 'networking.k8s.io'),
    ingressClassParams: clusterScoped('IngressClassParams', 'elbv2.k8s.aws'),
    backendConfigs: namespaced('BackendConfig'),
    targetGroupBindings: namespaced('TargetGroupBinding', 'elbv2.k8s.aws'),
    targetGroupConfigurations: namespaced('TargetGroupConfiguration', 'gateway.k8s.aws'),
    loadBalancerConfigurations: namespaced('LoadBalancerConfiguration', 'gateway.k8s.aws'),
    gcpBackendPolicies: namespaced('GCPBackendPolicy', 'networking.gke.io'),
    nodePools: clusterScoped('NodePool', 'karpenter.sh'),
    gatewayClasses: clusterScoped('GatewayClass', GATEWAY_API),
    gateways: namespaced('Gateway', GATEWAY_API),
    routes: namespaced(ROUTE_KINDS, GATEWAY_API),
  };
}

/** The indexes of an inventory, built on its first lookup (an inventory is never changed). */
interface Indexes {
  readonly namespaceByName: Map<unknown, KubeObject>;
  readonly ingressesByNamespace: Map<unknown, KubeObject[]>;
  readonly services: SelectorIndex;
}

const INDEXES = new WeakMap<Inventory, Indexes>();

function indexesOf(inventory: Inventory): Indexes {
  let indexes = INDEXES.get(inventory);
  if (!indexes) {
    const namespaceByName = new Map<unknown, KubeObject>();
    // The first of that name, as a search of the list in stream order finds.
    for (const ns of inventory.namespaces)
      if (!namespaceByName.has(ns.metadata?.name)) namespaceByName.set(ns.metadata?.name, ns);
    indexes = {
      namespaceByName,
      ingressesByNamespace: groupBy(inventory.ingresses, (o) => o.metadata?.namespace),
      services: selectorIndex(inventory.services),
    };
    INDEXES.set(inventory, indexes);
  }
  return indexes;
}

function groupBy(
  objects: readonly KubeObject[],
  key: (o: KubeObject) => unknown,
): Map<unknown, KubeObject[]> {
  const groups = new Map<unknown, KubeObject[]>();
  for (const o of objects) {
    const group = groups.get(key(o));
    if (group) group.push(o);
    else groups.set(key(o), [o]);
  }
  return groups;
}

/** Returns the Namespace object of that name in the stream, if there is one. */
export function namespaceNamed(
  inventory: Inventory,
  name: string | undefined,
): KubeObject | undefined {
  return name === undefined ? undefined : indexesOf(inventory).namespaceByName.get(name);
}

/**
 * Returns the Ingresses whose `metadata.namespace` is exactly `namespace` (unset for unset), in
 * stream order.
 */
export function ingressesIn(
  inventory: Inventory,
  namespace: string | undefined,
): readonly KubeObject[] {
  return indexesOf(inventory).ingressesByNamespace.get(namespace) ?? [];
}

/**
 * Returns the Services that may select pods with these labels in that namespace, in stream order:
 * every Service `accepts` (the caller's own test) would take from the whole list, and only those
 * whose selector's first pair and namespace fit (see selectorIndex.ts).
 */
export function servicesSelecting(
  inventory: Inventory,
  podLabels: Readonly<Record<string, unknown>>,
  podNamespace: string | undefined,
  accepts: (service: KubeObject) => boolean,
): KubeObject[] {
  return indexesOf(inventory).services.candidates(podLabels, podNamespace).filter(accepts);
}
