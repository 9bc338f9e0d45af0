/**
 * The timing model's inputs for one workload, each with where it came from: W from the
 * Services (and Ingresses in front of them) in the stream that select the pods, unless config or
 * a `kube-graceful.dev/` annotation sets W or the provider; R and B from config or defaults.
 */
import { settingSource } from '../../config/schema.ts';
import type { Source } from '../../core/source.ts';
import type { ProposedFinding, MutatorContext } from '../types.ts';
import { ingressesIn, servicesSelecting } from '../../workloads/inventory.ts';
import { labelsOf } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import { comparableGraceSeconds } from '../../workloads/grace.ts';
import {
  ingressBackendServiceNames,
  LOAD_BALANCERS,
  pickDrainWindow,
  recognizeIngressLoadBalancer,
  recognizeServiceLoadBalancer,
  serviceSelectsPod,
  unknownDrainWindow,
  userProviderOverUnknown,
} from '../../timing/loadBalancers.ts';
import type { LoadBalancerProvider, LoadBalancerRecognition } from '../../timing/loadBalancers.ts';
import { connectionClosingInputs } from '../../timing/connectionClosing.ts';
import {
  capacityBudget,
  NODE_SHUTDOWN_PRESETS,
  nodePoolBudget,
} from '../../timing/nodeShutdown.ts';
import { routedLoadBalancers } from './routedLoadBalancers.ts';
import type { Sourced, TimingInputs } from '../../timing/model.ts';

/** Timing inputs plus findings about how they were found (estimates, assumptions). */
/** The finding codes of this module: how W was found. */
export const TIMING_INPUT_FINDING_CODES = [
  'DRAIN_WINDOW_ESTIMATE',
  'LB_ASSUMPTION',
  'NO_SERVICE_IN_STREAM',
] as const;

export interface ResolvedInputs {
  readonly inputs: TimingInputs;
  /** The load balancer that decided W, when one did. */
  readonly loadBalancer?: LoadBalancerRecognition;
  readonly findings: ProposedFinding[];
}

/** Extra facts a mutator read from the workload (an existing preStop, drainDuration). */
export type ExistingTiming = Pick<
  TimingInputs,
  'existingPreStopSeconds' | 'existingDrainDurationSeconds'
>;

/** The timing values the settings give, each with where it was set. */
export interface ConfiguredTiming {
  /** R and B, from the settings or their defaults. */
  readonly maxRequest: Sourced;
  readonly buffer: Sourced;
  /** W, only when the settings set it (it otherwise comes from the load balancer in front). */
  readonly drainWindow?: Sourced;
  /** The load balancer the settings name, taken where the stream shows none or only a guess. */
  readonly provider?: { readonly provider: LoadBalancerProvider; readonly source: Source };
}

/** Returns R, B and a W set by the settings, with their sources (every mutator's timing). */
export function configuredTiming({
  spec,
  config,
}: Pick<MutatorContext, 'spec' | 'config'>): ConfiguredTiming {
  const drainWindow = spec.loadBalancer.drainWindowSeconds;
  const provider = spec.loadBalancer.provider;
  return {
    ...(provider !== undefined
      ? {
          provider: {
            provider,
            source: settingSource(config, 'loadBalancer.provider', 'lb-provider'),
          },
        }
      : {}),
    maxRequest: {
      value: spec.timing.maxRequestSeconds,
      source: settingSource(config, 'timing.maxRequestSeconds', 'max-request'),
    },
    buffer: {
      value: spec.timing.bufferSeconds,
      source: settingSource(config, 'timing.bufferSeconds', 'buffer'),
    },
    ...(drainWindow !== undefined
      ? {
          drainWindow: {
            value: drainWindow,
            source: settingSource(config, 'loadBalancer.drainWindowSeconds', 'drain-window'),
          },
        }
      : {}),
  };
}

/** Returns the timing inputs for a workload's pods. */
export function resolveTimingInputs(
  workload: Workload,
  context: MutatorContext,
  existing: ExistingTiming = {},
): ResolvedInputs {
  const grace = comparableGraceSeconds(workload.template);
  const { drainWindow, maxRequest, buffer, provider: user } = configuredTiming(context);
  const budget = nodeShutdownBudget(workload, context);
  const common = {
    maxRequest,
    buffer,
    ...(grace === undefined ? {} : { existingGraceSeconds: grace }),
    ...(budget === undefined ? {} : { nodeShutdownBudget: budget }),
    ...existing,
  };
  const inFront = loadBalancersInFront(workload, context);
  const recognized = inFront && {
    alsoConsidered: inFront.alsoConsidered,
    ...userProviderOverUnknown(inFront, user),
  };
  if (drainWindow) {
    return {
      inputs: {
        ...common,
        drainWindow,
        ...deregistration(recognized),
      },
      ...(recognized ? { loadBalancer: recognized } : {}),
      findings: [],
    };
  }
  if (recognized) return fromLoadBalancer(common, recognized);
  return fromAssumed(common, context);
}

/** The inputs common to every source of W: R, B, the pod's own values and the node budget. */
type CommonInputs = Omit<TimingInputs, 'drainWindow' | 'loadBalancer'>;

