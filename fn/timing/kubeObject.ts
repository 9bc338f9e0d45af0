/**
 * The shape of an already-parsed Kubernetes resource as the timing and load-balancer code
 * reads it: plain JS objects, no YAML nodes. Only the fields this code looks at are typed;
 * `spec` stays `any` because every kind has its own and the readers check what they use.
 *
 * `null` is allowed where YAML can produce it (`annotations:` with no value), which also
 * keeps `KubeObject` from fn/workloads/kubeObject.ts assignable to this one.
 */

/** An already-parsed Kubernetes resource (a Service, Ingress, BackendConfig, workload …). */
export type KubeObject = {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string> | null;
    annotations?: Record<string, string> | null;
  } | null;
  spec?: any;
};

/**
 * Returns `namespace/name` for messages, or just `name` when the manifest leaves the
 * namespace to `helm -n` / kubectl (rendered charts often do), and `(unnamed)` for a missing
 * name, so every result names the resource it is about without inventing a namespace.
 */
export function kubeObjectRef(object: KubeObject): string {
  const name = object.metadata?.name ?? '(unnamed)';
  const namespace = object.metadata?.namespace;
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * Returns an annotation's value as trimmed text, or undefined when absent: YAML may hand
 * over `true` or `300` for an unquoted value, and a comparison with "true" must still work.
 */
export function annotationText(object: KubeObject, key: string): string | undefined {
  const value: unknown = object.metadata?.annotations?.[key];
  return value === undefined || value === null ? undefined : String(value).trim();
}
