/**
 * A grace period set through the EnvoyProxy's Deployment or DaemonSet patch: the only way to set
 * it, since KubernetesPodSpec has no such field (api/v1alpha1/shared_types.go@v1.9.0). Envoy
 * Gateway applies the patch after it has written drainTimeout + 300 (utils.MergeWithPatch in
 * internal/infrastructure/kubernetes/proxy/resource_provider.go@v1.9.0), so a patched value wins.
 */
import type { FieldPath } from '../../core/fieldPath.ts';
import type { SpecLocation } from './objects.ts';

export interface PatchedGrace {
  readonly seconds: number;
  readonly path: FieldPath;
  /** `envoyDeployment` or `envoyDaemonSet`. */
  readonly workloadField: string;
}

const IN_PATCH = [
  'patch',
  'value',
  'spec',
  'template',
  'spec',
  'terminationGracePeriodSeconds',
] as const;

/** Returns the patched grace period, or undefined when no patch sets a whole number of seconds. */
export function patchedGrace(location: SpecLocation): PatchedGrace | undefined {
  const kubernetes = location.spec.provider?.kubernetes;
  for (const workloadField of ['envoyDeployment', 'envoyDaemonSet'] as const) {
    const value: unknown = valueAt(kubernetes?.[workloadField], IN_PATCH);
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
      return {
        seconds: value,
        path: [...location.specPath, 'provider', 'kubernetes', workloadField, ...IN_PATCH],
        workloadField,
      };
    }
  }
  return undefined;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
