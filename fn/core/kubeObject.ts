/** Plain-data shapes of the Kubernetes objects kube-graceful reads (parsed YAML, never edited directly). */

export interface ObjectMeta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string> | null;
  annotations?: Record<string, string> | null;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta | null;
  // Specs differ per kind; readers narrow them where they use them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  env?: Array<{ name: string; value?: string; valueFrom?: unknown }> | null;
  ports?: Array<{ containerPort?: number; name?: string }> | null;
  lifecycle?: { preStop?: Record<string, unknown> | null; postStart?: unknown } | null;
  restartPolicy?: string;
}

export interface PodSpec {
  containers?: Container[] | null;
  initContainers?: Container[] | null;
  terminationGracePeriodSeconds?: number | null;
  restartPolicy?: string;
}

export interface PodTemplate {
  metadata?: ObjectMeta | null;
  spec?: PodSpec | null;
}

/** Identifies a resource the way KRM results do (`resourceRef`). */
export interface ResourceRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/** Returns `Kind namespace/name` for messages. */
export function formatRef(ref: ResourceRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

/** Returns the object's annotations, never null. */
export function annotationsOf(meta: ObjectMeta | null | undefined): Record<string, string> {
  return meta?.annotations ?? {};
}

/** Returns the object's labels, never null. */
export function labelsOf(meta: ObjectMeta | null | undefined): Record<string, string> {
  return meta?.labels ?? {};
}

/**
 * Returns a scalar read from a manifest as the text it stands for (`30s`, `5`, `true`); a map or
 * list as its JSON, never `[object Object]`.
 */
export function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value === null || value === undefined) return String(value);
  return JSON.stringify(value);
}
