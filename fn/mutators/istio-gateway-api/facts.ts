/**
 * What istiod does with a Gateway API `Gateway` of an Istio class, read in istio/istio at the tags
 * named (docs/mutators/istio-gateway-api.md). Every number and name the pure logic decides on is
 * here, once.
 *
 * The deployment controller lives in pilot/pkg/config/kube/gateway/deploymentcontroller.go up to
 * 1.29 and in pilot/pkg/config/kube/gatewaycommon/deploymentcontroller.go from 1.30.
 */
import { reached } from '../../facts/versionGates.ts';
import type { VersionGate } from '../../facts/versionGates.ts';

/** An Istio minor version, as facts are stated. */
export interface MinorVersion {
  readonly major: number;
  readonly minor: number;
}

/**
 * `spec.infrastructure.parametersRef` to a ConfigMap in the Gateway's namespace, and class-defaults
 * ConfigMaps, are read from 1.26: `render()` collects both as overlays
 * (deploymentcontroller.go@1.26.0, @1.26.8, @1.28.10;
 * gatewaycommon/deploymentcontroller.go@1.30.3); neither exists in deploymentcontroller.go@1.25.5
 * (no `parametersRef`, no `defaults-for-class`).
 */
export const OVERLAYS = {
  product: 'Istio',
  since: '1.26',
  source:
    'istio pilot/pkg/config/kube/gateway/deploymentcontroller.go@1.26.0 (parametersRef and ' +
    'gatewayClassDefaults overlays; absent @1.25.5)',
} as const satisfies VersionGate;

/**
 * The label of a class-defaults ConfigMap; its value is the GatewayClass name
 * (`gatewayClassDefaults` in pilot/pkg/config/kube/gateway/conversion.go@1.26.8,
 * `GatewayClassDefaults` in gatewaycommon/gateway_utils.go@1.30.3). istiod lists it only in its
 * own namespace (`d.configMaps.List(d.systemNamespace, …)`, deploymentcontroller.go@1.26.8) and
 * takes the oldest when several match (`controllers.OldestObject`).
 */
export const CLASS_DEFAULTS_LABEL = 'gateway.istio.io/defaults-for-class';

/** The class istiod deploys with the `kube-gateway` template by default
 * (`PILOT_GATEWAY_API_DEFAULT_GATEWAYCLASS_NAME`, pilot/pkg/features; `getClassInfos` in
 * deploymentcontroller.go@1.26.8). */
export const DEFAULT_ISTIO_GATEWAY_CLASS = 'istio';

/** The controller name of that class (`ManagedGatewayController`), for GatewayClasses of another
 * name that istiod also deploys. */
export const ISTIO_GATEWAY_CONTROLLER = 'istio.io/gateway-controller';

/**
 * The readiness probe the kube-gateway template gives istio-proxy: GET /healthz/ready on 15021
 * every 15 s, failure threshold 4 (kube-gateway.yaml@1.22.8, @1.26.8, @1.28.10, @1.30.3).
 * pilot-agent fails it from SIGTERM on (its probe's context is cancelled on the signal:
 * pilot/cmd/pilot-agent/status/ready/probe.go isEnvoyReady and pilot/cmd/pilot-agent/app/cmd.go
 * WaitSignalFunc, @1.22.8 … @1.30.3); an overlay may change either number.
 */
export const KUBE_GATEWAY_READINESS_PROBE = { periodSeconds: 15, failureThreshold: 4 } as const;

/** The proxy container of the generated Deployment
 * (manifests/charts/istio-control/istio-discovery/files/kube-gateway.yaml@1.26.8, @1.30.3). */
export const PROXY_CONTAINER = 'istio-proxy';

/** The annotation pilot-agent reads its ProxyConfig from
 * (pilot/cmd/pilot-agent/config/config.go@1.26.8 `ConstructProxyConfig`). */
export const PROXY_CONFIG_ANNOTATION = 'proxy.istio.io/config';

/**
 * The annotation that chooses the generated Service's type (default LoadBalancer for the `istio`
 * class): `annotation.NetworkingServiceType` read from the Gateway's own metadata annotations in
 * `configureIstioGateway` (deploymentcontroller.go@1.26.8).
 */
export const SERVICE_TYPE_ANNOTATION = 'networking.istio.io/service-type';

/** Annotations the kube-gateway template leaves off every generated object (`omit …`,
 * kube-gateway.yaml@1.26.8, @1.30.3). */
export const TEMPLATE_OMITTED_ANNOTATIONS: readonly string[] = [
  'kubectl.kubernetes.io/last-applied-configuration',
  'gateway.istio.io/name-override',
  'gateway.istio.io/service-account',
  'gateway.istio.io/controller-version',
];

/** Returns `Istio 1.30 (flag --istio-version)`, how messages name the version planned for. */
export function istioVersionLabel(version: MinorVersion & { readonly source: string }): string {
  return `Istio ${version.major}.${version.minor} (${version.source})`;
}

/** Returns true when the Istio release planned for has the gate's behaviour. */
export function istioReached(gate: VersionGate, version: MinorVersion): boolean {
  return reached(gate, `${version.major}.${version.minor}`);
}

/**
 * `spec.infrastructure` (and its `parametersRef`) is in the standard-channel Gateway CRD from
 * Gateway API v1.2.0 (config/crd/standard/gateway.networking.k8s.io_gateways.yaml@v1.2.0; the
 * field is `<gateway:experimental>` in apis/v1/gateway_types.go@v1.0.0 and @v1.1.0). Against an
 * older standard CRD the API server prunes the unknown field without a word, and istiod never sees
 * the parameters ConfigMap it names.
 */
export const INFRASTRUCTURE_STANDARD_SINCE = 'Gateway API v1.2.0';
