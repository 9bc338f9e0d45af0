/**
 * Building blocks of a mutator's explanation: settings rows, the model's inputs and outputs, and
 * the traffic side of the timeline, each from the timing model's own values.
 */
import type { Container, PodTemplate } from '../core/kubeObject.ts';
import { LOAD_BALANCERS } from '../timing/loadBalancers.ts';
import type { LoadBalancerProvider } from '../timing/loadBalancers.ts';
import type { Derived, TimingInputs } from '../timing/model.ts';
import { preStopOf } from './podSettings.ts';
import type { Valued } from './podSettings.ts';
import type { Traffic } from './timeline.ts';
import type {
  ExplainContext,
  ModelInput,
  ModelOutput,
  Planned,
  SettingRow,
  SettingValue,
} from './types.ts';
import { sourceText } from '../core/source.ts';

/** A number of seconds as a setting value. */
export function seconds(valued: Valued<number>): SettingValue {
  return {
    value: valued.value,
    display: valued.display ?? `${valued.value} s`,
    source: valued.source,
  };
}

/** A switch as a setting value (`on`/`off`). */
export function flag(valued: Valued<boolean>): SettingValue {
  return { value: valued.value, display: valued.value ? 'on' : 'off', source: valued.source };
}

/** A word as a setting value. */
export function text(valued: Valued<string>): SettingValue {
  return { value: valued.value, display: valued.value, source: valued.source };
}

/**
 * Returns a settings row; `planned` says what the plan wanted, and the row whether the patched
 * value meets it.
 */
export function row(
  name: string,
  asWritten: SettingValue,
  patched: SettingValue,
  planned?: Planned,
): SettingRow {
  const met =
    planned === undefined
      ? true
      : planned.relation === '='
        ? patched.value === planned.value
        : typeof patched.value === 'number' &&
          typeof planned.value === 'number' &&
          patched.value >= planned.value;
  return {
    name,
    asWritten,
    patched,
    changed: asWritten.value !== patched.value || asWritten.source !== patched.source,
    ...(planned ? { planned: { ...planned, met } } : {}),
  };
}

/** A container's preStop hook as a setting value. */
export function preStopValue(
  container: Container | undefined,
  kubernetesVersion?: string,
): SettingValue {
  const read = preStopOf(container, kubernetesVersion);
  return {
    value: read.seconds === 'unknown' ? read.text : read.seconds,
    display: read.text,
    source: read.handler ? 'manifest' : 'no hook',
  };
}

/** Returns the pod's container of this name. */
export function container(template: PodTemplate, name: string): Container | undefined {
  return (template.spec?.containers ?? []).find((c) => c.name === name);
}

/** The model's inputs W, R, B (and the load balancer's deregistration delay when known). */
export function inputsOf(inputs: TimingInputs): ModelInput[] {
  const rows: ModelInput[] = [
    {
      symbol: 'W',
      name: 'drain window',
      value: inputs.drainWindow.value,
      unit: 's',
      source: sourceText(inputs.drainWindow.source),
    },
    {
      symbol: 'R',
      name: 'longest request',
      value: inputs.maxRequest.value,
      unit: 's',
      source: sourceText(inputs.maxRequest.source),
    },
    {
      symbol: 'B',
      name: 'buffer',
      value: inputs.buffer.value,
      unit: 's',
      source: sourceText(inputs.buffer.source),
    },
  ];
  const dereg = inputs.loadBalancer?.deregistrationDelaySeconds;
  if (dereg && inputs.loadBalancer?.closing === 'gke-connection-draining')
    rows.push({
      name: 'LB closes connections',
      value: dereg.value,
      unit: 's',
      source: sourceText(dereg.source),
    });
  else if (dereg) {
    const termination = inputs.loadBalancer?.connectionTermination ? 'on' : 'off';
    rows.push({
      name: 'LB deregistration delay',
      value: dereg.value,
      unit: 's',
      source: `${sourceText(dereg.source)}; connection termination ${termination}`,
    });
  }
  const budget = inputs.nodeShutdownBudget;
  if (budget)
    rows.push({
      name: 'node shutdown budget',
      value: budget.value,
      unit: 's',
      source: sourceText(budget.source),
    });
  return rows;
}

/** A duration the model derived, as explain shows it. */
export function output(symbol: ModelOutput['symbol'], name: string, derived: Derived): ModelOutput {
  return {
    symbol,
    name,
    seconds: derived.value,
    formula: derived.formula,
    explanation: derived.explanation,
  };
}

/**
 * Where new connections come from, as a phrase after "arrive": the load balancer that decided W,
 * or the clients whose endpoints are not yet updated.
 */
export function senderOf(loadBalancer: { readonly provider: LoadBalancerProvider } | undefined) {
  // In-cluster traffic has no load balancer: the senders are the clients (kube-proxy, proxies).
  return loadBalancer && loadBalancer.provider !== 'in-cluster'
    ? `from the load balancer (${LOAD_BALANCERS[loadBalancer.provider].label})`
    : 'from clients whose endpoints are not yet updated';
}

/** The traffic side of the timeline: W, R, who sends, and the load balancer's own timer. */
export function traffic(inputs: TimingInputs, sender: string): Traffic {
  const dereg = inputs.loadBalancer?.deregistrationDelaySeconds;
  return {
    drainWindowSeconds: inputs.drainWindow.value,
    maxRequestSeconds: inputs.maxRequest.value,
    sender,
    ...(inputs.drainWindow.unknown ? { unknown: inputs.drainWindow.unknown } : {}),
    ...(dereg
      ? {
          deregistration: {
            seconds: dereg.value,
            connectionTermination: inputs.loadBalancer?.connectionTermination === true,
            ...(inputs.loadBalancer?.closing ? { closing: inputs.loadBalancer.closing } : {}),
          },
        }
      : {}),
  };
}

/** The `terminationGracePeriodSeconds` row every pod's explanation has, against the plan's G. */
export function graceRow(
  before: Valued<number>,
  after: Valued<number>,
  G: number,
  relation: Planned['relation'],
): SettingRow {
  return row('terminationGracePeriodSeconds', seconds(before), seconds(after), {
    symbol: 'G',
    value: G,
    relation,
  });
}

/**
 * The row of container `name`'s preStop, as written and as patched, read as the oldest kubelet
 * runs it (a sleep action below 1.30 does not run: fn/workloads/preStop.ts).
 */
export function preStopRow(name: string, context: ExplainContext, planned?: Planned): SettingRow {
  const version = context.spec.kubernetesVersion;
  return row(
    `${name} preStop`,
    preStopValue(container(context.before, name), version),
    preStopValue(container(context.after, name), version),
    planned,
  );
}
