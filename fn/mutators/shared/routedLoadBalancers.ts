/**
 * The cloud load balancers that reach a workload's Services through objects other than the
 * Service itself: a TargetGroupBinding bound to one of them, or a route that sends to one of them
 * from an AWS Gateway (GatewayClass controllerName gateway.k8s.aws/alb or /nlb) or a GKE Gateway.
 * Each sends to the pods straight from the cloud, so a ClusterIP Service in front of them is no
 * "in-cluster only" case. A route from a Gateway that is neither, nor an in-cluster proxy's, nor in
 * the input, may be either: its window is not modelled (fn/timing/unmodelledGateway.ts).
 */
import type { KubeObject } from '../../core/kubeObject.ts';
import { specField } from '../../core/kubeObject.ts';
import type { Inventory } from '../../workloads/inventory.ts';
import type { LoadBalancerRecognition } from '../../timing/loadBalancers.ts';
import { awsGatewayKind, gatewayDefaultOf, recognizeAwsGateway } from '../../timing/awsGateway.ts';
import type { GatewayDefault } from '../../timing/awsGateway.ts';
import { inClusterImplementation } from '../../timing/gatewayControllers.ts';
import { unmodelledGateway } from '../../timing/unmodelledGateway.ts';
import { isNamed, routeGateways, routeServices } from '../../timing/gatewayRoutes.ts';
import { recognizeTargetGroupBinding } from '../../timing/targetGroupBinding.ts';
import { namesService } from '../../timing/serviceReference.ts';
import { gkeGatewayEvidence, recognizeGkeGateway } from '../../timing/gkeGateway.ts';
import { azureAgc, isAzureAgc } from '../../timing/azureAgc.ts';
import { kubeObjectRef } from '../../timing/kubeObject.ts';

/** Returns the recognitions of the cloud load balancers bound or routed to `services`. */
export function routedLoadBalancers(
  services: readonly KubeObject[],
  inventory: Inventory,
): LoadBalancerRecognition[] {
  const bound = services.flatMap((service) =>
    inventory.targetGroupBindings
      .filter((binding) => namesService(binding, 'serviceRef', 'no-kind', service))
      .map((binding) => recognizeTargetGroupBinding(binding, service)),
  );
  return [...bound, ...routedThroughGateways(services, inventory)];
}

function routedThroughGateways(
  services: readonly KubeObject[],
  inventory: Inventory,
): LoadBalancerRecognition[] {
  if (inventory.routes.length === 0) return [];
  const found: LoadBalancerRecognition[] = [];
  const byService = routesByService(inventory);
  for (const service of services) {
    const key = `${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`;
    for (const route of byService.get(key) ?? []) {
      for (const ref of routeGateways(route)) {
        const gateway = inventory.gateways.find((g) => isNamed(g, ref));
        const recognition =
          gateway === undefined
            ? unmodelledGateway(route, ref, { kind: 'not-in-input' })
            : throughGateway({ service, route, gateway }, inventory);
        if (recognition) found.push(recognition);
      }
    }
  }
  return found;
}

/**
 * The cloud load balancer of one route's Gateway in front of `service`: AWS's or GKE's, nothing for
 * an in-cluster proxy, and one not modelled for any other.
 */
function throughGateway(
  path: { readonly service: KubeObject; readonly route: KubeObject; readonly gateway: KubeObject },
  inventory: Inventory,
): LoadBalancerRecognition | undefined {
  const { service, gateway } = path;
  const className = specField(gateway, 'gatewayClassName');
  const gatewayClass = inventory.gatewayClasses.find((c) => c.metadata?.name === className);
  const gke = gkeGatewayEvidence(gateway, gatewayClass);
  if (gke !== undefined) {
    const policy = inventory.gcpBackendPolicies.find((p) =>
      namesService(p, 'targetRef', 'core-service-required', service),
    );
    return recognizeGkeGateway({ ...path, evidence: gke, ...(policy ? { policy } : {}) });
  }
  const controller = gatewayClass && specField(gatewayClass, 'controllerName');
  if (isAzureAgc(className, controller)) {
    const subject = `Gateway ${kubeObjectRef(gateway)}`;
    return azureAgc(subject, `${path.route.kind} ${kubeObjectRef(path.route)} through ${subject}`);
  }
  const kind = awsGatewayKind(controller);
  if (gatewayClass === undefined || kind === undefined) {
    // An in-cluster proxy's pods follow the Service's endpoints: the in-cluster window holds.
    if (inClusterImplementation(className, controller) !== undefined) return undefined;
    const ref = { namespace: gateway.metadata?.namespace, name: String(gateway.metadata?.name) };
    return unmodelledGateway(
      path.route,
      ref,
      gatewayClass === undefined
        ? { kind: 'class-not-in-input', className: String(className) }
        : { kind: 'controller', className: String(className), controller: String(controller) },
    );
  }
  const gatewayDefault = defaultOf(gatewayClass, gateway, inventory);
  const targetGroupConfiguration = inventory.targetGroupConfigurations.find((config) =>
    namesService(config, 'targetReference', 'service-by-default', service),
  );
  return recognizeAwsGateway({
    ...path,
    gatewayClass,
    kind,
    ...(targetGroupConfiguration ? { targetGroupConfiguration } : {}),
    ...(gatewayDefault ? { gatewayDefault } : {}),
  });
}

