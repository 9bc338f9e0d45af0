/**
 * What Envoy Gateway does with an EnvoyProxy's shutdown settings, read in envoyproxy/gateway at
 * the tags named next to each fact. The proxy Deployment is generated in the cluster from these;
 * nothing here is rendered by a chart.
 */

/** spec.controllerName of a GatewayClass Envoy Gateway serves
 * (examples/kubernetes/quickstart.yaml@v1.9.0; the chart's
 * config.envoyGateway.gateway.controllerName). */
export const ENVOY_GATEWAY_CONTROLLER = 'gateway.envoyproxy.io/gatewayclass-controller';

/** Group and kind a parametersRef must carry to name an EnvoyProxy
 * (api/v1alpha1/envoyproxy_types.go@v1.9.0, internal/gatewayapi/contexts.go@v1.9.0
 * attachEnvoyProxy). */
export const ENVOY_PROXY_GROUP = 'gateway.envoyproxy.io';
export const ENVOY_PROXY_KIND = 'EnvoyProxy';

/**
 * Shutdown defaults when spec.shutdown leaves a field out: the shutdown manager's flag defaults
 * (internal/cmd/envoy.go@v1.2.0 … @v1.9.0: --drain-timeout 60s, --min-drain-duration 10s;
 * @v1.0.0 and @v1.1.0: 600s and 5s).
 */
export const DEFAULT_DRAIN_TIMEOUT_SECONDS = 60;
export const DEFAULT_MIN_DRAIN_SECONDS = 10;

/**
 * The grace period Envoy Gateway writes on the proxy pod: drainTimeout + 300 s, or 360 s with no
 * drainTimeout (internal/infrastructure/kubernetes/proxy/resource_provider.go@v1.9.0
 * expectedTerminationGracePeriodSeconds; the same since v1.2.0, 900 s default at v1.0.0/v1.1.0).
 * EnvoyProxy has no field for it (KubernetesPodSpec in api/v1alpha1/shared_types.go@v1.9.0);
 * only envoyDeployment.patch / envoyDaemonSet.patch can change it, applied after
 * (utils.MergeWithPatch in resource_provider.go@v1.9.0).
 */
export const GRACE_OVER_DRAIN_TIMEOUT_SECONDS = 300;

/**
 * The Envoy container's preStop waits for the shutdown manager up to --ready-timeout =
 * drainTimeout + 10 s (internal/infrastructure/kubernetes/proxy/resource.go@v1.9.0
 * expectedShutdownManagerArgs): a pod grace below that cuts the drain short.
 */
export const READY_TIMEOUT_OVER_DRAIN_TIMEOUT_SECONDS = 10;

/**
 * The generated Service's defaults when envoyService leaves them out: type LoadBalancer,
 * externalTrafficPolicy Local (api/v1alpha1/kubernetes_helpers.go@v1.9.0 DefaultKubernetesService,
 * the same at v1.2.0).
 */
export const DEFAULT_SERVICE_TYPE = 'LoadBalancer';
export const DEFAULT_EXTERNAL_TRAFFIC_POLICY = 'Local';

/**
 * The largest whole-seconds figure one component of a Gateway API Duration may carry
 * (`^([0-9]{1,5}(h|m|s|ms)){1,4}$`, the type of ShutdownConfig's fields from v1.5.0:
 * api/v1alpha1/envoyproxy_types.go@v1.5.0 uses gwapiv1.Duration; before, metav1.Duration).
 */
export const MAX_DURATION_COMPONENT = 99_999;
