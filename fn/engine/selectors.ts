/**
 * `include` / `exclude` selectors of the config: kind, name, namespace and labels must all match.
 */
import type { Selector } from '../config/schema.ts';
import { labelsOf } from '../core/kubeObject.ts';
import type { KubeObject, ResourceRef } from '../core/kubeObject.ts';

/** Returns true when every field the selector sets matches the workload (or an object mutator's
 * object). */
export function matches(
  selector: Selector,
  workload: { readonly ref: ResourceRef; readonly object: KubeObject },
): boolean {
  const { kind, name, namespace } = workload.ref;
  if (selector.kind !== undefined && selector.kind !== kind) return false;
  if (selector.name !== undefined && selector.name !== name) return false;
  if (selector.namespace !== undefined && selector.namespace !== namespace) return false;
  const labels = labelsOf(workload.object.metadata);
  return Object.entries(selector.labels ?? {}).every(([key, value]) => labels[key] === value);
}
