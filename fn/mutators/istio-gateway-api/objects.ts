/**
 * The minimal shapes of what the logic reads (parsed YAML, as `yaml`'s parse returns it), and the
 * questions asked of them: is this Gateway deployed by istiod, which ConfigMap does it name, which
 * class-defaults ConfigMap applies.
 */
import type { KubeObject } from '../../core/kubeObject.ts';
import {
  CLASS_DEFAULTS_LABEL,
  DEFAULT_ISTIO_GATEWAY_CLASS,
  ISTIO_GATEWAY_CONTROLLER,
} from './facts.ts';
import { specField } from '../../core/kubeObject.ts';
import { kubeObjectRef } from '../../timing/kubeObject.ts';

/** `gateway.networking.k8s.io` `Gateway`, the fields read here. */
export interface GatewayObject extends KubeObject {
  spec?: {
    gatewayClassName?: unknown;
    infrastructure?: {
      annotations?: Record<string, unknown> | null;
      labels?: Record<string, unknown> | null;
      parametersRef?: { group?: unknown; kind?: unknown; name?: unknown } | null;
    } | null;
  } | null;
}

/** A core `ConfigMap`. */
export interface ConfigMapObject extends KubeObject {
  data?: Record<string, unknown> | null;
}

/** Returns true for a `gateway.networking.k8s.io` Gateway. */
export function isGateway(object: KubeObject): object is GatewayObject {
  return (
    object.kind === 'Gateway' &&
    typeof object.apiVersion === 'string' &&
    object.apiVersion.startsWith('gateway.networking.k8s.io/')
  );
}

/** Returns true for a core ConfigMap. */
function isConfigMap(object: KubeObject): object is ConfigMapObject {
  return object.kind === 'ConfigMap' && object.apiVersion === 'v1';
}

/**
 * Returns the names of the classes istiod deploys with the kube-gateway template: `istio`, plus
 * every GatewayClass in the stream whose `controllerName` is istiod's
 * (deploymentcontroller.go@1.26.8 reconciles a Gateway when its class's controller is
 * `istio.io/gateway-controller`; the `custom-class` case of its test).
 */
export function istioGatewayClasses(objects: readonly KubeObject[]): Set<string> {
  const classes = new Set([DEFAULT_ISTIO_GATEWAY_CLASS]);
  for (const object of objects) {
    if (
      object.kind === 'GatewayClass' &&
      specField(object, 'controllerName') === ISTIO_GATEWAY_CONTROLLER &&
      typeof object.metadata?.name === 'string'
    ) {
      classes.add(object.metadata.name);
    }
  }
  return classes;
}

/** The Gateway's `spec.infrastructure.parametersRef`, classified as istiod classifies it
 * (`fetchParameters`, deploymentcontroller.go@1.26.8). */
export type ParametersRef =
  | { readonly kind: 'none' }
  | { readonly kind: 'configMap'; readonly name: string }
  | { readonly kind: 'other'; readonly group: string; readonly refKind: string };

/** Returns what the Gateway's parametersRef names: nothing, a ConfigMap in its namespace, or
 * something istiod refuses. */
export function parametersRefOf(gateway: GatewayObject): ParametersRef {
  const ref = gateway.spec?.infrastructure?.parametersRef;
  if (ref === undefined || ref === null) return { kind: 'none' };
  const group = typeof ref.group === 'string' ? ref.group : '';
  const refKind = typeof ref.kind === 'string' ? ref.kind : '';
  // istiod accepts exactly group "" and kind ConfigMap, in the Gateway's own namespace.
  if (group === '' && refKind === 'ConfigMap' && typeof ref.name === 'string' && ref.name !== '')
    return { kind: 'configMap', name: ref.name };
  return { kind: 'other', group, refKind };
}

/** Returns the ConfigMap `namespace/name` in `objects`, or undefined. A missing namespace on either
 * side matches (a render left to `helm -n`). */
export function findConfigMap(
  objects: readonly KubeObject[],
  namespace: string | undefined,
  name: string,
): ConfigMapObject | undefined {
  return objects.find(
    (o): o is ConfigMapObject =>
      isConfigMap(o) &&
      o.metadata?.name === name &&
      sameNamespace(o.metadata?.namespace, namespace),
  );
}

/**
 * Returns the class-defaults ConfigMap for `className` among `objects`: labelled
 * `gateway.istio.io/defaults-for-class: <class>` and in istiod's namespace when that is known.
 * Several: istiod takes the oldest, which a render cannot tell; the first is returned with
 * `ambiguous`.
 */
export function classDefaultsFor(
  objects: readonly KubeObject[],
  className: string,
  istiodNamespace: string | undefined,
): { readonly configMap: ConfigMapObject; readonly ambiguous: boolean } | undefined {
  const found = objects.filter(
    (o): o is ConfigMapObject =>
      isConfigMap(o) &&
      o.metadata?.labels?.[CLASS_DEFAULTS_LABEL] === className &&
      (istiodNamespace === undefined || sameNamespace(o.metadata?.namespace, istiodNamespace)),
  );
  const first = found[0];
  return first === undefined ? undefined : { configMap: first, ambiguous: found.length > 1 };
}

function sameNamespace(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

/** Returns `Kind namespace/name` for messages. */
export function refOf(object: KubeObject): string {
  return `${object.kind ?? '?'} ${kubeObjectRef(object)}`;
}
