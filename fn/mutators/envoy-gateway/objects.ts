/**
 * The parts of Envoy Gateway's objects the shutdown logic reads, as plain parsed YAML (every field
 * optional: a manifest may leave anything out). Field names from api/v1alpha1/envoyproxy_types.go
 * and shared_types.go@v1.9.0, and the Gateway API v1 types.
 */
import type { FieldPath } from '../../core/fieldPath.ts';
import type { KubeObject } from '../../core/kubeObject.ts';
import { ENVOY_PROXY_GROUP, ENVOY_PROXY_KIND } from './facts.ts';

interface ShutdownConfig {
  drainTimeout?: unknown;
  minDrainDuration?: unknown;
  /** v1.9.0+: Envoy's health checks fail this long after the drain starts
   * (internal/cmd/envoy/shutdown_manager.go@v1.9.0). */
  healthCheckFailureDelay?: unknown;
}

interface PatchSpec {
  type?: unknown;
  value?: unknown;
}

interface EnvoyServiceSpec {
  annotations?: Record<string, unknown> | null;
  type?: unknown;
  externalTrafficPolicy?: unknown;
  loadBalancerClass?: unknown;
}

/** EnvoyProxy.spec, or the default spec in the EnvoyGateway config (field `envoyProxy`,
 * v1.7.0+). */
export interface EnvoyProxySpec {
  shutdown?: ShutdownConfig | null;
  mergeType?: unknown;
  provider?: {
    type?: unknown;
    kubernetes?: {
      envoyService?: EnvoyServiceSpec | null;
      envoyDeployment?: { patch?: PatchSpec | null } | null;
      envoyDaemonSet?: { patch?: PatchSpec | null } | null;
    } | null;
  } | null;
}

/** Where an EnvoyProxy spec sits: the object it is in and the path of the spec from that object's
 * root. */
export interface SpecLocation {
  /** `EnvoyProxy ns/name`, or `EnvoyGateway config in ConfigMap ns/name`: for messages. */
  readonly label: string;
  readonly spec: EnvoyProxySpec;
  /** ['spec'] for an EnvoyProxy; ['envoyProxy'] inside the EnvoyGateway config document. */
  readonly specPath: FieldPath;
}

export interface ParametersRef {
  group?: unknown;
  kind?: unknown;
  name?: unknown;
  namespace?: unknown;
}

export function isKind(object: KubeObject, kind: string, group: string): boolean {
  return (
    object.kind === kind &&
    typeof object.apiVersion === 'string' &&
    object.apiVersion.startsWith(`${group}/`)
  );
}

/** Returns the ref when it names an EnvoyProxy (group and kind as attachEnvoyProxy checks them). */
export function envoyProxyRef(ref: unknown): ParametersRef | undefined {
  if (ref === null || typeof ref !== 'object') return undefined;
  const r = ref as ParametersRef;
  return r.group === ENVOY_PROXY_GROUP && r.kind === ENVOY_PROXY_KIND && typeof r.name === 'string'
    ? r
    : undefined;
}
