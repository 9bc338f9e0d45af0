/**
 * Inbound listeners of istio-proxy during the drain window. When termination starts, pilot-agent
 * drains the sidecar's inbound listeners (on SIGTERM in classic mode, from Istio's own preStop in
 * native mode): Envoy keeps accepting for `drainDuration` (default 45 s), then closes them
 * (DOMAIN.md §2). Behind a load balancer whose window W is longer, connections it still sends
 * would be refused by the sidecar although the app is up, so drainDuration must reach W + B
 * (the plan's D, the same rule as for gateways, DOMAIN.md §5).
 */
import { ISTIO_DEFAULT_DRAIN_DURATION_SECONDS } from '../../timing/platformDefaults.ts';
import { formatGoDurationSeconds, parseGoDurationSeconds } from '../../timing/durations.ts';
import type { Workload } from '../../workloads/workload.ts';
import { annotationsOf } from '../../workloads/kubeObject.ts';
import { PROXY_CONFIG_ANNOTATION, readProxyConfig, setProxyConfigField } from '../shared/proxyConfig.ts';
import { readProxyConfigEnv } from '../shared/proxyConfigEnv.ts';
import { proxyConfigEnvText } from '../../workloads/renderInjected.ts';
import type { DrainStep } from './istioClassicDrain.ts';
import type { AppTiming } from './timing.ts';


/** Returns the pod's own drainDuration in whole seconds (rounded up), if it sets a readable one. */
export function podDrainDurationSeconds(workload: Workload): number | undefined {
  const reading = readProxyConfig(annotationsOf(workload.template.metadata)[PROXY_CONFIG_ANNOTATION]);
  // Injected at render time: PROXY_CONFIG on istio-proxy holds it, the annotation wins over it
  // (pilot/cmd/pilot-agent/config/config.go@1.28.10 getMeshConfig).
  const env = readProxyConfigEnv(proxyConfigEnvText(workload.template));
  const value = (reading.ok ? reading.fields['drainDuration'] : undefined) ?? (env.ok ? env.fields['drainDuration'] : undefined);
  const seconds = value === undefined || value === null ? undefined : parseGoDurationSeconds(String(value));
  return seconds === undefined ? undefined : Math.ceil(seconds);
}

/** Returns `text` with drainDuration raised to the plan's D where the pod's (or the default 45 s) falls short. */
export function inboundDrain(text: string, timing: AppTiming): DrainStep | undefined {
  const D = timing.pod.drainDurationSeconds;
  const own = timing.inputs.existingDrainDurationSeconds;
  if (D.value <= (own ?? ISTIO_DEFAULT_DRAIN_DURATION_SECONDS)) return { text, lines: [] };
  const merged = setProxyConfigField(text, ['drainDuration'], formatGoDurationSeconds(D.value));
  return merged === undefined ? undefined : {
    text: merged,
    lines: [
      `drainDuration "${D.value}s": ${D.formula}; Envoy closes the sidecar's inbound listeners after drainDuration (${own === undefined ? `default ${ISTIO_DEFAULT_DRAIN_DURATION_SECONDS} s` : `the pod's ${own} s`}), which must not come before the load balancer stops sending.`,
      D.explanation,
    ],
  };
}
