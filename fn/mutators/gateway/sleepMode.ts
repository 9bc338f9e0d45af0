/**
 * Sleep mode (docs/background.md#kubernetes-pod-termination, docs/background.md#the-timing-model):
 * a preStop sleep of S = W on the proxy container keeps the gateway serving, untouched, while the
 * load balancer drains; SIGTERM comes after. A preStop the user already wrote is never replaced or
 * merged into (docs/background.md#kubernetes-pod-termination: one handler per hook): it stays, and
 * the model builds the grace period on what it really sleeps.
 *
 * Injected gateways: the injector merges `lifecycle` field by field (docs/background.md#istio) and
 * the gateway template sets no preStop of its own (gateways are never native sidecars, so Istio's
 * native drain hook is not added), so the pod's preStop is the one that runs.
 *
 * After the sleep comes SIGTERM: without exit-on-zero pilot-agent drains the listeners, sleeps
 * terminationDrainDuration (default 5 s) and then kills Envoy (pkg/envoy/agent.go@1.9.0 and
 * @1.24.6 terminate). So the requests accepted until the sleep ends get terminationDrainDuration
 * to finish: T = R, written into `proxy.istio.io/config` wherever that reaches the proxy
 * (proxyConfigReach.ts), as env mode does for drainDuration. G = S + R + B already holds it.
 */
import { settingText } from '../../config/schema.ts';
import { parseGoDurationSeconds } from '../../timing/durations.ts';
import type { ProposedChange, ProposedFinding } from '../types.ts';
import type { ModeOutcome, ModeSubject } from './envMode.ts';
import { graceChange } from './grace.ts';
import { ISTIO_DEFAULT_TERMINATION_DRAIN_SECONDS } from '../../timing/platformDefaults.ts';
import { sleepPreStop } from './preStop.ts';
import { preStopSeconds } from '../../workloads/preStop.ts';
import { PROXY_CONFIG_ANNOTATION, readProxyConfig } from '../../workloads/istioProxyConfig.ts';
import { derivation } from './reasons.ts';
import { proxyConfigReaches } from './proxyConfigReach.ts';
import { ISTIO, reached } from '../../facts/versionGates.ts';
import { formatGoDurationSeconds } from '../../timing/durations.ts';
import { setProxyConfigField } from '../../workloads/istioProxyConfig.ts';
import type { Derived, TimingInputs } from '../../timing/model.ts';
import { POD_INFO_MOUNT_PATH } from '../../workloads/podAnnotationsFile.ts';
import { planGatewayTiming } from './timing.ts';
import { sourceLine } from '../../core/source.ts';

/** Returns sleep mode's changes for a gateway. */
export function sleepMode(subject: ModeSubject): ModeOutcome {
  const { workload, context, proxy } = subject;
  const changes: ProposedChange[] = [];
  const findings: ProposedFinding[] = [];
  const existing = preStopSeconds(proxy.lifecycle?.preStop, context.spec.kubernetesVersion);
  const timing = planGatewayTiming(
    workload,
    context,
    existing === undefined ? {} : { existingPreStopSeconds: existing },
  );
  if ('error' in timing) return { changes, findings: [timing.error], timing };
  const { plan, resolved } = timing;
  const inputs = resolved.inputs;

  if (existing === undefined) {
    const hook = sleepHook(subject, plan.preStopSeconds, inputs);
    if ('refused' in hook) return { changes, findings: [hook.refused], timing };
    changes.push(hook.change);
  }

  const drain = terminationDrain(subject, inputs);
  changes.push(...drain.changes);
  findings.push(...drain.findings);
  const R = inputs.maxRequest.value;
  const terminationDrainPlan = proxyConfigReaches(workload, subject.shape, proxy)
    ? {
        value: R,
        formula: `T = R = ${R}`,
        explanation:
          'After the preStop sleep pilot-agent drains, ' +
          'waits terminationDrainDuration and kills Envoy: ' +
          'the requests accepted until the sleep ended need R.',
      }
    : undefined;
  changes.push(
    ...graceChange(
      workload,
      plan,
      inputs,
      existing === undefined
        ? 'Sleep mode: S is the preStop sleep on the proxy container.'
        : `Sleep mode: S comes from the preStop hook already on container ${proxy.name}, ` +
            `which is kept.`,
    ),
  );
  return {
    changes,
    findings,
    timing,
    ...(terminationDrainPlan ? { terminationDrain: terminationDrainPlan } : {}),
  };
}

/** The preStop sleep S to write on the proxy, or the finding for why none can be. */
function sleepHook(
  { workload, context, proxy, istio }: ModeSubject,
  S: Derived,
  inputs: TimingInputs,
): { readonly change: ProposedChange } | { readonly refused: ProposedFinding } {
  const { spec, config } = context;
  const choice = sleepPreStop(
    S.value,
    {
      version: spec.kubernetesVersion,
      source: settingText(config, 'kubernetesVersion', 'kube-version'),
    },
    {
      value: spec.gateway.imageHasShell,
      source: settingText(config, 'gateway.imageHasShell', 'gateway-image-has-shell'),
    },
    reached(ISTIO.exitOnZero, istio.version),
  );
  // Without the sleep the plan's G has nothing to cover: write nothing rather than half a plan.
  if ('refused' in choice)
    return {
      refused: {
        severity: 'warning',
        code: 'GATEWAY_NO_PRESTOP',
        message: choice.refused,
        path: workload.containerAt(proxy.name, 'lifecycle', 'preStop'),
      },
    };
  return {
    change: {
      path: workload.containerAt(proxy.name, 'lifecycle', 'preStop'),
      value: choice.hook,
      reason: derivation('preStop sleep', `${S.value} s`, [S], {
        inputs,
        symbols: [],
        notes: [`Written as a ${choice.how}.`],
      }),
    },
  };
}

