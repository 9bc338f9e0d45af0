/**
 * Env mode (docs/background.md#istio, docs/background.md#the-timing-model): the proxy itself keeps
 * serving through the drain window. On SIGTERM pilot-agent drains the listeners gracefully, waits
 * MINIMUM_DRAIN_DURATION, then exits once Envoy has no active connections
 * (EXIT_ON_ZERO_ACTIVE_CONNECTIONS, Istio 1.12+). Envoy closes its listeners after drainDuration,
 * so that must reach past W.
 *
 * Delivery per shape (docs/background.md#istio):
 * - env: set on the proxy container for both shapes. Injected gateways: the injector merges the
 *   pod's own istio-proxy container over its template and user env entries win by name. Legacy
 *   gateways are not injected, so env on the container is the only way (proxyMetadata would
 *   become env only at injection).
 * - drainDuration (and, up to Istio 1.16, parentShutdownDuration above it): a ProxyConfig field,
 *   merged into the `proxy.istio.io/config` annotation where it reaches pilot-agent
 *   (drainDuration.ts).
 */
import { parseGoDurationSeconds } from '../../timing/durations.ts';
import type { GatewayShape } from '../../workloads/gatewayShape.ts';
import type { Container } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { MutatorContext, ProposedChange, ProposedFinding } from '../types.ts';
import { envEntry, envIsEditable } from '../shared/env.ts';
import { decideEnvMode, keptMinimumPlan } from '../shared/istioEnvMode.ts';
import { envModeEnv } from './envModeEnv.ts';
import { deliverDrainDuration } from './drainDuration.ts';
import { graceChange } from './grace.ts';
import { preStopSeconds } from '../../workloads/preStop.ts';
import { PROXY_CONFIG_ANNOTATION, readProxyConfig } from '../../workloads/istioProxyConfig.ts';
import { proxyConfigReaches } from './proxyConfigReach.ts';
import { planGatewayTiming } from './timing.ts';
import type { GatewayTiming } from './timing.ts';
import type { Derived, TimingInputs, TimingPlan } from '../../timing/model.ts';
import type { IstioVersion } from './version.ts';

/** What one mode did: its changes and findings, and the timing it planned with. */
export interface ModeOutcome {
  readonly changes: ProposedChange[];
  readonly findings: ProposedFinding[];
  readonly timing: GatewayTiming;
  /**
   * Sleep mode where the annotation reaches the proxy: the terminationDrainDuration the plan needs
   * (T = R).
   */
  readonly terminationDrain?: Derived;
}

/** The gateway a mode plans for: its workload, the run, its shape, proxy and Istio version. */
export interface ModeSubject {
  readonly workload: Workload;
  readonly context: MutatorContext;
  readonly shape: GatewayShape;
  readonly proxy: Container;
  readonly istio: IstioVersion;
}