/** W from the load balancer recognised in front of the pods, with its findings. */
function fromLoadBalancer(
  common: CommonInputs,
  recognized: LoadBalancerRecognition & { readonly alsoConsidered: string[] },
): ResolvedInputs {
  const findings: ProposedFinding[] = [];
  if (recognized.note)
    findings.push({ severity: 'warning', code: 'LB_ASSUMPTION', message: recognized.note });
  if (recognized.estimate) {
    findings.push({
      severity: 'info',
      code: 'DRAIN_WINDOW_ESTIMATE',
      message:
        `W=${recognized.drainWindowSeconds} s for ` +
        `${LOAD_BALANCERS[recognized.provider].label} is an estimate ` +
        `(${LOAD_BALANCERS[recognized.provider].basis}); ` +
        `measure it and set kube-graceful.dev/drain-window or --drain-window to override.`,
    });
  }
  return {
    inputs: {
      ...common,
      drainWindow: {
        value: recognized.drainWindowSeconds,
        source: {
          kind: 'load-balancer',
          evidence: recognized.evidence,
          alsoInFront: recognized.alsoConsidered,
        },
        ...unknownOf(recognized),
      },
      ...deregistration(recognized),
    },
    loadBalancer: recognized,
    findings,
  };
}

/** W of the load balancer the settings name, or of an in-cluster Service, where none is seen. */
function fromAssumed(
  common: CommonInputs,
  { spec, config }: Pick<MutatorContext, 'spec' | 'config'>,
): ResolvedInputs {
  const findings: ProposedFinding[] = [];
  const provider = spec.loadBalancer.provider ?? 'in-cluster';
  const facts = LOAD_BALANCERS[provider];
  const origin = spec.loadBalancer.provider
    ? { origin: settingSource(config, 'loadBalancer.provider', 'lb-provider') }
    : {};
  if (!spec.loadBalancer.provider) {
    findings.push({
      severity: 'info',
      code: 'NO_SERVICE_IN_STREAM',
      message:
        `No Service in the stream selects these pods; ` +
        `assumed ${facts.label} (W=${facts.drainWindowSeconds} s). ` +
        `If a load balancer sends them traffic, ` +
        `set --lb-provider or kube-graceful.dev/lb-provider.`,
    });
  }
  return {
    inputs: {
      ...common,
      drainWindow: {
        value: facts.drainWindowSeconds,
        source: { kind: 'assumed-load-balancer', label: facts.label, ...origin },
      },
    },
    findings,
  };
}

/**
 * The drain window's `unknown` when the load balancer is a guess (fn/timing/loadBalancerTable.ts).
 */
export function unknownOf(recognized: LoadBalancerRecognition): Pick<Sourced, 'unknown'> {
  const unknown = unknownDrainWindow(recognized);
  return unknown ? { unknown } : {};
}

/**
 * Returns the longest-window load balancer in front of the pods: Services selecting them, cloud
 * load balancers bound or routed to those Services (routedLoadBalancers.ts), Ingresses routing to
 * them.
 */
function loadBalancersInFront(workload: Workload, context: MutatorContext) {
  const labels = labelsOf(workload.template.metadata);
  const namespace = workload.ref.namespace;
  const services = servicesSelecting(context.inventory, labels, namespace, (s) =>
    serviceSelectsPod(s, labels, s.metadata?.namespace, namespace),
  );
  const candidates: LoadBalancerRecognition[] = services.map((s) =>
    recognizeServiceLoadBalancer(s, { backendConfigs: context.inventory.backendConfigs }),
  );
  candidates.push(...routedLoadBalancers(services, context.inventory));
  const names = new Set(services.map((s) => s.metadata?.name));
  for (const ingress of ingressesIn(context.inventory, namespace)) {
    if (ingress.metadata?.namespace !== namespace) continue;
    const routedTo = ingressBackendServiceNames(ingress);
    if (!routedTo.some((n) => names.has(n))) continue;
    const recognition = recognizeIngressLoadBalancer(ingress, {
      services: services.filter((s) => routedTo.includes(s.metadata?.name ?? '')),
      backendConfigs: context.inventory.backendConfigs,
      ingressClasses: context.inventory.ingressClasses,
      ingressClassParams: context.inventory.ingressClassParams,
    });
    if (recognition) candidates.push(recognition);
  }
  return pickDrainWindow(candidates);
}

function deregistration(
  recognized: LoadBalancerRecognition | undefined,
): Pick<TimingInputs, 'loadBalancer'> {
  const closing = connectionClosingInputs(
    recognized,
    `on ${recognized?.subject ?? 'the load balancer'}`,
  );
  return closing === undefined ? {} : { loadBalancer: closing };
}

/**
 * How long the pods' node waits for them when it goes away: the setting in seconds, else the
 * preset's, else the shortest of what the input shows: the Karpenter NodePools the pods may land
 * on and the interruptible capacity their nodeSelector asks for (fn/timing/nodeShutdown.ts).
 */
function nodeShutdownBudget(workload: Workload, context: MutatorContext): Sourced | undefined {
  const { spec, config, inventory } = context;
  const set = spec.timing.nodeShutdownBudgetSeconds;
  if (set !== undefined)
    return {
      value: set,
      source: settingSource(config, 'timing.nodeShutdownBudgetSeconds', 'node-shutdown-budget'),
    };
  const preset = spec.timing.nodeShutdownPreset;
  if (preset !== undefined)
    return {
      value: NODE_SHUTDOWN_PRESETS[preset].seconds,
      source: {
        kind: 'derived',
        how: `${preset}: ${NODE_SHUTDOWN_PRESETS[preset].evidence}; `,
        from: settingSource(config, 'timing.nodeShutdownPreset', 'node-shutdown-preset'),
      },
    };
  const nodeSelector = workload.template.spec?.nodeSelector;
  const found = [
    inventory.nodePools.length > 0 ? nodePoolBudget(inventory.nodePools, nodeSelector) : undefined,
    capacityBudget(nodeSelector),
  ].filter((b) => b !== undefined);
  const shortest = found.sort((a, b) => a.seconds - b.seconds)[0];
  return (
    shortest && {
      value: shortest.seconds,
      source: { kind: 'node-pool', evidence: shortest.evidence },
    }
  );
}