/**
 * terminationDrainDuration T = R: the wait after SIGTERM before pilot-agent kills Envoy must let
 * the last request accepted before the sleep ended finish. Written where the annotation reaches
 * the proxy; otherwise a finding offers only the remedies that work for this gateway and version.
 */
function terminationDrain(
  subject: ModeSubject,
  inputs: TimingInputs,
): { changes: ProposedChange[]; findings: ProposedFinding[] } {
  const { workload, shape, proxy } = subject;
  const R = inputs.maxRequest.value;
  const path = workload.at('metadata', 'annotations', PROXY_CONFIG_ANNOTATION);
  const reaches = proxyConfigReaches(workload, shape, proxy);
  const read = reaches
    ? readProxyConfig(workload.template.metadata?.annotations?.[PROXY_CONFIG_ANNOTATION])
    : undefined;
  const text = read?.ok ? read.fields['terminationDrainDuration'] : undefined;
  const seconds = typeof text === 'string' ? parseGoDurationSeconds(text) : undefined;
  const wait = seconds ?? ISTIO_DEFAULT_TERMINATION_DRAIN_SECONDS;
  if (wait >= R) return { changes: [], findings: [] };
  const istioDefault = `Istio's default ${ISTIO_DEFAULT_TERMINATION_DRAIN_SECONDS} s`;
  const value = formatGoDurationSeconds(R);
  if (read?.ok) {
    const merged = setProxyConfigField(read.text, ['terminationDrainDuration'], value);
    if (merged !== undefined) {
      const kept = Object.keys(read.fields).filter((k) => k !== 'terminationDrainDuration');
      const was = seconds === undefined ? istioDefault : JSON.stringify(text);
      return {
        changes: [
          {
            path,
            value: merged,
            reason: [
              `${PROXY_CONFIG_ANNOTATION} terminationDrainDuration = ${JSON.stringify(value)}: ` +
                `T = R = ${R}. ` +
                `After the preStop sleep container ${proxy.name} gets SIGTERM; ` +
                'pilot-agent drains the listeners, waits terminationDrainDuration ' +
                'and then kills Envoy (pkg/envoy/agent.go@1.9.0 and @1.24.6 terminate), ' +
                'so the requests accepted until the sleep ended need that wait to finish ' +
                `(it was ${was}).`,
              kept.length
                ? `Merged key by key into the existing ${PROXY_CONFIG_ANNOTATION}; kept: ` +
                  `${kept.join(', ')}.`
                : '',
              shape === 'legacy'
                ? `This gateway is not injected; ` +
                  `its pilot-agent reads ${PROXY_CONFIG_ANNOTATION} from the downward-API file ` +
                  `${POD_INFO_MOUNT_PATH}/annotations, ` +
                  `which the pod mounts (pilot/cmd/pilot-agent/config/config.go@1.9.0).`
                : '',
              sourceLine('R', inputs.maxRequest.source),
            ]
              .filter((line) => line !== '')
              .join('\n'),
          },
        ],
        findings: [],
      };
    }
  }
  return {
    changes: [],
    findings: [shortDrainFinding(subject, read, { text, seconds, R })],
  };
}

/** The warning where T = R cannot be written, with the remedies that work for this gateway. */
function shortDrainFinding(
  { proxy, istio, workload, shape }: ModeSubject,
  read: ReturnType<typeof readProxyConfig> | undefined,
  { text, seconds, R }: { text: unknown; seconds: number | undefined; R: number },
): ProposedFinding {
  const value = formatGoDurationSeconds(R);
  const reaches = proxyConfigReaches(workload, shape, proxy);
  const istioDefault = `Istio's default ${ISTIO_DEFAULT_TERMINATION_DRAIN_SECONDS} s`;
  const where =
    seconds === undefined ? istioDefault : `${JSON.stringify(text)} in ${PROXY_CONFIG_ANNOTATION}`;
  const remedies = [
    // Env mode needs EXIT_ON_ZERO_ACTIVE_CONNECTIONS, which this proxy may not have.
    ...(reached(ISTIO.exitOnZero, istio.version)
      ? ['use --gateway-mode env (exits at zero active connections)']
      : []),
    read && !read.ok
      ? `fix ${PROXY_CONFIG_ANNOTATION} (${read.problem}) and add terminationDrainDuration: ` +
        `${value} to it`
      : reaches
        ? `add terminationDrainDuration: ${value} to ${PROXY_CONFIG_ANNOTATION} by hand`
        : `mount the pod's annotations at ${POD_INFO_MOUNT_PATH} (a downwardAPI volume with ` +
          `item annotations ← metadata.annotations, ` +
          `as the legacy chart's podinfo volume) so kube-graceful can set ` +
          `terminationDrainDuration in ${PROXY_CONFIG_ANNOTATION}`,
    `set terminationDrainDuration to at least ${value} mesh-wide (meshConfig.defaultConfig)`,
  ];
  return {
    severity: 'warning',
    code: 'GATEWAY_TERMINATION_DRAIN_SHORT',
    message:
      `In sleep mode container ${proxy.name} gets SIGTERM after the preStop sleep; ` +
      `the proxy then drains its listeners, ` +
      `waits terminationDrainDuration (${where}) and kills Envoy ` +
      `(pkg/envoy/agent.go@1.9.0 and @1.24.6 terminate), ` +
      `cutting requests the plan gives R = ${R} s to finish. ` +
      `kube-graceful could not set it here. Fix: ${remedies.join('; or ')}.`,
  };
}