/** Returns env mode's changes for a gateway whose proxy runs Istio ≥ 1.12. */
export function envMode({ workload, context, shape, proxy, istio }: ModeSubject): ModeOutcome {
  const changes: ProposedChange[] = [];
  const findings: ProposedFinding[] = [];
  const reaches = proxyConfigReaches(workload, shape, proxy);
  const proxyConfig = reaches
    ? readProxyConfig(workload.template.metadata?.annotations?.[PROXY_CONFIG_ANNOTATION])
    : undefined;
  const drainText = proxyConfig?.ok ? proxyConfig.fields['drainDuration'] : undefined;
  const drainSeconds =
    typeof drainText === 'string' ? parseGoDurationSeconds(drainText) : undefined;
  const current = {
    minimum: envEntry(workload, proxy.name, 'MINIMUM_DRAIN_DURATION'),
    exit: envEntry(workload, proxy.name, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS'),
  };
  const timing = planGatewayTiming(
    workload,
    context,
    drainSeconds === undefined ? {} : { existingDrainDurationSeconds: Math.ceil(drainSeconds) },
    current.minimum,
  );
  if ('error' in timing) return { changes, findings: [timing.error], timing };
  const inputs = timing.resolved.inputs;
  const kept = keptMinimumPlan(timing.plan, inputs, current.minimum, `container ${proxy.name}`);
  const userPreStop = preStopSeconds(proxy.lifecycle?.preStop, context.spec.kubernetesVersion);
  // A hook of the user's runs before pilot-agent gets SIGTERM, so the proxy's minimum drain starts
  // only when it ends: a sleep of known length P is counted in G = P + S + R + B (issue #27 item
  // 14: a 60 s sleep left G = 205 s where 265 s were needed); one of unknown length cannot be.
  const plan =
    typeof userPreStop === 'number' && userPreStop > 0
      ? withHookInGrace(kept, userPreStop, inputs)
      : kept;
  if (userPreStop !== undefined && userPreStop !== 0)
    findings.push(preStopInEnvMode(workload, proxy.name, userPreStop, plan));

  const version = `Istio ${istio.version} (${istio.source})`;
  if (!envIsEditable(workload, proxy.name)) {
    findings.push({
      severity: 'warning',
      code: 'GATEWAY_ENV_NOT_A_LIST',
      message: `env of container ${proxy.name} is not a list; no env set.`,
      path: workload.containerAt(proxy.name, 'env'),
    });
  } else {
    const decision = decideEnvMode(current, plan);
    const outcome = envModeEnv(workload, proxy.name, decision, { plan, inputs, version });
    changes.push(...outcome.changes);
    findings.push(...outcome.findings);
  }

  const delivered = deliverDrainDuration(workload, proxy.name, {
    shape,
    istio,
    plan,
    inputs,
    proxyConfig,
    current: { text: drainText, seconds: drainSeconds },
  });
  changes.push(...delivered.changes);
  findings.push(...delivered.findings);

  changes.push(
    ...graceChange(
      workload,
      plan,
      inputs,
      "Env mode: S is the proxy's minimum drain (MINIMUM_DRAIN_DURATION), " +
        'which takes the place of a preStop sleep.',
    ),
  );
  return { changes, findings, timing: { ...timing, plan } };
}

/** The plan with G raised to cover a preStop sleep P of the user's before the drain. */
function withHookInGrace(plan: TimingPlan, P: number, inputs: TimingInputs): TimingPlan {
  const S = plan.preStopSeconds.value;
  const R = inputs.maxRequest.value;
  const B = inputs.buffer.value;
  const needed = P + S + R + B;
  if (plan.graceSeconds.value >= needed) return plan;
  return {
    ...plan,
    graceSeconds: {
      value: needed,
      formula: `G = P + S + R + B = ${P} + ${S} + ${R} + ${B} = ${needed}`,
      explanation:
        `The proxy's own preStop sleeps P = ${P} s before pilot-agent gets SIGTERM; then the ` +
        `minimum drain (S = ${S} s), the longest request (R = ${R} s) and the buffer ` +
        `(B = ${B} s) follow.`,
    },
  };
}

/** The finding for a preStop hook of the user's on the proxy container in env mode. */
function preStopInEnvMode(
  workload: Workload,
  container: string,
  userPreStop: number | 'unknown',
  plan: TimingPlan,
): ProposedFinding {
  return {
    severity: userPreStop === 'unknown' ? 'warning' : 'info',
    code: 'GATEWAY_PRESTOP_IN_ENV_MODE',
    message:
      `Container ${container} already has a preStop hook ` +
      (userPreStop === 'unknown'
        ? '(of a length that cannot be read); the proxy starts its drain only after that ' +
          `hook ends, and terminationGracePeriodSeconds G = ${plan.graceSeconds.value} s ` +
          'cannot count it. Remove the hook (env mode does its job), or use ' +
          '--gateway-mode sleep, which builds the grace period on it.'
        : `(sleeping ${userPreStop} s); the proxy starts its drain only after it ends, so ` +
          `the grace period counts it: ${plan.graceSeconds.formula}. Removing the hook ` +
          `would shorten the rollout by ${userPreStop} s (env mode does its job without it).`),
    path: workload.containerAt(container, 'lifecycle', 'preStop'),
  };
}
