/**
 * Plain-data shapes of the Kubernetes objects kube-graceful reads (parsed YAML, never edited
 * directly).
 */
import { valueForMessage } from './scalarText.ts';

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
  /** As parsed: only the timing fields and an HTTP path are read, each checked for its type. */
  readinessProbe?: {
    periodSeconds?: unknown;
    failureThreshold?: unknown;
    httpGet?: { path?: unknown } | null;
  } | null;
  restartPolicy?: string;
}

export interface PodSpec {
  /** As parsed: read as a map of labels where it is one. */
  nodeSelector?: unknown;
  containers?: Container[] | null;
  initContainers?: Container[] | null;
  terminationGracePeriodSeconds?: number | bigint | null;
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

/**
 * Returns the object's apiVersion, kind, name and namespace (`defaultNamespace` when it names
 * none), as records and KRM results name a resource.
 */
export function objectRef(object: KubeObject, defaultNamespace?: string): ResourceRef {
  const namespace = object.metadata?.namespace ?? defaultNamespace;
  return {
    apiVersion: String(object.apiVersion ?? ''),
    kind: String(object.kind ?? ''),
    name: scalarName(object.metadata?.name),
    ...(namespace ? { namespace } : {}),
  };
}

/**
 * Returns a name as messages and refs show it: its text, or what it is where the manifest holds a
 * map or a list (`<a map>`, never `[object Object]`; the API server refuses such a name).
 */
function scalarName(name: unknown): string {
  if (name === undefined || name === null) return '';
  if (typeof name === 'string') return name;
  return typeof name === 'object' && !(name instanceof Uint8Array)
    ? `<${valueForMessage(name)}>`
    : valueForMessage(name);
}

/** Returns `Kind namespace/name` for messages. */
export function formatRef(ref: ResourceRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

/** Returns the object's annotations, never null. */
export function annotationsOf(meta: ObjectMeta | null | undefined): Record<string, string> {
  return meta?.annotations ?? {};
}

/**
 * Returns `spec[key]` of the object as parsed: whatever the manifest holds there, or undefined
 * when the object has no spec (or a spec that is not a mapping). Readers narrow it.
 */
export function specField(object: KubeObject, key: string): unknown {
  return (object.spec as Record<string, unknown> | null | undefined)?.[key];
}

/** Returns the object's labels, never null. */
export function labelsOf(meta: ObjectMeta | null | undefined): Record<string, string> {
  return meta?.labels ?? {};
}
