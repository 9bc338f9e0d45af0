/**
 * The Envoy Gateway facts the envoy-gateway mutator relies on, as rows of the compatibility table.
 * The proxy Deployment is generated in the cluster, so no written pod shows them: the rows carry
 * no pod check, and the decision holds them.
 */
import type { Constraint } from '../../compat/constraint.ts';
import { DEFAULT_SPEC } from './controllerConfig.ts';
import { MERGE_TYPE } from './merge.ts';
import { HEALTH_CHECK_FAILURE_DELAY } from './readiness.ts';

export const ENVOY_GATEWAY_COMPATIBILITY: readonly Constraint[] = [
  {
    id: 'eg-shutdown-config',
    product: 'Envoy Gateway',
    setting: 'EnvoyProxy `spec.shutdown.minDrainDuration` and `spec.shutdown.drainTimeout`',
    versions: 'v1.0.0+ (v0.6.0 has no `shutdown`)',
    breaks:
      'an older CRD does not know the fields: the EnvoyProxy is refused or the fields are dropped',
    sources: [
      'envoyproxy/gateway api/v1alpha1/envoyproxy_types.go@v1.0.0 (ShutdownConfig)',
      'envoyproxy/gateway api/v1alpha1/envoyproxy_types.go@v1.9.0',
    ],
    enforcedBy:
      'the envoy-gateway mutator (fn/mutators/envoy-gateway/; test/mutators/envoy-gateway and ' +
      'the envoy-gateway-* golden cases)',
  },
  {
    id: 'eg-shutdown-defaults',
    product: 'Envoy Gateway',
    setting: 'defaults `minDrainDuration` 10 s, `drainTimeout` 60 s',
    versions: 'v1.2.0+ (5 s and 600 s at v1.0.0 and v1.1.0)',
    breaks:
      'behind a load balancer that keeps sending for longer, ' +
      'the proxy may exit at zero connections after 10 s, and at 60 s at the latest, ' +
      'while new connections still arrive',
    sources: [
      'envoyproxy/gateway internal/cmd/envoy.go@v1.2.0 and @v1.9.0 (--drain-timeout, ' +
        '--min-drain-duration)',
      'envoyproxy/gateway internal/cmd/envoy.go@v1.0.0',
    ],
    enforcedBy:
      'the envoy-gateway mutator (fn/mutators/envoy-gateway/; test/mutators/envoy-gateway and ' +
      'the envoy-gateway-* golden cases)',
  },
  {
    id: 'eg-min-drain-exit-on-zero',
    product: 'Envoy Gateway',
    setting:
      'the shutdown manager ends the drain once `minDrainDuration` has passed and no ' +
      'connection is open, or at `drainTimeout`',
    versions: 'v1.0.0+',
    breaks:
      "`minDrainDuration` below the load balancer's window lets Envoy exit while the load " +
      'balancer still sends; `drainTimeout` below it plus the longest request cuts requests',
    sources: [
      'envoyproxy/gateway internal/cmd/envoy/shutdown_manager.go@v1.0.0 and @v1.9.0 (Shutdown)',
    ],
    enforcedBy:
      'the envoy-gateway mutator (fn/mutators/envoy-gateway/; test/mutators/envoy-gateway and ' +
      'the envoy-gateway-* golden cases)',
  },
  {
    id: 'eg-duration-text',
    product: 'Envoy Gateway',
    setting: '`spec.shutdown` durations are Go duration text (`"180s"`)',
    versions:
      'v1.0.0+; from v1.5.0 the CRD also checks `^([0-9]{1,5}(h|m|s|ms)){1,4}$` (gwapiv1.Duration)',
    breaks:
      'a bare number is refused by the CRD from v1.5.0; before, ' +
      'it is no duration Envoy Gateway can read (metav1.Duration parses Go duration text ' +
      'only)',
    sources: [
      'envoyproxy/gateway api/v1alpha1/envoyproxy_types.go@v1.5.0 (gwapiv1.Duration)',
      'envoyproxy/gateway internal/infrastructure/kubernetes/proxy/resource.go@v1.9.0 ' +
        '(time.ParseDuration)',
    ],
    enforcedBy:
      'the envoy-gateway mutator (fn/mutators/envoy-gateway/; test/mutators/envoy-gateway and ' +
      'the envoy-gateway-* golden cases)',
  },
  {
    id: 'eg-grace-from-drain-timeout',
    product: 'Envoy Gateway',
    setting:
      'proxy pod `terminationGracePeriodSeconds` = `drainTimeout` + 300 (360 without ' +
      'one); no EnvoyProxy field, only `envoyDeployment.patch` / `envoyDaemonSet.patch` ' +
      'can change it',
    versions: 'v1.2.0+ (900 without a drainTimeout at v1.0.0 and v1.1.0)',
    breaks:
      "a patched grace below `drainTimeout` + 10 s (the Envoy preStop's --ready-timeout) " +
      'kills Envoy mid-drain',
    sources: [
      'envoyproxy/gateway ' +
        'internal/infrastructure/kubernetes/proxy/resource_provider.go@v1.2.0 and @v1.9.0 ' +
        '(expectedTerminationGracePeriodSeconds, MergeWithPatch)',
      'envoyproxy/gateway internal/infrastructure/kubernetes/proxy/resource.go@v1.9.0 ' +
        '(expectedShutdownManagerArgs)',
      'envoyproxy/gateway api/v1alpha1/shared_types.go@v1.9.0 (KubernetesPodSpec)',
    ],
    enforcedBy:
      'the envoy-gateway mutator (fn/mutators/envoy-gateway/; test/mutators/envoy-gateway and ' +
      'the envoy-gateway-* golden cases)',
  },
  {
    id: 'eg-health-check-failure-delay',
    product: 'Envoy Gateway',
    setting:
      '`spec.shutdown.healthCheckFailureDelay`: readiness fails that long after the drain starts ' +
      '(the listeners drain without closing meanwhile); the readiness probe runs every 5 s, ' +
      'failure threshold 1',
    versions:
      `v${HEALTH_CHECK_FAILURE_DELAY.since}+ (absent at v1.8.3); ` +
      'the probe the same from v1.5.9',
    breaks:
      'the load balancer keeps sending for the delay plus its own window, ' +
      'so `minDrainDuration` must cover both; behind node targets with Local it must reach W, ' +
      'or the node drops what the load balancer still sends; older CRDs do not know the field',
    sources: [
      'envoyproxy/gateway api/v1alpha1/envoyproxy_types.go@v1.9.0',
      'envoyproxy/gateway internal/cmd/envoy/shutdown_manager.go@v1.9.0',
      'envoyproxy/gateway internal/infrastructure/kubernetes/proxy/resource.go@v1.5.9 and ' +
        '@v1.9.0 (ReadinessProbe)',
    ],
    enforcedBy:
      'the envoy-gateway mutator (fn/mutators/envoy-gateway/; test/mutators/envoy-gateway and ' +
      'the envoy-gateway-* golden cases)',
  },
  {
    id: 'eg-envoy-service-lb',
    product: 'Envoy Gateway',
    setting:
      'the proxy Service comes from EnvoyProxy `spec.provider.kubernetes.envoyService` ' +
      '(annotations, type, externalTrafficPolicy, then its `patch` merged over the Service), ' +
      'default `LoadBalancer` with `Local`',
    versions: 'v1.0.0+',
    breaks:
      'load-balancer annotations anywhere else never reach the generated Service, ' +
      'so the drain window must be read there',
    sources: [
      'envoyproxy/gateway api/v1alpha1/shared_types.go@v1.0.0 and @v1.9.0 (KubernetesServiceSpec)',
      'envoyproxy/gateway api/v1alpha1/kubernetes_helpers.go@v1.0.0 and @v1.9.0 ' +
        '(DefaultKubernetesService)',
      'envoyproxy/gateway internal/infrastructure/kubernetes/proxy/resource_provider.go@v1.9.0 ' +
        '(Service: utils.MergeWithPatch with envoyService.Patch, applied last)',
    ],
    enforcedBy:
      'the envoy-gateway mutator (fn/mutators/envoy-gateway/; test/mutators/envoy-gateway and ' +
      'the envoy-gateway-* golden cases)',
  },
  {
    id: 'eg-gateway-parameters-ref',
    product: 'Envoy Gateway',
    setting:
      'Gateway `spec.infrastructure.parametersRef` to an EnvoyProxy in its namespace, ' +
      'over the GatewayClass `spec.parametersRef`',
    versions:
      "v1.1.0+; replaces the class's EnvoyProxy entirely unless its `mergeType` " +
      `(v${MERGE_TYPE.since}+) ` +
      'says to merge',
    breaks:
      "before v1.1.0 the Gateway's ref is ignored and the class's EnvoyProxy applies; " +
      "settings on the class's EnvoyProxy do not reach a Gateway with its own",
    sources: [
      'envoyproxy/gateway internal/gatewayapi/contexts.go@v1.1.0 and @v1.9.0 (attachEnvoyProxy)',
      'envoyproxy/gateway api/v1alpha1/envoyproxy_types.go@v1.8.0 (mergeType)',
    ],
    enforcedBy:
      'the envoy-gateway mutator (fn/mutators/envoy-gateway/; test/mutators/envoy-gateway and ' +
      'the envoy-gateway-* golden cases)',
  },
  {
    id: 'eg-envoyproxy-merge-type',
    product: 'Envoy Gateway',
    setting:
      "EnvoyProxy `spec.mergeType` `StrategicMerge` / `JSONMerge`: the Gateway's EnvoyProxy is " +
      "merged over its class's, and that over the controller's default spec (the class's " +
      "mergeType, else the Gateway's, decides the second step)",
    versions:
      `v${MERGE_TYPE.since}+; unset means Replace; ` +
      `before v${MERGE_TYPE.since} the field does not exist`,
    breaks:
      "a shutdown value on the Gateway's EnvoyProxy wins over the class's: planned on its own " +
      "spec, it can undercut the class's, and the load balancer is the merged envoyService's",
    sources: [
      'envoyproxy/gateway api/v1alpha1/envoyproxy_types.go@v1.8.0 and @v1.9.0 (MergeType)',
      'envoyproxy/gateway internal/gatewayapi/envoyproxy_merge.go@v1.8.0 and @v1.9.0 ' +
        '(MergeEnvoyProxyConfigs)',
      'envoyproxy/gateway internal/utils/merge.go@v1.9.0 (Merge)',
    ],
    enforcedBy:
      'the envoy-gateway mutator (fn/mutators/envoy-gateway/effective.ts; ' +
      'test/mutators/envoy-gateway/merge.test.ts and the envoy-gateway-1.9.0-gateway-merge* ' +
      'golden cases)',
  },
  {
    id: 'eg-default-envoyproxy-spec',
    product: 'Envoy Gateway',
    setting:
      'default EnvoyProxy spec in the controller config (`EnvoyGateway.envoyProxy`, ' +
      "the gateway-helm chart's `config.envoyGateway.envoyProxy`)",
    versions: `v${DEFAULT_SPEC.since}+`,
    breaks:
      'older controllers do not read it: only a GatewayClass or Gateway ' +
      'EnvoyProxy sets shutdown there; the config decoder ignores unknown fields, so an ' +
      '`envoyProxy` added for an older controller is dropped without a word (kube-graceful ' +
      'edits the default spec only where the config already has one, inside the ' +
      "ConfigMap's `envoy-gateway.yaml` text, and not where the chart's labels name a release " +
      'before v1.7.0: the v1.6 chart renders the field, its controller drops it)',
    sources: [
      'envoyproxy/gateway api/v1alpha1/envoygateway_types.go@v1.7.0 and @v1.9.0 (EnvoyProxy; ' +
        'absent @v1.6.0 and @v1.6.7)',
      'envoyproxy/gateway charts/gateway-helm/templates/envoy-gateway-config.yaml@v1.9.0',
      'envoyproxy/gateway internal/envoygateway/config/decoder.go@v1.9.0 (DecodeBytes, ' +
        'UniversalDeserializer)',
    ],
    enforcedBy:
      'the envoy-gateway mutator (fn/mutators/envoy-gateway/; test/mutators/envoy-gateway and ' +
      'the envoy-gateway-* golden cases)',
  },
];
