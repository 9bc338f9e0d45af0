/**
 * Which EnvoyProxy specs in the stream the shutdown settings go to, and what to tell the user
 * about the Gateways whose proxy settings are not in the stream.
 *
 * How Envoy Gateway picks a Gateway's EnvoyProxy (internal/gatewayapi/contexts.go@v1.9.0
 * attachEnvoyProxy; @v1.1.0 the same order without merging):
 * 1. Gateway `spec.infrastructure.parametersRef` (from v1.1.0; an EnvoyProxy in the Gateway's
 *    namespace; ignored when the class merges Gateways, and when the EnvoyProxy is missing the
 *    class's applies),
 * 2. the GatewayClass `spec.parametersRef` (an EnvoyProxy in the ref's namespace; from v1.7.0 a
 *    ref without one means `default`: internal/provider/kubernetes/controller.go@v1.7.0
 *    processGatewayClassParamsRef; at v1.0.0 the EnvoyProxy had to be in Envoy Gateway's own
 *    namespace: controller.go@v1.0.0 processParamsRef),
 * 3. the EnvoyGateway config's default `envoyProxy` spec (from v1.7.0:
 *    api/v1alpha1/envoygateway_types.go@v1.7.0).
 * A more specific EnvoyProxy replaces the less specific ones entirely unless its `mergeType` says
 * otherwise (mergeType from v1.8.0: api/v1alpha1/envoyproxy_types.go@v1.8.0; before it, always
 * replace).
 */
import { kubeObjectRef } from '../../timing/kubeObject.ts';
import type { KubeObject } from '../../core/kubeObject.ts';
import {
  DEFAULT_DRAIN_TIMEOUT_SECONDS,
  DEFAULT_MIN_DRAIN_SECONDS,
  ENVOY_GATEWAY_CONTROLLER,
  ENVOY_PROXY_GROUP,
  ENVOY_PROXY_KIND,
} from './facts.ts';
import { merges } from './merge.ts';
import { envoyProxyRef, isKind } from './objects.ts';
import type { EnvoyProxySpec, ParametersRef, SpecLocation } from './objects.ts';
import type { EnvoyGatewayFinding } from './outcome.ts';
import { scalarText } from '../../core/scalarText.ts';

const GATEWAY_API = 'gateway.networking.k8s.io';

// The fields read here, typed as gateway.networking.k8s.io/v1 declares them. Parsed YAML may hold
// anything there: a value of another type names no class and no controller, and reads as absent.
interface GatewayClassSpec {
  controllerName?: string;
  parametersRef?: unknown;
}
interface GatewaySpec {
  gatewayClassName?: string;
  infrastructure?: { parametersRef?: unknown } | null;
}

/** An EnvoyProxy spec to plan, and the object it lives in. */
export interface ShutdownTarget {
  readonly location: SpecLocation;
  readonly object: KubeObject;
}

export interface Attachments {
  /** Every EnvoyProxy in the stream (any of them may serve a class or Gateway outside it), then the
   * default spec when given. */
  readonly targets: readonly ShutdownTarget[];
  /** Per Gateway: about its EnvoyProxy being absent, or replacing the class's. */
  readonly findings: ReadonlyArray<{
    readonly gateway: KubeObject;
    readonly finding: EnvoyGatewayFinding;
  }>;
}

/** The EnvoyProxy spec of an `EnvoyProxy` object. */
export function envoyProxyLocation(object: KubeObject): SpecLocation {
  return {
    label: `EnvoyProxy ${kubeObjectRef(object)}`,
    spec: (object.spec ?? {}) as EnvoyProxySpec,
    specPath: ['spec'],
  };
}

/**
 * The default EnvoyProxy spec in the controller's config: the ConfigMap the gateway-helm chart
 * renders (`envoy-gateway-config`, key `envoy-gateway.yaml`,
 * charts/gateway-helm/templates/envoy-gateway-config.yaml@v1.9.0) holds an `EnvoyGateway` document;
 * `config` is that document parsed. Paths are from its root.
 */
export function defaultSpecLocation(
  configMap: KubeObject,
  config: unknown,
): SpecLocation | undefined {
  if (config === null || typeof config !== 'object') return undefined;
  const document = config as { kind?: unknown; envoyProxy?: unknown };
  if (
    document.kind !== 'EnvoyGateway' ||
    document.envoyProxy === null ||
    typeof document.envoyProxy !== 'object'
  )
    return undefined;
  return {
    label:
      `the default EnvoyProxy spec (envoyProxy) of the EnvoyGateway config ` +
      `in ConfigMap ${kubeObjectRef(configMap)}`,
    spec: document.envoyProxy,
    specPath: ['envoyProxy'],
  };
}

