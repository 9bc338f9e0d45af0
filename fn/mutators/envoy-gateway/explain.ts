/**
 * What `explain` says about an EnvoyProxy the envoy-gateway mutator planned for: W, H, R and B with
 * their sources, M, D and G derived, spec.shutdown as written and as patched, and the proxy's
 * shutdown timeline in each state (./timeline.ts).
 */
import type { KubeObject } from '../../core/kubeObject.ts';
import { inputsOf, output, row } from '../../explanation/rows.ts';
import { withNodeForwarding } from '../../explanation/timeline.ts';
import type {
  ExplanationBody,
  ModelInput,
  SettingRow,
  SettingValue,
} from '../../explanation/types.ts';
import type { ObjectExplainContext } from '../types.ts';
import { envoyProxyLocation } from './attachment.ts';
import { mergeSpecs } from './merge.ts';
import type { EnvoyProxySpec } from './objects.ts';
import { readControllerConfig } from './controllerConfig.ts';
import { readDuration } from './durations.ts';
import {
  DEFAULT_DRAIN_TIMEOUT_SECONDS,
  DEFAULT_MIN_DRAIN_SECONDS,
  GRACE_OVER_DRAIN_TIMEOUT_SECONDS,
  READY_TIMEOUT_OVER_DRAIN_TIMEOUT_SECONDS,
} from './facts.ts';
import { patchedGrace } from './patchedGrace.ts';
import type { EnvoyGatewayPlan } from './plan.ts';
import { envoyProxyTimeline } from './timeline.ts';
import type { ProxyState } from './timeline.ts';

const DEFAULTS_SOURCE = 'internal/cmd/envoy.go@v1.9.0';

interface Read {
  readonly state: ProxyState;
  readonly values: Record<keyof ProxyState, SettingValue>;
}

/** Returns the explanation of one EnvoyProxy's plan. */
export function explainEnvoyGateway(
  plan: EnvoyGatewayPlan,
  context: ObjectExplainContext,
): ExplanationBody {
  const base = plan.mergedOver;
  const before = read(context.before, base && { spec: base.asWritten, label: base.label });
  const after = read(context.after, base && { spec: base.patched, label: base.label });
  const { shutdown, inputs } = plan;
  const settings: SettingRow[] = [
    row(
      'shutdown.minDrainDuration',
      before.values.minDrainDuration,
      after.values.minDrainDuration,
      { symbol: 'M', value: shutdown.minDrainDuration.value, relation: '≥' },
    ),
    row('shutdown.drainTimeout', before.values.drainTimeout, after.values.drainTimeout, {
      symbol: 'D',
      value: shutdown.drainTimeout.value,
      relation: '≥',
    }),
    row(
      'shutdown.healthCheckFailureDelay',
      before.values.healthCheckFailureDelay,
      after.values.healthCheckFailureDelay,
    ),
    row('proxy pod terminationGracePeriodSeconds', before.values.grace, after.values.grace, {
      symbol: 'G',
      value: shutdown.drainTimeout.value + READY_TIMEOUT_OVER_DRAIN_TIMEOUT_SECONDS,
      relation: '≥',
    }),
  ];
  const H = shutdown.healthCheckFailureDelaySeconds;
  const modelInputs: ModelInput[] = inputsOf(inputs);
  if (H > 0)
    modelInputs.splice(1, 0, {
      symbol: 'H',
      name: 'healthCheckFailureDelay',
      value: H,
      unit: 's',
      source: `${plan.label} spec.shutdown.healthCheckFailureDelay`,
    });
  // Behind the node with Local, Envoy's readiness while it drains is modelled (./readiness.ts):
  // the timeline draws until when the node forwards, no longer unknown.
  const traffic = withNodeForwarding(
    {
      drainWindowSeconds: inputs.drainWindow.value,
      maxRequestSeconds: inputs.maxRequest.value,
      sender: 'from the load balancer',
      ...(inputs.drainWindow.unknown ? { unknown: inputs.drainWindow.unknown } : {}),
    },
    inputs.nodeForwarding,
  );
  return {
    role: 'gateway',
    summary:
      `Envoy Gateway proxy settings (${plan.label}): ` +
      `the proxy Deployment is generated in the cluster from them`,
    inputs: modelInputs,
    derived: [
      output('M', 'minDrainDuration', shutdown.minDrainDuration),
      output('D', 'drainTimeout', shutdown.drainTimeout),
      output('G', 'proxy pod grace period', shutdown.grace),
    ],
    settings,
    timelines: {
      asWritten: envoyProxyTimeline(before.state, traffic),
      patched: envoyProxyTimeline(after.state, traffic),
    },
  };
}

/**
 * The shutdown settings of one state of the EnvoyProxy (or of the default spec in Envoy Gateway's
 * config), merged over `base` where its mergeType merges it, with Envoy Gateway's defaults where
 * a field is absent.
 */
function read(
  object: KubeObject,
  base?: { readonly spec: EnvoyProxySpec; readonly label: string },
): Read {
  const config = readControllerConfig(object);
  const written =
    config.state === 'ok' && config.defaultSpec ? config.defaultSpec : envoyProxyLocation(object);
  const location = base ? { ...written, spec: mergeSpecs(base.spec, written.spec) } : written;
  const shutdown = location.spec.shutdown ?? {};
  const own = written.spec.shutdown ?? {};
  type Field = 'minDrainDuration' | 'drainTimeout' | 'healthCheckFailureDelay';
  const duration = (field: Field, fallback: number, defaultSource: string): SettingValue => {
    const parsed = readDuration(shutdown[field]);
    const inherited = base !== undefined && own[field] == null;
    if (parsed.kind === 'seconds')
      return {
        value: parsed.seconds,
        display: parsed.text,
        source: inherited ? `merged from ${base.label}` : 'manifest',
      };
    // An unreadable value leaves no plan, so no explanation: only absent is left here.
    return { value: fallback, display: `${fallback}s`, source: defaultSource };
  };
  const minDrainDuration = duration(
    'minDrainDuration',
    DEFAULT_MIN_DRAIN_SECONDS,
    `Envoy Gateway default, field not set (${DEFAULTS_SOURCE})`,
  );
  const drainTimeout = duration(
    'drainTimeout',
    DEFAULT_DRAIN_TIMEOUT_SECONDS,
    `Envoy Gateway default, field not set (${DEFAULTS_SOURCE})`,
  );
  const healthCheckFailureDelay = duration(
    'healthCheckFailureDelay',
    0,
    'not set: health checks fail as the drain starts ' +
      '(internal/cmd/envoy/shutdown_manager.go@v1.9.0)',
  );
  const D = drainTimeout.value as number;
  const patched = patchedGrace(location);
  const grace: SettingValue = patched
    ? {
        value: patched.seconds,
        display: `${patched.seconds} s`,
        source: `${patched.workloadField}.patch`,
      }
    : {
        value: D + GRACE_OVER_DRAIN_TIMEOUT_SECONDS,
        display: `${D + GRACE_OVER_DRAIN_TIMEOUT_SECONDS} s`,
        source:
          `written by Envoy Gateway: drainTimeout + ${GRACE_OVER_DRAIN_TIMEOUT_SECONDS} ` +
          '(internal/infrastructure/kubernetes/proxy/resource_provider.go@v1.9.0)',
      };
  return {
    state: {
      healthCheckFailureDelay: healthCheckFailureDelay.value as number,
      minDrainDuration: minDrainDuration.value as number,
      drainTimeout: D,
      grace: grace.value as number,
    },
    values: { minDrainDuration, drainTimeout, healthCheckFailureDelay, grace },
  };
}
