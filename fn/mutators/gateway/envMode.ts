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
 * - drainDuration: a ProxyConfig field, delivered by the `proxy.istio.io/config` annotation.
 *   Injected gateways get it at injection; a legacy gateway's pilot-agent reads it from the
 *   downward-API annotations file where the pod mounts it (proxyConfigReach.ts). Where neither
 *   holds, nothing is written and a finding says so.
 * - parentShutdownDuration: up to Istio 1.16 it must stay above drainDuration or the pod is
 *   denied (parentShutdown.ts); written into the same merge where the version may enforce it.
 */
import { formatGoDurationSeconds, parseGoDurationSeconds } from '../../timing/durations.ts';
import type { GatewayShape } from '../../workloads/gatewayShape.ts';
import type { Container } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { MutatorContext, ProposedChange, ProposedFinding } from '../types.ts';
import { envEntry, envIsEditable } from '../shared/env.ts';
import { decideEnvMode, drainDurationToWrite, keptMinimumPlan } from '../shared/istioEnvMode.ts';
import { envModeEnv } from './envModeEnv.ts';
import { graceChange } from './grace.ts';
import { preStopSeconds } from '../../workloads/preStop.ts';
import {
  PROXY_CONFIG_ANNOTATION,
  readProxyConfig,
  setProxyConfigField,
} from '../../workloads/istioProxyConfig.ts';
import { derivation } from './reasons.ts';
import {
  ISTIO_MAX_DRAIN_SECONDS,
  parentShutdownEnforced,
  parentShutdownFor,
} from '../shared/parentShutdown.ts';
import { proxyConfigReaches } from './proxyConfigReach.ts';
import { POD_INFO_MOUNT_PATH } from '../../workloads/podAnnotationsFile.ts';
import { planGatewayTiming } from './timing.ts';
import type { GatewayTiming } from './timing.ts';
import type { Derived, TimingInputs, TimingPlan } from '../../timing/model.ts';
import type { IstioVersion } from './version.ts';
import { ISTIO_DEFAULT_DRAIN_DURATION_SECONDS } from '../../timing/platformDefaults.ts';
import { ISTIO } from '../../facts/versionGates.ts';

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

