/**
 * Gateway API routes as the load-balancer code follows them: which Gateways a route attaches to
 * and which Services it sends traffic to. Defaults from kubernetes-sigs/gateway-api
 * apis/v1/shared_types.go@v1.3.0 (ParentReference: group gateway.networking.k8s.io, kind Gateway,
 * namespace the route's) and apis/v1/object_reference_types.go@v1.3.0 (BackendObjectReference:
 * group "", kind Service, namespace the route's).
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { specField } from '../core/kubeObject.ts';

/** The route kinds whose backends are Services: L7 (an ALB's) and L4 (an NLB's). */
export const ROUTE_KINDS: readonly string[] = [
  'HTTPRoute',
  'GRPCRoute',
  'TLSRoute',
  'TCPRoute',
  'UDPRoute',
];

const GATEWAY_GROUP = 'gateway.networking.k8s.io';

/** An object named by a reference: its namespace (the referrer's by default) and name. */
export interface ObjectKey {
  readonly namespace: string | undefined;
  readonly name: string;
}

/**
 * Returns the Gateways a route attaches to (its parentRefs of kind Gateway), each once: a route
 * often names one Gateway per listener (sectionName).
 */
export function routeGateways(route: KubeObject): ObjectKey[] {
  const keys = refsOf(specField(route, 'parentRefs'), route, {
    group: GATEWAY_GROUP,
    kind: 'Gateway',
  });
  return keys.filter(
    (key, i) => keys.findIndex((k) => k.namespace === key.namespace && k.name === key.name) === i,
  );
}

/** Returns the Services a route sends to (every rule's backendRefs of kind Service). */
export function routeServices(route: KubeObject): ObjectKey[] {
  const rules = specField(route, 'rules');
  return (Array.isArray(rules) ? rules : []).flatMap((rule: unknown) =>
    rule !== null && typeof rule === 'object'
      ? refsOf((rule as { backendRefs?: unknown }).backendRefs, route, {
          group: '',
          kind: 'Service',
        })
      : [],
  );
}

/** The references of `refs` to objects of that group and kind (each defaulting to them). */
function refsOf(
  refs: unknown,
  referrer: KubeObject,
  wanted: { readonly group: string; readonly kind: string },
): ObjectKey[] {
  const keys: ObjectKey[] = [];
  for (const ref of Array.isArray(refs) ? refs : []) {
    if (ref === null || typeof ref !== 'object') continue;
    const r = ref as { group?: unknown; kind?: unknown; namespace?: unknown; name?: unknown };
    if ((r.group ?? wanted.group) !== wanted.group || (r.kind ?? wanted.kind) !== wanted.kind)
      continue;
    if (typeof r.name !== 'string') continue;
    const namespace = typeof r.namespace === 'string' ? r.namespace : referrer.metadata?.namespace;
    keys.push({ namespace, name: r.name });
  }
  return keys;
}

/** Returns true when `object` is the one `key` names. */
export function isNamed(object: KubeObject, key: ObjectKey): boolean {
  return object.metadata?.name === key.name && object.metadata?.namespace === key.namespace;
}