const ROUTES_BY_SERVICE = new WeakMap<Inventory, Map<string, KubeObject[]>>();

/**
 * The routes of the inventory by the Services they send to (`namespace/name`), each route once per
 * Service: built once, so no workload scans every route.
 */
function routesByService(inventory: Inventory): Map<string, KubeObject[]> {
  let index = ROUTES_BY_SERVICE.get(inventory);
  if (index === undefined) {
    index = new Map();
    for (const route of inventory.routes) {
      const keys = new Set(routeServices(route).map((k) => `${k.namespace ?? ''}/${k.name}`));
      for (const key of keys) index.set(key, [...(index.get(key) ?? []), route]);
    }
    ROUTES_BY_SERVICE.set(inventory, index);
  }
  return index;
}

/**
 * The default target-group configuration the Gateway's LoadBalancerConfigurations name (v3.2.0+):
 * the GatewayClass's parametersRef (namespace required) and the Gateway's
 * infrastructure.parametersRef (its own namespace), each defaultTargetGroupConfiguration looked up
 * in the LoadBalancerConfiguration's namespace, used only without targetReference
 * (controllers/gateway/config_resolver.go@v3.2.0, pkg/gateway/gatewayutils/lb_config_utils.go,
 * gateway_utils.go GetNamespacedParamRefForGateway).
 */
function defaultOf(
  gatewayClass: KubeObject,
  gateway: KubeObject,
  inventory: Inventory,
): GatewayDefault | undefined {
  const classRef = specField(gatewayClass, 'parametersRef') as ParametersRef | null | undefined;
  const gatewayRef = (
    specField(gateway, 'infrastructure') as { parametersRef?: ParametersRef } | null | undefined
  )?.parametersRef;
  const ofClass = loadBalancerConfiguration(classRef, classRef?.namespace, inventory);
  const ofGateway = loadBalancerConfiguration(gatewayRef, gateway.metadata?.namespace, inventory);
  const preferGateway =
    ofClass !== undefined && specField(ofClass, 'mergingMode') === 'prefer-gateway';
  return gatewayDefaultOf(
    defaultConfigurationOf(ofClass, inventory),
    defaultConfigurationOf(ofGateway, inventory),
    preferGateway,
  );
}

interface ParametersRef {
  readonly group?: unknown;
  readonly kind?: unknown;
  readonly name?: unknown;
  readonly namespace?: unknown;
}

function loadBalancerConfiguration(
  ref: ParametersRef | null | undefined,
  namespace: unknown,
  inventory: Inventory,
): KubeObject | undefined {
  if (ref?.group !== 'gateway.k8s.aws' || ref.kind !== 'LoadBalancerConfiguration')
    return undefined;
  return inventory.loadBalancerConfigurations.find(
    (c) => c.metadata?.name === ref.name && c.metadata?.namespace === namespace,
  );
}

function defaultConfigurationOf(
  config: KubeObject | undefined,
  inventory: Inventory,
): KubeObject | undefined {
  const ref =
    config && (specField(config, 'defaultTargetGroupConfiguration') as { name?: unknown } | null);
  if (typeof ref?.name !== 'string') return undefined;
  return inventory.targetGroupConfigurations.find(
    (c) =>
      c.metadata?.name === ref.name &&
      c.metadata?.namespace === config?.metadata?.namespace &&
      // One with a targetReference is refused as a default (lookUpDefaultTGCByName).
      specField(c, 'targetReference') == null,
  );
}
