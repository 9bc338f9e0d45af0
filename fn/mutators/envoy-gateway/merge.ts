/**
 * How Envoy Gateway merges two EnvoyProxy specs (issue #27 item 7): from v1.8.0 an EnvoyProxy's
 * `mergeType` (`Replace`, `StrategicMerge`, `JSONMerge`; unset means Replace:
 * api/v1alpha1/envoyproxy_types.go@v1.8.0) decides whether a more specific spec replaces a less
 * specific one or is merged over it (internal/gatewayapi/envoyproxy_merge.go@v1.8.0 … @v1.9.0
 * MergeEnvoyProxyConfigs: the Gateway's over its GatewayClass's, then that over the controller's
 * default spec).
 *
 * The merge marshals the override from its Go struct, so a field set to null is absent rather
 * than a deletion, and then applies it as a strategic merge patch or an RFC 7386 merge patch
 * (internal/utils/merge.go@v1.9.0 Merge). For every field the shutdown plan reads (spec.shutdown's
 * durations, envoyService's annotations, type, policy, class and patch, the workload patches) both
 * kinds do the same: a map merges key by key, a scalar is replaced. So one merge patch stands for
 * both.
 */
import { apply } from 'json-merge-patch';
import type { EnvoyProxySpec } from './objects.ts';
import { reached } from '../../facts/versionGates.ts';
import type { VersionGate } from '../../facts/versionGates.ts';

export type MergeType = 'Replace' | 'StrategicMerge' | 'JSONMerge';

/** The first release with mergeType. */
export const MERGE_TYPE = {
  product: 'Envoy Gateway',
  since: '1.8.0',
  source: 'envoyproxy/gateway api/v1alpha1/envoyproxy_types.go@v1.8.0 (mergeType)',
} as const satisfies VersionGate;

/**
 * The first mergeType set among `specs` (most specific first), Replace when none is: Envoy
 * Gateway's mergeTypeOf, which lets a Gateway's mergeType decide the step over the default spec
 * when its class's EnvoyProxy sets none (envoyproxy_merge.go@v1.9.0). A value outside the enum is
 * rejected by the CRD, so it never reaches the controller: read as unset.
 */
export function mergeTypeOf(...specs: ReadonlyArray<EnvoyProxySpec | undefined>): MergeType {
  for (const spec of specs) {
    const type = spec?.mergeType;
    if (type === 'Replace' || type === 'StrategicMerge' || type === 'JSONMerge') return type;
  }
  return 'Replace';
}

/**
 * True when Envoy Gateway merges `spec` over the level below: its mergeType merges, and the release
 * (when known) has the field.
 */
export function merges(spec: EnvoyProxySpec | undefined, release: string | undefined): boolean {
  return mergeTypeOf(spec) !== 'Replace' && (release === undefined || reached(MERGE_TYPE, release));
}

/** Returns `override` merged over `base` (neither is changed), as a merging mergeType does. */
export function mergeSpecs(base: EnvoyProxySpec, override: EnvoyProxySpec): EnvoyProxySpec {
  return apply(withoutNulls(base), withoutNulls(override)) as EnvoyProxySpec;
}

/** A deep copy without the keys whose value is null (absent once Go has decoded them). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}