/** Returns env mode's changes for a gateway whose proxy runs Istio ≥ 1.12. */
export function envMode(
  workload: Workload,
  context: MutatorContext,
  shape: GatewayShape,
  proxy: Container,
  istio: IstioVersion,
): ModeOutcome {
  const changes: ProposedChange[] = [];
  const findings: ProposedFinding[] = [];
  const annotationPath = workload.at('metadata', 'annotations', PROXY_CONFIG_ANNOTATION);
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

  const drain = plan.drainDurationSeconds;
  const drainValue = formatGoDurationSeconds(drain.value);
  if (!proxyConfig) {
    if (drain.value > ISTIO_DEFAULT_DRAIN_DURATION_SECONDS) {
      findings.push({
        severity: 'warning',
        code: 'GATEWAY_DRAIN_DURATION_NOT_DELIVERED',
        message:
          `This gateway needs drainDuration ${drainValue} (${drain.formula}) so Envoy keeps ` +
          `its listeners open while the load balancer may still send, ` +
          `but it is not injected (legacy chart) and container ${proxy.name} does not mount ` +
          `the downward-API file ${POD_INFO_MOUNT_PATH}/annotations, ` +
          `which is how pilot-agent reads ${PROXY_CONFIG_ANNOTATION} without injection ` +
          `(pilot/cmd/pilot-agent/config/config.go@1.16.7): ` +
          `kube-graceful writes nothing that would do nothing. ` +
          `Envoy closes its listeners after ${ISTIO_DEFAULT_DRAIN_DURATION_SECONDS} s. ` +
          `Mount a downwardAPI volume with item annotations ← metadata.annotations at ` +
          `${POD_INFO_MOUNT_PATH} (the legacy chart's podinfo volume), ` +
          `set drainDuration mesh-wide (meshConfig.defaultConfig.drainDuration), ` +
          `or move to the gateway chart.`,
      });
    }
  } else if (!proxyConfig.ok) {
    findings.push(notMergeable(proxyConfig.problem, drainValue, annotationPath));
  } else {
    changes.push(
      ...proxyConfigChange(
        workload,
        proxyConfig.text,
        proxyConfig.fields,
        { drain, drainText, drainSeconds },
        istio,
        inputs,
        shape,
        findings,
        annotationPath,
      ),
    );
  }

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

function notMergeable(
  problem: string,
  drainValue: string,
  path: ProposedFinding['path'],
): ProposedFinding {
  return {
    severity: 'warning',
    code: 'PROXY_CONFIG_NOT_MERGEABLE',
    message:
      `${PROXY_CONFIG_ANNOTATION} is left as it is: ${problem}. ` +
      `The drain plan needs drainDuration: ` +
      `${drainValue} in it (Envoy closes its listeners after drainDuration); add it by hand.`,
    ...(path ? { path } : {}),
  };
}

/**
 * Returns the one change to `proxy.istio.io/config`: drainDuration raised to D where needed, and
 * parentShutdownDuration above the resulting drainDuration where the Istio version may enforce
 * that (parentShutdown.ts). None when the annotation already holds both.
 */
function proxyConfigChange(
  _workload: Workload,
  text: string,
  fields: Readonly<Record<string, unknown>>,
  current: { drain: Derived; drainText: unknown; drainSeconds: number | undefined },
  istio: IstioVersion,
  inputs: TimingInputs,
  shape: GatewayShape,
  findings: ProposedFinding[],
  annotationPath: ProposedChange['path'],
): ProposedChange[] {
  const { drain, drainText, drainSeconds } = current;
  const drainValue = formatGoDurationSeconds(drain.value);
  let merged = text;
  const written: string[] = [];
  const notes: string[] = [];
  if (drainDurationToWrite({ text: drainText, seconds: drainSeconds }, drain.value)) {
    const next = setProxyConfigField(merged, ['drainDuration'], drainValue);
    if (next === undefined) {
      findings.push(
        notMergeable(
          'it could not be edited without changing other fields',
          drainValue,
          annotationPath,
        ),
      );
      return [];
    }
    merged = next;
    written.push('drainDuration');
    if (drainText !== undefined && drainSeconds === undefined)
      notes.push(`The old value ${JSON.stringify(drainText)} is not a duration Istio can read.`);
  }
  const effectiveDrain = written.includes('drainDuration')
    ? drain.value
    : Math.ceil(drainSeconds ?? ISTIO_DEFAULT_DRAIN_DURATION_SECONDS);
  if (effectiveDrain > ISTIO_MAX_DRAIN_SECONDS) {
    findings.push({
      severity: 'warning',
      code: 'GATEWAY_DRAIN_DURATION_TOO_LONG',
      message:
        `drainDuration ${effectiveDrain} s is over Istio's cap of ${ISTIO_MAX_DRAIN_SECONDS} ` +
        `s (pkg/config/validation/validation.go@1.16.7 drainTimeMax; ` +
        `same in later releases): Istio rejects it. Lower the drain window.`,
      path: annotationPath,
    });
  }
  if (parentShutdownEnforced(istio)) {
    const own = fields['parentShutdownDuration'];
    const ownSeconds = typeof own === 'string' ? parseGoDurationSeconds(own) : undefined;
    const parent = parentShutdownFor(
      effectiveDrain,
      ownSeconds === undefined ? undefined : Math.ceil(ownSeconds),
    );
    if (parent) {
      const next = setProxyConfigField(
        merged,
        ['parentShutdownDuration'],
        formatGoDurationSeconds(parent.value),
      );
      if (next === undefined) {
        findings.push(
          notMergeable(
            'it could not be edited without changing other fields',
            drainValue,
            annotationPath,
          ),
        );
        return [];
      }
      merged = next;
      written.push('parentShutdownDuration');
      notes.push(
        `parentShutdownDuration = ${JSON.stringify(formatGoDurationSeconds(parent.value))}: ` +
          `${parent.formula}. Istio up to 1.16 denies a pod whose parentShutdownDuration ` +
          `(default 60 s) is not greater than its drainDuration ` +
          `(pkg/config/validation/validation.go@1.16.7 ValidateParentAndDrain; ` +
          `pkg/kube/inject/validate.go@1.16.7); ` +
          `from ${ISTIO.parentShutdownIgnored.since} the field is ignored. ` +
          `Written because this proxy is Istio ${istio.version} ` +
          `(${istio.source})${istio.known ? '' : ', a version nothing in the manifest states'}.`,
      );
    }
  }
  if (written.length === 0) return [];
  const kept = Object.keys(fields).filter((k) => !written.includes(k));
  notes.push(
    kept.length
      ? `Merged key by key into the existing ${PROXY_CONFIG_ANNOTATION}; kept: ${kept.join(', ')}.`
      : `Istio's default drainDuration is ${ISTIO_DEFAULT_DRAIN_DURATION_SECONDS} s ` +
          `(pkg/config/mesh/mesh.go@1.16.7, unchanged through 1.30).`,
  );
  if (shape === 'legacy') {
    notes.push(
      `This gateway is not injected; its pilot-agent reads ${PROXY_CONFIG_ANNOTATION} from ` +
        `the downward-API file ${POD_INFO_MOUNT_PATH}/annotations, ` +
        `which the pod mounts (pilot/cmd/pilot-agent/config/config.go@1.16.7).`,
    );
  }
  const reason = written.includes('drainDuration')
    ? derivation(
        `${PROXY_CONFIG_ANNOTATION} drainDuration`,
        JSON.stringify(drainValue),
        [drain],
        inputs,
        ['W', 'B'],
        notes,
      )
    : // Only parentShutdownDuration: the drainDuration it is measured against is the pod's own.
      [`${PROXY_CONFIG_ANNOTATION} ${notes[0]!}`, ...notes.slice(1)].join('\n');
  return [{ path: annotationPath, value: merged, reason }];
}
