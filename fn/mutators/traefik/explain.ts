/**
 * What `explain` says about a traefik-drain plan: the model's inputs W, R, B with their sources,
 * the derived S (requestAcceptGraceTimeout), R (graceTimeOut) and G, each TCP entry point's
 * life-cycle settings and the grace period as written and as patched, and the two timelines
 * (./timeline.ts), read back from the pod the way Traefik reads its static configuration.
 */
import type { PodTemplate } from '../../core/kubeObject.ts';
import { graceOf, preStopOf, readinessDelayOf } from '../../explanation/podSettings.ts';
import { meshesText, meshProxiesOf, meshProxyRows } from '../../explanation/meshProxies.ts';
import type { MeshProxies } from '../../explanation/meshProxies.ts';
import type { Valued } from '../../explanation/podSettings.ts';
import {
  container,
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
  SettingRow,
  SettingValue,
} from '../../explanation/types.ts';
import type { TimingInputs } from '../../timing/model.ts';
import { TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS } from './facts.ts';
import type { LifecycleSetting } from './facts.ts';
import type { TraefikPlan } from './plan.ts';
import { readStaticConfig } from './staticConfig/read.ts';
import type { LifecycleValue } from './staticConfig/read.ts';
import { traefikTimeline } from './timeline.ts';
import { pingTerminatingCode, readinessOnPing } from './pingEdit.ts';
import { withNodeForwarding } from '../../explanation/timeline.ts';
import type { EntryPointState, TraefikState } from './timeline.ts';

/** Traefik's value when a setting is not written (./facts.ts): no accept grace, graceTimeOut
 * 10 s. */
const DEFAULTS: Record<LifecycleSetting, number> = {
  requestAcceptGraceTimeout: 0,
  graceTimeOut: TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS,
};

/** A life-cycle value as Traefik reads it, in whole seconds, and where it came from. */
function lifecycleValued(
  value: LifecycleValue | undefined,
  setting: LifecycleSetting,
): Valued<number> {
  const where = value?.flag
    ? `flag --${value.flag.name}`
    : value?.envName
      ? `env ${value.envName}`
      : '';
  if (value === undefined) return { value: DEFAULTS[setting], source: `Traefik default (not set)` };
  if (value.seconds === undefined)
    return {
      value: DEFAULTS[setting],
      source: `${where} ${JSON.stringify(value.text)} is not a duration: Traefik refuses to start`,
    };
  return { value: Math.ceil(value.seconds), source: where };
}

/** Returns what the pod's Traefik container will shut down with, and its mesh proxies. */
function stateOf(
  template: PodTemplate,
  name: string,
  proxies: MeshProxies,
  kubernetesVersion: string,
): TraefikState {
  const traefik = container(template, name);
  const config = traefik ? readStaticConfig(traefik) : { source: 'none' as const };
  const entryPoints =
    config.source === 'flags' || config.source === 'env' ? config.entryPoints : [];
  const tcp: EntryPointState[] = entryPoints
    .filter((ep) => ep.protocol === 'tcp')
    .map((ep) => ({
      name: ep.name,
      requestAcceptGraceTimeout: lifecycleValued(
        ep.lifecycle.requestAcceptGraceTimeout,
        'requestAcceptGraceTimeout',
      ),
      graceTimeOut: lifecycleValued(ep.lifecycle.graceTimeOut, 'graceTimeOut'),
    }));
  const udpSeconds = Math.max(
    0,
    ...entryPoints
      .filter((ep) => ep.protocol === 'udp')
      .map(
        (ep) =>
          lifecycleValued(ep.lifecycle.requestAcceptGraceTimeout, 'requestAcceptGraceTimeout')
            .value + lifecycleValued(ep.lifecycle.graceTimeOut, 'graceTimeOut').value,
      ),
  );
  const ping = pingTerminatingCode(traefik);
  return {
    container: name,
    grace: graceOf(template),
    preStop: preStopOf(traefik, kubernetesVersion),
    entryPoints: tcp,
    udpSeconds,
    ping: { value: ping.code, source: ping.source },
    readinessDelay: readinessDelayOf(traefik),
    ...proxies,
  };
}

