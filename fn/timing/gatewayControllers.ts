/**
 * Gateway API implementations whose data plane runs in the cluster: a route from their Gateway
 * reaches the pods from proxy pods that follow the Service's endpoints, so the in-cluster window
 * holds for the pods behind it (the proxies' own load balancer is planned with the proxies). Any
 * other Gateway, or one whose class the input does not show, may be a cloud load balancer sending
 * to the pods directly: not modelled.
 */

/** GatewayClass controllerNames of in-cluster proxies, each with where it is defined. */
const IN_CLUSTER_CONTROLLERS: Readonly<Record<string, string>> = {
  // pilot/pkg/features/pilot.go@1.22.8 … @1.30.3 (PILOT_GATEWAY_API_CONTROLLER_NAME)
  'istio.io/gateway-controller': 'Istio',
  // api/v1alpha1/envoygateway_types.go@v1.9.0 (GatewayControllerName)
  'gateway.envoyproxy.io/gatewayclass-controller': 'Envoy Gateway',
  // pkg/provider/kubernetes/gateway/kubernetes.go@v3.7.9 (controllerName)
  'traefik.io/gateway-controller': 'Traefik',
  // cmd/contour/gatewayprovisioner.go@v1.33.6 (gatewayControllerName)
  'projectcontour.io/gateway-controller': 'Contour',
};

/**
 * GatewayClasses an implementation creates itself, so that a chart shows only the name: Istio's
 * `istio` (pilot/pkg/features/pilot.go@1.22.8 … @1.30.3,
 * PILOT_GATEWAY_API_DEFAULT_GATEWAYCLASS_NAME).
 */
const BUILT_IN_CLASSES: Readonly<Record<string, string>> = {
  istio: 'istio.io/gateway-controller',
};

/**
 * Returns the in-cluster implementation behind a Gateway's class, from the class's controllerName
 * (`controller`, where the GatewayClass is in the input) or a built-in class name; undefined when
 * neither is known.
 */
export function inClusterImplementation(
  className: unknown,
  controller: unknown,
): string | undefined {
  const name =
    typeof controller === 'string'
      ? controller
      : typeof className === 'string' && Object.hasOwn(BUILT_IN_CLASSES, className)
        ? BUILT_IN_CLASSES[className]
        : undefined;
  return name !== undefined && Object.hasOwn(IN_CLUSTER_CONTROLLERS, name)
    ? IN_CLUSTER_CONTROLLERS[name]
    : undefined;
}
