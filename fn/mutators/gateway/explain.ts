/**
 * What `explain` says about a gateway-drain plan: the model's inputs and outputs, the proxy's
 * drain settings as written and as patched, and the timelines (./timeline.ts).
 */
import { PROXY_CONFIG_ANNOTATION } from '../../workloads/istioProxyConfig.ts';
import { mountsPodAnnotations } from '../../workloads/podAnnotationsFile.ts';
import { scalarText } from '../../core/scalarText.ts';
import type { PodTemplate } from '../../core/kubeObject.ts';
import { parseGoDurationSeconds } from '../../timing/durations.ts';
import {
  graceOf,
  istioDrainSettings,
  preStopOf,
  proxyConfigOf,
} from '../../explanation/podSettings.ts';
import {
  container,
  flag,
  graceRow,
  inputsOf,
  output,
  preStopRow,
  row,
  seconds,
  senderOf,
  traffic,
} from '../../explanation/rows.ts';
import type {
  ExplainContext,
  ExplanationBody,
  ModelOutput,
  SettingRow,
  SettingValue,
} from '../../explanation/types.ts';
import { ISTIO_DEFAULT_PARENT_SHUTDOWN_SECONDS } from '../shared/parentShutdown.ts';
import type { GatewayPlan } from './plan.ts';
import { withNodeForwarding } from '../../explanation/timeline.ts';
import { nodeForwardingOf } from '../../timing/loadBalancers.ts';
import { gatewayTimeline } from '../shared/istioGatewayTimeline.ts';
import type { GatewayState } from '../shared/istioGatewayTimeline.ts';
import { optionalTimeline, whenTheNodeGoesAway } from '../../explanation/nodeShutdown.ts';
import { ISTIO } from '../../facts/versionGates.ts';

/** Returns the explanation of one gateway's plan. */
export function explainGateway(plan: GatewayPlan, context: ExplainContext): ExplanationBody {
  const { inputs, shape, proxy: proxyName } = plan;
  const state = (template: PodTemplate): GatewayState => {
    const proxy = container(template, proxyName);
    return {
      proxy: proxyName,
      grace: graceOf(template),
      preStop: preStopOf(proxy, context.spec.kubernetesVersion),
      istio: istioDrainSettings({
        template,
        ...(proxy ? { container: proxy } : {}),
        injected: shape === 'injected',
        readsAnnotationsFile: proxy !== undefined && mountsPodAnnotations(template, proxy),
      }),
    };
  };
  const before = state(context.before);
  const after = state(context.after);
  const sender = senderOf(plan.loadBalancer);
  const env = plan.mode === 'env';
  const p = plan.plan;
  const derived: ModelOutput[] = [
    output('S', env ? 'serve before exit' : 'preStop sleep', p.preStopSeconds),
    output('G', 'grace period', p.graceSeconds),
    ...(env
      ? [
          output('M', 'MINIMUM_DRAIN_DURATION', p.minimumDrainSeconds),
          output('D', 'drainDuration', p.drainDurationSeconds),
        ]
      : []),
    ...(plan.terminationDrainSeconds
      ? [output('T', 'terminationDrainDuration', plan.terminationDrainSeconds)]
      : []),
  ];
  const settings = settingRows(plan, context, before, after);
  // Behind node targets with externalTrafficPolicy Local the gateway's timeline draws until when
  // the node forwards to it (fn/mutators/shared/istioGatewayTimeline.ts).
  const trafficInputs = withNodeForwarding(
    traffic(inputs, sender),
    nodeForwardingOf(plan.loadBalancer, context.spec.kubernetesVersion),
  );
  return {
    role: 'gateway',
    summary:
      `Istio gateway ` +
      `(${shape === 'injected' ? 'gateway chart, injected' : 'legacy chart, not injected'}), ` +
      `${plan.mode} mode; Istio ${plan.istio.version} (${plan.istio.source})`,
    inputs: inputsOf(inputs),
    derived,
    settings,
    timelines: {
      asWritten: gatewayTimeline(before, trafficInputs),
      patched: gatewayTimeline(after, trafficInputs),
      ...optionalTimeline(
        whenTheNodeGoesAway(inputs, after.grace, (grace) =>
          gatewayTimeline({ ...after, grace }, trafficInputs),
        ),
      ),
    },
  };
}