/** Returns the explanation of one Traefik workload's plan. */
export function explainTraefik(plan: TraefikPlan, context: ExplainContext): ExplanationBody {
  const { timing, container: name } = plan;
  const proxiesOf = (template: PodTemplate): MeshProxies =>
    plan.mesh ? meshProxiesOf(template, plan.mesh, context.spec) : {};
  const version = context.spec.kubernetesVersion;
  const before = stateOf(context.before, name, proxiesOf(context.before), version);
  const after = stateOf(context.after, name, proxiesOf(context.after), version);
  const sender = senderOf(plan.loadBalancer);
  const inputs: TimingInputs = {
    drainWindow: plan.inputs.drainWindow,
    maxRequest: plan.inputs.maxRequest,
    buffer: plan.inputs.buffer,
    ...(plan.inputs.loadBalancer ? { loadBalancer: plan.inputs.loadBalancer } : {}),
  };
  const entryPointRows: SettingRow[] = after.entryPoints.flatMap((ep) => {
    const was = before.entryPoints.find((b) => b.name === ep.name);
    return [
      row(
        `${ep.name} requestAcceptGraceTimeout`,
        seconds(was?.requestAcceptGraceTimeout ?? ep.requestAcceptGraceTimeout),
        seconds(ep.requestAcceptGraceTimeout),
        { symbol: 'S', value: timing.requestAcceptGrace.value, relation: '≥' },
      ),
      row(
        `${ep.name} graceTimeOut`,
        seconds(was?.graceTimeOut ?? ep.graceTimeOut),
        seconds(ep.graceTimeOut),
        { symbol: 'R', value: timing.graceTimeOut.value, relation: '≥' },
      ),
    ];
  });
  // Behind node targets with externalTrafficPolicy Local the node forwards only while Traefik is
  // ready; modelled where its readiness probe is /ping (./timeline.ts), unknown otherwise.
  const traefik = container(context.after, name);
  const trafficInputs = withNodeForwarding(
    traffic(inputs, sender),
    readinessOnPing(traefik) ? plan.nodeForwarding : undefined,
  );
  const pingRows: SettingRow[] =
    plan.nodeForwarding && readinessOnPing(traefik)
      ? [row(`${name} ping.terminatingStatusCode`, code(before.ping), code(after.ping))]
      : [];
  const meshes = plan.mesh ? meshesText(plan.mesh) : '';
  return {
    role: 'gateway',
    summary:
      `Traefik (container ${name}, static configuration from ` +
      `${plan.source === 'flags' ? 'flags' : 'TRAEFIK_* variables'}): ` +
      `entry points' transport.lifeCycle, never a preStop` +
      (meshes ? `; mesh: ${meshes}, the proxy Traefik reaches its backends through` : ''),
    inputs: inputsOf(inputs),
    derived: [
      output('S', 'requestAcceptGraceTimeout', timing.requestAcceptGrace),
      output('R', 'graceTimeOut', timing.graceTimeOut),
      output('G', 'grace period', timing.grace),
    ],
    settings: [
      graceRow(before.grace, after.grace, timing.grace.value, '≥'),
      preStopRow(name, context),
      ...entryPointRows,
      ...pingRows,
      // Sized by app-graceful, which explains the numbers (from ./servingSpan.ts).
      ...meshProxyRows(before, after),
    ],
    timelines: {
      asWritten: traefikTimeline(before, trafficInputs),
      patched: traefikTimeline(after, trafficInputs),
    },
  };
}

/** A status code as a settings row shows it. */
function code(value: Valued<number>): SettingValue {
  return { value: value.value, display: String(value.value), source: value.source };
}