/** What is known of Envoy Gateway's own config (./controllerConfig.ts) besides its default spec. */
export interface ControllerConfigFacts {
  /** The controller names Envoy Gateway answers to (its config's gateway.controllerName; the
   * default one when not given). */
  readonly controllerNames?: readonly string[];
  /** True when the config is in the input: then a missing default spec is known to be missing. */
  readonly controllerConfigSeen?: boolean;
  /** The release the chart's labels name, when they name one: before v1.8.0 there is no merge. */
  readonly release?: string;
}

/** A Gateway of an Envoy Gateway class, with the EnvoyProxy refs of both. */
interface EnvoyGatewayUse {
  readonly gateway: KubeObject;
  readonly gatewayClass: KubeObject;
  /** Gateway `spec.infrastructure.parametersRef`, when it names an EnvoyProxy. */
  readonly gatewayRef?: ParametersRef;
  /** GatewayClass `spec.parametersRef`, when it names an EnvoyProxy. */
  readonly classRef?: ParametersRef;
}

/** Envoy Gateway's objects in a stream, and how they name each other. */
export interface EnvoyGatewayIndex {
  readonly proxies: readonly KubeObject[];
  readonly gateways: readonly EnvoyGatewayUse[];
  /** The EnvoyProxy a ref names in `namespace`, if it is in the stream. */
  find(namespace: unknown, name: unknown): KubeObject | undefined;
  /** The EnvoyProxy the class's ref names (in the ref's namespace, `default` when none). */
  classProxy(use: EnvoyGatewayUse): KubeObject | undefined;
  /** The EnvoyProxy the Gateway's own ref names (in the Gateway's namespace). */
  gatewayProxy(use: EnvoyGatewayUse): KubeObject | undefined;
}

/**
 * Indexes the GatewayClasses of Envoy Gateway's controllers (`controllerNames`, the default one
 * when not given), their Gateways and the EnvoyProxies in `objects`.
 */
export function indexEnvoyGateway(
  objects: readonly KubeObject[],
  controllerNames: readonly string[] = [ENVOY_GATEWAY_CONTROLLER],
): EnvoyGatewayIndex {
  const proxies = objects.filter((o) => isKind(o, ENVOY_PROXY_KIND, ENVOY_PROXY_GROUP));
  // A rendered object without a namespace lands in the one `helm -n` / kubectl gives it, which the
  // stream does not say: it is taken to be the one the ref means.
  const find = (namespace: unknown, name: unknown) =>
    proxies.find(
      (p) =>
        p.metadata?.name === name &&
        (p.metadata?.namespace == null || p.metadata.namespace === namespace),
    );
  const classes = new Map<string, KubeObject>();
  for (const o of objects) {
    const controllerName = (o.spec as GatewayClassSpec | undefined)?.controllerName;
    if (
      isKind(o, 'GatewayClass', GATEWAY_API) &&
      controllerName !== undefined &&
      controllerNames.includes(controllerName) &&
      typeof o.metadata?.name === 'string'
    ) {
      classes.set(o.metadata.name, o);
    }
  }
  const gateways: EnvoyGatewayUse[] = [];
  for (const gateway of objects.filter((o) => isKind(o, 'Gateway', GATEWAY_API))) {
    const spec = gateway.spec as GatewaySpec | undefined;
    const gatewayClass =
      spec?.gatewayClassName === undefined ? undefined : classes.get(spec.gatewayClassName);
    if (gatewayClass === undefined) continue;
    const gatewayRef = envoyProxyRef(spec?.infrastructure?.parametersRef);
    const classRef = envoyProxyRef((gatewayClass.spec as GatewayClassSpec).parametersRef);
    gateways.push({
      gateway,
      gatewayClass,
      ...(gatewayRef ? { gatewayRef } : {}),
      ...(classRef ? { classRef } : {}),
    });
  }
  return {
    proxies,
    gateways,
    find,
    classProxy: (use) =>
      use.classRef && find(use.classRef.namespace ?? 'default', use.classRef.name),
    gatewayProxy: (use) =>
      use.gatewayRef && find(use.gateway.metadata?.namespace, use.gatewayRef.name),
  };
}

/**
 * Returns the specs to plan and the findings about Gateways of an Envoy Gateway class in
 * `objects`.
 */