/** The Settings rows: each setting as written and as patched, and what the plan asks of it. */
function settingRows(
  plan: GatewayPlan,
  context: ExplainContext,
  before: GatewayState,
  after: GatewayState,
): SettingRow[] {
  const env = plan.mode === 'env';
  const p = plan.plan;
  const ignored = (v: SettingValue, exitOnZero: boolean): SettingValue =>
    exitOnZero ? { ...v, display: `${v.display} (unused: exit-on-zero)` } : v;
  return [
    graceRow(before.grace, after.grace, p.graceSeconds.value, '='),
    preStopRow(
      plan.proxy,
      context,
      env ? undefined : { symbol: 'S', value: p.preStopSeconds.value, relation: '=' },
    ),
    row(
      'EXIT_ON_ZERO_ACTIVE_CONNECTIONS',
      flag(before.istio.exitOnZero),
      flag(after.istio.exitOnZero),
      env ? { symbol: 'mode', value: true, relation: '=' } : undefined,
    ),
    row(
      'MINIMUM_DRAIN_DURATION',
      seconds(before.istio.minimumDrainSeconds),
      seconds(after.istio.minimumDrainSeconds),
      env ? { symbol: 'M', value: p.minimumDrainSeconds.value, relation: '=' } : undefined,
    ),
    row(
      'drainDuration',
      seconds(before.istio.drainDurationSeconds),
      seconds(after.istio.drainDurationSeconds),
      env ? { symbol: 'D', value: p.drainDurationSeconds.value, relation: '≥' } : undefined,
    ),
    row(
      'terminationDrainDuration',
      ignored(seconds(before.istio.terminationDrainSeconds), before.istio.exitOnZero.value),
      ignored(seconds(after.istio.terminationDrainSeconds), after.istio.exitOnZero.value),
      plan.terminationDrainSeconds
        ? { symbol: 'T', value: plan.terminationDrainSeconds.value, relation: '≥' }
        : undefined,
    ),
    // Istio < 1.17 rejects a parentShutdownDuration not above drainDuration
    // (fn/mutators/shared/parentShutdown.ts); shown where either side sets it.
    ...parentShutdownRows(context, plan),
  ];
}

/** A parentShutdownDuration row, when the annotation sets one as written or as patched. */
function parentShutdownRows(context: ExplainContext, plan: GatewayPlan): SettingRow[] {
  const read = (template: PodTemplate): SettingValue | undefined => {
    const proxy = container(template, plan.proxy);
    if (plan.shape !== 'injected' && !(proxy && mountsPodAnnotations(template, proxy)))
      return undefined;
    const raw = proxyConfigOf(template).fields['parentShutdownDuration'];
    if (raw === undefined || raw === null) return undefined;
    const value = parseGoDurationSeconds(scalarText(raw));
    return value === undefined
      ? {
          value: scalarText(raw),
          display: scalarText(raw),
          source: `${PROXY_CONFIG_ANNOTATION} (not a Go duration)`,
        }
      : {
          value: Math.ceil(value),
          display: `${Math.ceil(value)} s`,
          source: PROXY_CONFIG_ANNOTATION,
        };
  };
  const before = read(context.before);
  const after = read(context.after);
  if (!before && !after) return [];
  const unset: SettingValue = {
    value: ISTIO_DEFAULT_PARENT_SHUTDOWN_SECONDS,
    display: `${ISTIO_DEFAULT_PARENT_SHUTDOWN_SECONDS} s`,
    source:
      `Istio default up to ${previousMinor(ISTIO.parentShutdownIgnored.since)} (not set); ` +
      `ignored from ${ISTIO.parentShutdownIgnored.since}`,
  };
  return [row('parentShutdownDuration', before ?? unset, after ?? unset)];
}

/** `1.17` → `1.16`. */
function previousMinor(version: string): string {
  const [major, minor] = version.split('.').map(Number);
  return `${major}.${(minor ?? 1) - 1}`;
}
