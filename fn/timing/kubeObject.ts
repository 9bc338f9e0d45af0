/**
 * Readers the load-balancer code uses on already-parsed objects (the type is
 * fn/core/kubeObject.ts's): a resource's name for messages, and an annotation as text.
 */

import type { KubeObject } from '../core/kubeObject.ts';
import { scalarText } from '../core/scalarText.ts';

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
  return value === undefined || value === null ? undefined : scalarText(value).trim();
}