export function resolveAttachments(
  objects: readonly KubeObject[],
  defaultSpec?: ShutdownTarget,
  facts: ControllerConfigFacts = {},
): Attachments {
  const index = indexEnvoyGateway(objects, facts.controllerNames);
  const findings: Array<{ gateway: KubeObject; finding: EnvoyGatewayFinding }> = [];
  for (const use of index.gateways) {
    const { gateway, gatewayRef, classRef } = use;
    const spec = gateway.spec as GatewaySpec | undefined;
    const who = `Gateway ${kubeObjectRef(gateway)} (class ${String(spec?.gatewayClassName)})`;
    const classProxy = index.classProxy(use);
    if (gatewayRef !== undefined) {
      const own = index.gatewayProxy(use);
      if (own === undefined) {
        findings.push({
          gateway,
          finding: notInStream(
            who,
            `spec.infrastructure.parametersRef names EnvoyProxy ${String(gatewayRef.name)}`,
            ['spec', 'infrastructure', 'parametersRef'],
          ),
        });
      } else {
        if (classRef !== undefined && !merges(own.spec as EnvoyProxySpec, facts.release)) {
          findings.push({
            gateway,
            finding: replacesClass(who, own, classRef.namespace, classRef.name),
          });
        }
        continue;
      }
    }
    if (classRef !== undefined) {
      if (classProxy === undefined) {
        const namespace = classRef.namespace ? `${scalarText(classRef.namespace)}/` : '';
        findings.push({
          gateway,
          finding: notInStream(
            who,
            `its GatewayClass's spec.parametersRef names EnvoyProxy ` +
              `${namespace}${scalarText(classRef.name)}`,
          ),
        });
      }
      continue;
    }
    if (gatewayRef === undefined && defaultSpec === undefined)
      findings.push({
        gateway,
        finding: noEnvoyProxy(who, facts.controllerConfigSeen === true),
      });
  }
  const targets: ShutdownTarget[] = index.proxies.map((object) => ({
    location: envoyProxyLocation(object),
    object,
  }));
  if (defaultSpec !== undefined) targets.push(defaultSpec);
  return { targets, findings };
}

function notInStream(who: string, what: string, path?: readonly string[]): EnvoyGatewayFinding {
  return {
    severity: 'warning',
    code: 'EG_ENVOYPROXY_NOT_IN_STREAM',
    message:
      `${who}: ${what}, which is not in this input, so its shutdown settings ` +
      `cannot be checked or set here. ` +
      (`Render it together with the Gateway, or set its spec.shutdown ` +
        `(minDrainDuration, drainTimeout) where it is kept.`),
    ...(path ? { path } : {}),
  };
}

function replacesClass(
  who: string,
  own: KubeObject,
  classNamespace: unknown,
  className: unknown,
): EnvoyGatewayFinding {
  const namespace = classNamespace ? `${scalarText(classNamespace)}/` : '';
  return {
    severity: 'info',
    code: 'EG_GATEWAY_PROXY_REPLACES_CLASS',
    message:
      `${who} uses EnvoyProxy ${kubeObjectRef(own)} through ` +
      `spec.infrastructure.parametersRef; without mergeType it replaces the ` +
      `class's EnvoyProxy ${namespace}${scalarText(className)} entirely ` +
      (`(internal/gatewayapi/contexts.go@v1.9.0), so that one's shutdown and ` +
        `envoyService settings do not apply to this Gateway; `) +
      `its own are planned.`,
  };
}

/**
 * A Gateway of an Envoy Gateway class with no EnvoyProxy from either ref. With the controller's
 * config in the input and no default spec in it, its proxies get the shutdown manager's defaults;
 * without the config, a default spec there (v1.7.0+) may still cover it, and the message says so.
 */
function noEnvoyProxy(who: string, controllerConfigSeen: boolean): EnvoyGatewayFinding {
  return {
    severity: 'warning',
    code: 'EG_NO_ENVOYPROXY',
    message:
      `${who}: neither the Gateway (spec.infrastructure.parametersRef) nor its GatewayClass ` +
      `(spec.parametersRef) points at an EnvoyProxy` +
      (controllerConfigSeen
        ? `, and Envoy Gateway's config in this input has no default EnvoyProxy spec ` +
          `(envoyProxy), so its proxies drain with Envoy Gateway's defaults `
        : `, so unless Envoy Gateway's own config (not in this input) sets a default EnvoyProxy ` +
          `spec (its envoyProxy field, v1.7.0+: api/v1alpha1/envoygateway_types.go@v1.7.0), its ` +
          `proxies drain with Envoy Gateway's defaults `) +
      `(minDrainDuration ${DEFAULT_MIN_DRAIN_SECONDS} s, drainTimeout ` +
      `${DEFAULT_DRAIN_TIMEOUT_SECONDS} s: internal/cmd/envoy.go@v1.9.0), which do not cover a ` +
      `load balancer that keeps sending for longer. Add an EnvoyProxy (apiVersion ` +
      `gateway.envoyproxy.io/v1alpha1) with spec.shutdown and point the GatewayClass's ` +
      `spec.parametersRef (group gateway.envoyproxy.io, kind EnvoyProxy, name, namespace) at it ` +
      `in this input; kube-graceful then sets minDrainDuration and drainTimeout.`,
    path: ['spec', 'gatewayClassName'],
  };
}
