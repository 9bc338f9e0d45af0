/**
 * gateway-drain (issue #3): an Istio gateway behind a load balancer keeps serving until the LB
 * has stopped sending it traffic, finishes what is in flight, then exits, and its grace period
 * covers all of it. Every number comes from the timing model (fn/timing/model.ts) and every
 * change says how it was derived. Gateways are found by structure (fn/workloads/gatewayShape.ts).
 *
 * Never touches image, args or ports: those are the injection template's (issue #3).
 */
import { originOf, sourceOf } from '../../config/schema.ts';
import { defineMutator, NOTHING } from '../types.ts';
import type { MutatorContext, MutatorOutcome, ProposedFinding } from '../types.ts';
import type { Workload } from '../../workloads/workload.ts';
import { resolveTimingInputs } from '../shared/timingInputs.ts';
import { nodeForwardingOf } from '../../timing/loadBalancers.ts';
import { sleepHook } from '../../workloads/preStop.ts';
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
import { ISTIO, KUBERNETES, reached } from '../../facts/versionGates.ts';
import { GATEWAY_SETTINGS } from './settings/slice.ts';
import { gatewayShape } from '../../workloads/gatewayShape.ts';

export const gatewayDrain = defineMutator<GatewayPlan, 'gateway-drain'>({
  id: 'gateway-drain',
  settings: GATEWAY_SETTINGS,
  description:
    'Istio gateways: keep serving while the load balancer drains, then exit; grace period to match',
  enabled: (spec) => spec.gateway.mode !== 'off',
  // An Istio gateway, recognised by structure (fn/workloads/gatewayShape.ts): the same shape the
  // engine hands every mutator as `context.gateway`.
  claims: (workload) => gatewayShape(workload.template) !== undefined,
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
    mode = modeForNodeTargets(workload, context, mode, findings);
    const outcome =
      mode === 'env'
        ? envMode({ workload, context, shape, proxy, istio })
        : sleepMode({ workload, context, shape, proxy, istio });
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

/**
 * Behind node targets with externalTrafficPolicy Local, a node forwards the load balancer's
 * connections to a terminating gateway only while it passes readiness (kubernetes
 * pkg/proxy/topology.go CategorizeEndpoints), and pilot-agent fails readiness at SIGTERM. Env mode
 * sends SIGTERM at t = 0, so how long the node still forwards rests on the injected probe, which
 * the stream does not show; sleep mode's preStop holds SIGTERM, and readiness with it, for W. So
 * sleep mode is taken where the mode was not asked for and a sleep can be written; otherwise a
 * warning says why the outcome is not known (or, before Kubernetes 1.26, that no setting of the
 * pod helps).
 */
function modeForNodeTargets(
  workload: Workload,
  context: MutatorContext,
  mode: 'env' | 'sleep',
  findings: ProposedFinding[],
): 'env' | 'sleep' {
  const { spec, config } = context;
  const lb = resolveTimingInputs(workload, context).loadBalancer;
  const forwarding = nodeForwardingOf(lb, spec.kubernetesVersion);
  if (forwarding === undefined) return mode;
  const subject = lb?.subject ?? 'the Service';
  if (forwarding === 'never') {
    findings.push({
      severity: 'warning',
      code: 'GATEWAY_NODE_LOCAL',
      message:
        `${subject} reaches the gateway through its nodes with externalTrafficPolicy Local, and ` +
        `before Kubernetes ${KUBERNETES.proxyTerminatingEndpoints.since} (this is ` +
        `${spec.kubernetesVersion}) a node forwards nothing to a terminating pod: the ` +
        `connections the load balancer still sends are dropped whatever the pod does. Use IP ` +
        `targets or externalTrafficPolicy: Cluster.`,
    });
    return mode;
  }
  if (mode === 'sleep') return mode;
  const asked = originOf(config, 'gateway.mode').kind !== 'default';
  // The hook sleep mode would write (./preStop.ts): a sleep action, or exec sleep in a shell.
  const canSleep =
    sleepHook(1, spec.kubernetesVersion, spec.gateway.imageHasShell).mechanism !== 'none';
  if (!asked && canSleep) {
    findings.push({
      severity: 'info',
      code: 'GATEWAY_SLEEP_MODE_FOR_LOCAL',
      message:
        `${subject} reaches the gateway through its nodes with externalTrafficPolicy Local: a ` +
        `node forwards to a terminating pod only while it passes readiness, which the proxy ` +
        `fails at SIGTERM. Sleep mode is used (its preStop sleep holds SIGTERM, and readiness ` +
        `with it, for W), not env mode; set --gateway-mode to choose.`,
    });
    return 'sleep';
  }
  findings.push({
    severity: 'warning',
    code: 'GATEWAY_NODE_LOCAL',
    message:
      `${subject} reaches the gateway through its nodes with externalTrafficPolicy Local: a ` +
      `node forwards to a terminating pod only while it passes readiness, which the proxy fails ` +
      `at SIGTERM, at t = 0 in env mode; how long its injected readiness probe still passes is ` +
      `not known, so explain's outcome is unknown. ` +
      (asked
        ? `Use --gateway-mode sleep (${sourceOf(config, 'gateway.mode')} asks for env), `
        : `Sleep mode needs a preStop sleep this cluster cannot run (Kubernetes ` +
          `${KUBERNETES.sleepAction.since}+ or --gateway-image-has-shell true); or use `) +
      `IP targets or externalTrafficPolicy: Cluster.`,
  });
  return mode;
}
