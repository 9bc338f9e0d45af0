/**
 * Inbound listeners of a classic istio-proxy during the drain window. On SIGTERM pilot-agent drains
 * the sidecar's inbound listeners (`drain_listeners?inboundonly&graceful`,
 * pkg/envoy/admin.go@1.24.0): Envoy keeps accepting for `drainDuration` (default 45 s), then closes
 * them. Behind a load balancer whose window W is longer, connections it still sends would be
 * refused by the sidecar although the app is up, so drainDuration must reach W + B (the plan's D,
 * the same rule as for gateways). A native sidecar drains with `&skip_exit` and never closes them:
 * not used there. Up to Istio 1.16 a drainDuration at or above parentShutdownDuration (default
 * 60 s) gets the pod denied by the injector (../shared/parentShutdown.ts): that is raised with it,
 * as for gateways.
 */
import { ISTIO_DEFAULT_DRAIN_DURATION_SECONDS } from '../../timing/platformDefaults.ts';
import { formatGoDurationSeconds, parseGoDurationSeconds } from '../../timing/durations.ts';
import type { Workload } from '../../workloads/workload.ts';
import { annotationsOf } from '../../core/kubeObject.ts';
import {
  PROXY_CONFIG_ANNOTATION,
  readProxyConfig,
  setProxyConfigField,
} from '../../workloads/istioProxyConfig.ts';
import { parentShutdownEnforced, parentShutdownFor } from '../shared/parentShutdown.ts';
import { readProxyConfigEnv } from '../../workloads/istioProxyConfigEnv.ts';
import { proxyConfigEnvText } from '../../workloads/renderInjected.ts';
import type { DrainStep } from './istioClassicDrain.ts';
import type { AppTiming } from './timing.ts';
import { scalarText } from '../../core/scalarText.ts';

/** Returns the pod's own drainDuration in whole seconds (rounded up), if it sets a readable one. */
export function podDrainDurationSeconds(workload: Workload): number | undefined {
  const reading = readProxyConfig(
    annotationsOf(workload.template.metadata)[PROXY_CONFIG_ANNOTATION],
  );
  // Injected at render time: PROXY_CONFIG on istio-proxy holds it, the annotation wins over it
  // (pilot/cmd/pilot-agent/config/config.go@1.28.10 getMeshConfig).
  const env = readProxyConfigEnv(proxyConfigEnvText(workload.template));
  const value =
    (reading.ok ? reading.fields['drainDuration'] : undefined) ??
    (env.ok ? env.fields['drainDuration'] : undefined);
  const seconds =
    value === undefined || value === null ? undefined : parseGoDurationSeconds(scalarText(value));
  return seconds === undefined ? undefined : Math.ceil(seconds);
}

/**
 * Returns `text` with drainDuration raised to the plan's D where the pod's (or the default 45 s)
 * falls short, and parentShutdownDuration above it where `istio` may enforce that rule.
 */
export function inboundDrain(
  text: string,
  timing: AppTiming,
  istio: { readonly version: string; readonly known: boolean },
): DrainStep | undefined {
  const D = timing.pod.drainDurationSeconds;
  const own = timing.inputs.existingDrainDurationSeconds;
  if (D.value <= (own ?? ISTIO_DEFAULT_DRAIN_DURATION_SECONDS)) return { text, lines: [] };
  const merged = setProxyConfigField(text, ['drainDuration'], formatGoDurationSeconds(D.value));
  if (merged === undefined) return undefined;
  const ownDrain =
    own === undefined ? `default ${ISTIO_DEFAULT_DRAIN_DURATION_SECONDS} s` : `the pod's ${own} s`;
  const lines = [
    `drainDuration "${D.value}s": ${D.formula}; ` +
      `Envoy closes the sidecar's inbound listeners after drainDuration (${ownDrain}), ` +
      `which must not come before the load balancer stops sending.`,
    D.explanation,
  ];
  if (!parentShutdownEnforced(istio)) return { text: merged, lines };
  const reading = readProxyConfig(merged);
  const ownParent = reading.ok ? reading.fields['parentShutdownDuration'] : undefined;
  const ownParentSeconds =
    ownParent === undefined || ownParent === null
      ? undefined
      : parseGoDurationSeconds(scalarText(ownParent));
  const parent = parentShutdownFor(
    D.value,
    ownParentSeconds === undefined ? undefined : Math.ceil(ownParentSeconds),
  );
  if (!parent) return { text: merged, lines };
  const withParent = setProxyConfigField(
    merged,
    ['parentShutdownDuration'],
    formatGoDurationSeconds(parent.value),
  );
  if (withParent === undefined) return undefined;
  const why = istio.known
    ? `Istio ${istio.version}`
    : `Istio version not stated (the default ${istio.version} was assumed), ` +
      `so the pod may meet an older injector`;
  lines.push(
    `parentShutdownDuration "${parent.value}s": ${parent.formula}; up to ` +
      `Istio 1.16 the injector denies a pod whose drainDuration is not below ` +
      `parentShutdownDuration (default 60 s; ` +
      `pkg/config/validation/validation.go@1.16.7 ValidateParentAndDrain); ` +
      `ignored from 1.17. ${why}.`,
  );
  return { text: withParent, lines };
}
