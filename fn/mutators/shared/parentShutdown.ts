/**
 * Gateways and classic app sidecars alike: Istio up to 1.16 rejects a ProxyConfig whose
 * parentShutdownDuration is not greater than its drainDuration: "parent shutdown time %v must be
 * greater than drain time %v" (pkg/config/validation/validation.go@1.16.7 ValidateParentAndDrain,
 * called by ValidateMeshConfigProxyConfig). The injector applies the pod's `proxy.istio.io/config`
 * over the defaults (parentShutdownDuration 60 s) and validates it
 * (pkg/kube/inject/validate.go@1.16.7 validateProxyConfig): the pod is denied. pilot-agent
 * validates the same merged config at start (pilot/cmd/pilot-agent/config/config.go@1.16.7), so a
 * legacy gateway's proxy refuses to start. From 1.17 the field is reserved: validation reads only
 * drainDuration (validation.go@1.17.0 ValidateDrainDuration) and pilot-agent no longer passes
 * --parent-shutdown-time-s to Envoy (pkg/envoy/proxy.go@1.17.0), so writing it there is harmless.
 * Both validations also cap drainDuration and parentShutdownDuration at 1 h.
 */
import { ISTIO, reached } from '../../facts/versionGates.ts';

/** Istio's default parentShutdownDuration up to 1.16 (mesh.DefaultProxyConfig,
 * pkg/config/mesh/mesh.go@1.16.7). */
export const ISTIO_DEFAULT_PARENT_SHUTDOWN_SECONDS = 60;
/** The cap both durations have (validation.go@1.16.7 drainTimeMax, parentShutdownTimeMax). */
export const ISTIO_MAX_DRAIN_SECONDS = 3600;
/**
 * How far above drainDuration we put parentShutdownDuration: Istio's own defaults keep 15 s
 * between them (45 s → 60 s). Any value above drainDuration passes; the gap only keeps the
 * relation obvious to a reader.
 */
const PARENT_SHUTDOWN_MARGIN_SECONDS = 15;

/**
 * True when the proxy's Istio may enforce the rule: below 1.17, or a version nothing stated
 * (`known` false: the built-in default).
 */
export function parentShutdownEnforced(istio: {
  readonly version: string;
  readonly known: boolean;
}): boolean {
  return !istio.known || !reached(ISTIO.parentShutdownIgnored, istio.version);
}

/**
 * A parentShutdownDuration to write, with its formula; or undefined when the current one (or the
 * default) is already above drainDuration.
 */
export function parentShutdownFor(
  drainSeconds: number,
  existingSeconds: number | undefined,
): { value: number; formula: string } | undefined {
  const current = existingSeconds ?? ISTIO_DEFAULT_PARENT_SHUTDOWN_SECONDS;
  if (current > drainSeconds) return undefined;
  const value = drainSeconds + PARENT_SHUTDOWN_MARGIN_SECONDS;
  return {
    value,
    formula:
      `drainDuration + ${PARENT_SHUTDOWN_MARGIN_SECONDS} = ${drainSeconds} + ` +
      `${PARENT_SHUTDOWN_MARGIN_SECONDS} = ${value}`,
  };
}
