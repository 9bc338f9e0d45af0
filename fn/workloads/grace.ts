/**
 * A pod's `terminationGracePeriodSeconds` as the timing model can compare it. The field is an
 * int64 (k8s.io/api core/v1 types.go `TerminationGracePeriodSeconds *int64`), so a manifest may
 * hold any whole number the API server takes, 9223372036854775807 included; yaml reads those
 * beyond 2^53 as bigints (fn/yaml/options.ts). The shape check (shape.ts) has already refused
 * what is not an int64; this module only maps the rest onto numbers a plan is made of.
 */
import type { PodTemplate } from '../core/kubeObject.ts';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** True when a value read from YAML is a whole number an int64 field holds. */
export function isInt64(value: unknown): value is number | bigint {
  if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX;
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/**
 * Returns the manifest's grace period as whole seconds the model compares with its plan, or
 * undefined when the field is not set:
 * - beyond 2^53 s (a bigint): Number.MAX_SAFE_INTEGER, longer than any plan, so the plan keeps
 *   it and nothing is written over it (graceToWrite writes only what raises the grace);
 * - negative: 0, shorter than any plan, so the plan raises it. The API server does not refuse a
 *   negative one: its pod update rule lets a negative grace be set to 1
 *   (pkg/apis/core/validation/validation.go ValidatePodSpecUpdate, "value can only be set to 1
 *   if previously negative"), so such pods exist, and the kubelet gives them no drain time.
 */
export function comparableGraceSeconds(template: PodTemplate): number | undefined {
  const value: unknown = template.spec?.terminationGracePeriodSeconds;
  return isInt64(value) ? comparableSeconds(value) : undefined;
}

/** Returns an int64 grace period as the model compares it (see comparableGraceSeconds). */
export function comparableSeconds(value: number | bigint): number {
  if (typeof value === 'bigint') return value > 0n ? Number.MAX_SAFE_INTEGER : 0;
  return Math.max(value, 0);
}
