/**
 * gateway-drain (issue #3): an Istio gateway behind a load balancer keeps serving until the LB
 * has stopped sending it traffic, finishes what is in flight, then exits, and its grace period
 * covers all of it. Every number comes from the timing model (fn/timing/model.ts) and every
 * change says how it was derived. Gateways are found by structure (fn/workloads/gatewayShape.ts).
 *
 * Never touches image, args or ports: those are the injection template's (issue #3).
 */
import { sourceOf } from '../../config/schema.ts';
import { defineMutator, NOTHING } from '../types.ts';
import type { MutatorOutcome, ProposedFinding } from '../types.ts';
import { explainGateway } from './explain.ts';
import { GATEWAY_FINDING_CODES } from './findings.ts';
import type { GatewayPlan } from './plan.ts';
import { envMode } from './envMode.ts';
import { obsoleteSettings } from './obsolete.ts';
import { proxyContainer } from './proxyContainer.ts';
import { proxyConfigReaches } from './proxyConfigReach.ts';
import { PROXY_CONFIG_ANNOTATION, readProxyConfig } from '../../workloads/istioProxyConfig.ts';
import { rolloutFindings } from './rollout.ts';
import { sleepMode } from './sleepMode.ts';
import { checkFindings } from './timing.ts';
import { istioVersionOf } from './version.ts';
import { ISTIO, reached } from '../../facts/versionGates.ts';
import { GATEWAY_SETTINGS } from './settings/slice.ts';

export const gatewayDrain = defineMutator<GatewayPlan, 'gateway-drain'>({
  id: 'gateway-drain',
  settings: GATEWAY_SETTINGS,
  description:
    'Istio gateways: keep serving while the load balancer drains, then exit; grace period to match',
  enabled: (spec) => spec.gateway.mode !== 'off',
  findingCodes: GATEWAY_FINDING_CODES,
  mutate(workload, context): MutatorOutcome<GatewayPlan> {
    const shape = context.gateway;
    if (!shape) return NOTHING;
    const proxy = proxyContainer(workload, shape);
    if (!proxy) return NOTHING;
    const istio = istioVersionOf(workload, shape, context);
    const findings: ProposedFinding[] = [];
    let mode: 'env' | 'sleep' = context.spec.gateway.mode === 'sleep' ? 'sleep' : 'env';
    if (mode === 'env' && !reached(ISTIO.exitOnZero, istio.version)) {
      mode = 'sleep';
      const asked = sourceOf(context.config, 'gateway.mode');
      findings.push({
        severity: 'info',
        code: 'GATEWAY_ENV_MODE_UNSUPPORTED',
        message:
          `Gateway mode env (${asked}) needs Istio ≥ ` +
          `${ISTIO.exitOnZero.since} for EXIT_ON_ZERO_ACTIVE_CONNECTIONS and ` +
          'MINIMUM_DRAIN_DURATION ' +
          `(pkg/envoy/agent.go@1.12.0); ` +
          `this proxy is Istio ${istio.version} (${istio.source}): sleep mode used instead.`,
      });
    }
    const outcome =
      mode === 'env'
        ? envMode(workload, context, shape, proxy, istio)
        : sleepMode(workload, context, shape, proxy, istio);
    findings.push(...outcome.findings);
    if ('error' in outcome.timing) return { changes: [], findings };
    const { resolved, plan } = outcome.timing;
    const proxyConfig = proxyConfigReaches(workload, shape, proxy)
      ? readProxyConfig(workload.template.metadata?.annotations?.[PROXY_CONFIG_ANNOTATION])
      : undefined;
    findings.push(
      ...resolved.findings,
      ...checkFindings(plan),
      ...obsoleteSettings(workload, proxy.name, proxyConfig?.ok ? proxyConfig.fields : {}, istio),
      ...rolloutFindings(workload, context, resolved.loadBalancer),
    );
    const gatewayPlan: GatewayPlan = {
      inputs: resolved.inputs,
      plan,
      mode,
      proxy: proxy.name,
      ...(resolved.loadBalancer ? { loadBalancer: resolved.loadBalancer } : {}),
      shape,
      istio,
      ...(outcome.terminationDrain ? { terminationDrainSeconds: outcome.terminationDrain } : {}),
    };
    return { changes: outcome.changes, findings, plan: gatewayPlan };
  },
  explain: explainGateway,
});
