/**
 * Sleep mode (DOMAIN §1, §5): a preStop sleep of S = W on the proxy container keeps the gateway
 * serving, untouched, while the load balancer drains; SIGTERM comes after. A preStop the user
 * already wrote is never replaced or merged into (DOMAIN §1: one handler per hook): it stays, and
 * the model builds the grace period on what it really sleeps.
 *
 * Injected gateways: the injector merges `lifecycle` field by field (DOMAIN §2) and the gateway
 * template sets no preStop of its own (gateways are never native sidecars, so Istio's native
 * drain hook is not added), so the pod's preStop is the one that runs.
 */
import { sourceOf } from '../../config/schema.ts';
import { parseGoDurationSeconds } from '../../timing/durations.ts';
import type { GatewayShape } from '../../workloads/gatewayShape.ts';
import type { Container } from '../../workloads/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { MutatorContext, ProposedChange, ProposedFinding } from '../types.ts';
import type { ModeOutcome } from './envMode.ts';
import { graceChange } from './grace.ts';
import { ISTIO_DEFAULT_TERMINATION_DRAIN_SECONDS } from '../../timing/platformDefaults.ts';
import { sleepPreStop } from './preStop.ts';
import { preStopSeconds } from '../../workloads/preStop.ts';
import { PROXY_CONFIG_ANNOTATION, readProxyConfig } from '../shared/proxyConfig.ts';
import { derivation } from './reasons.ts';
import { planGatewayTiming } from './timing.ts';


/** Returns sleep mode's changes for a gateway. */
export function sleepMode(workload: Workload, context: MutatorContext, shape: GatewayShape, proxy: Container): ModeOutcome {
  const changes: ProposedChange[] = [];
  const findings: ProposedFinding[] = [];
  const existing = preStopSeconds(proxy.lifecycle?.preStop);
  const timing = planGatewayTiming(workload, context, existing === undefined ? {} : { existingPreStopSeconds: existing });
  if ('error' in timing) return { changes, findings: [timing.error], timing };
  const { plan, resolved } = timing;
  const inputs = resolved.inputs;
  const { spec, config } = context;

  if (existing === undefined) {
    const choice = sleepPreStop(
      plan.preStopSeconds.value,
      { version: spec.kubernetesVersion, source: describe(sourceOf(config, 'kubernetesVersion'), 'kube-version') },
      { value: spec.gateway.imageHasShell, source: describe(sourceOf(config, 'gateway.imageHasShell'), 'gateway-image-has-shell') },
    );
    if ('refused' in choice) {
      // Without the sleep the plan's G has nothing to cover: write nothing rather than half a plan.
      findings.push({ severity: 'warning', code: 'GATEWAY_NO_PRESTOP', message: choice.refused, path: workload.containerAt(proxy.name, 'lifecycle', 'preStop') });
      return { changes, findings, timing };
    }
    changes.push({
      path: workload.containerAt(proxy.name, 'lifecycle', 'preStop'),
      value: choice.hook,
      reason: derivation('preStop sleep', `${plan.preStopSeconds.value} s`, [plan.preStopSeconds], inputs, [], [`Written as a ${choice.how}.`]),
    });
  }

  findings.push(...terminationDrain(workload, shape, proxy, inputs.maxRequest.value));
  changes.push(...graceChange(workload, plan, inputs, existing === undefined ? 'Sleep mode: S is the preStop sleep on the proxy container.' : `Sleep mode: S comes from the preStop hook already on container ${proxy.name}, which is kept.`));
  return { changes, findings, timing };
}

/**
 * After the sleep, SIGTERM: without exit-on-zero pilot-agent drains, waits
 * terminationDrainDuration and kills Envoy (DOMAIN §2). Shorter than R, it cuts the longest
 * requests. The model has no output for this wait in sleep mode, so it is a finding, not a change.
 */
function terminationDrain(workload: Workload, shape: GatewayShape, proxy: Container, maxRequestSeconds: number): ProposedFinding[] {
  const read = shape === 'injected' ? readProxyConfig(workload.template.metadata?.annotations?.[PROXY_CONFIG_ANNOTATION]) : undefined;
  const text = read?.ok ? read.fields['terminationDrainDuration'] : undefined;
  const seconds = typeof text === 'string' ? parseGoDurationSeconds(text) : undefined;
  const wait = seconds ?? ISTIO_DEFAULT_TERMINATION_DRAIN_SECONDS;
  if (wait >= maxRequestSeconds) return [];
  const where = seconds === undefined ? `Istio's default ${ISTIO_DEFAULT_TERMINATION_DRAIN_SECONDS} s` : `${JSON.stringify(text)} in ${PROXY_CONFIG_ANNOTATION}`;
  const fix = shape === 'injected'
    ? `set terminationDrainDuration to at least ${maxRequestSeconds}s in ${PROXY_CONFIG_ANNOTATION}`
    : `set terminationDrainDuration to at least ${maxRequestSeconds}s mesh-wide (meshConfig.defaultConfig; this gateway is not injected, so a pod annotation does not reach it)`;
  return [{
    severity: 'warning',
    code: 'GATEWAY_TERMINATION_DRAIN_SHORT',
    message:
      `In sleep mode container ${proxy.name} gets SIGTERM after the preStop sleep; the proxy then drains its listeners, waits terminationDrainDuration ` +
      `(${where}) and kills Envoy (DOMAIN §2), cutting requests the plan gives R = ${maxRequestSeconds} s to finish. ` +
      `Use --gateway-mode env (exits at zero active connections), or ${fix}.`,
  }];
}

function describe(source: string, flag: string): string {
  return source === 'default' ? `default; set --${flag} to change` : source;
}
