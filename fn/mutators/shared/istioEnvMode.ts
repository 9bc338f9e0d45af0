/**
 * Istio env mode's one decision, for every gateway whose proxy pilot-agent starts (gateway-drain's
 * Deployments, fn/mutators/gateway/envMode.ts; the Deployments istiod generates for Gateway API
 * Gateways, fn/mutators/istio-gateway-api/plan.ts): what becomes of istio-proxy's
 * MINIMUM_DRAIN_DURATION, EXIT_ON_ZERO_ACTIVE_CONNECTIONS and the ProxyConfig drainDuration, given
 * what the pod has today and the plan. Each caller reads the pod's values from its own shape (the
 * container's env; the overlays istiod merges) and writes the outcome there, with its own finding
 * codes; the rule is here, once:
 *
 * - A user's value is kept where it already holds the plan (a MINIMUM_DRAIN_DURATION longer than W
 *   becomes the plan's S, so G is built on it) and where it is of another kind (`valueFrom`, text
 *   Istio cannot read as a Go duration, exit-on-zero off): kept, with a warning. A shorter minimum
 *   drain is raised. Nothing the user set is lowered.
 * - EXIT_ON_ZERO_ACTIVE_CONNECTIONS is only turned on over a minimum drain that holds: with a
 *   minimum we could not set, the proxy may exit as soon as connections reach zero (5 s default)
 *   while the load balancer still sends (pkg/envoy/agent.go@1.24.6 terminate).
 */
import { parseGoBool } from '../../core/goBool.ts';
import { formatGoDurationSeconds, parseGoDurationSeconds } from '../../timing/durations.ts';
import type { TimingInputs, TimingPlan } from '../../timing/model.ts';
import { ISTIO_DEFAULT_DRAIN_DURATION_SECONDS } from '../../timing/platformDefaults.ts';

/** An env entry of istio-proxy as the pod has it; undefined where none is set. */
export interface IstioEnvEntry {
  readonly value?: unknown;
  readonly valueFrom?: unknown;
}

/** What becomes of one env entry. */
export type EnvEntryDecision =
  /** Set `value` (the entry is absent, or its readable value is shorter than the plan needs). */
  | { readonly kind: 'write'; readonly value: string }
  /** Already what the plan needs, or more: nothing to write. */
  | { readonly kind: 'holds' }
  /** The user's value of another kind, kept although the plan needs another: a warning. */
  | { readonly kind: 'other' }
  /** Not written because the minimum drain it depends on does not hold: nothing to say. */
  | { readonly kind: 'withheld' };

/** The env mode outcome for istio-proxy's two entries. */
export interface EnvModeDecision {
  readonly minimum: EnvEntryDecision;
  readonly exit: EnvEntryDecision;
}

/** Returns the seconds a MINIMUM_DRAIN_DURATION entry gives; undefined where Istio reads none. */
function minimumDrainSeconds(entry: IstioEnvEntry | undefined): number | undefined {
  if (entry === undefined || entry.valueFrom != null) return undefined;
  return typeof entry.value === 'string' ? parseGoDurationSeconds(entry.value) : undefined;
}

/**
 * Returns the inputs with a user's MINIMUM_DRAIN_DURATION longer than W as the kept S: the proxy
 * already serves that long, so the grace period is built on it.
 */
export function withKeptMinimum(
  inputs: TimingInputs,
  minimum: IstioEnvEntry | undefined,
): TimingInputs {
  const seconds = minimumDrainSeconds(minimum);
  return seconds !== undefined && seconds > inputs.drainWindow.value
    ? { ...inputs, existingPreStopSeconds: Math.ceil(seconds) }
    : inputs;
}

/**
 * Returns the plan with S named for what it is where withKeptMinimum kept a user's minimum drain
 * (the model calls a kept S a preStop); `where` says where the entry is set.
 */
export function keptMinimumPlan(
  plan: TimingPlan,
  inputs: TimingInputs,
  minimum: IstioEnvEntry | undefined,
  where: string,
): TimingPlan {
  const S = inputs.existingPreStopSeconds;
  if (typeof S !== 'number') return plan;
  return {
    ...plan,
    preStopSeconds: {
      value: S,
      formula:
        `S = ${S} (kept: MINIMUM_DRAIN_DURATION ${JSON.stringify(minimum?.value)}` +
        ` in ${where})`,
      explanation:
        `The proxy already keeps serving ${S} s, longer than the drain window ` +
        `W = ${inputs.drainWindow.value} s; the grace period is built on that.`,
    },
  };
}

/** Returns what becomes of MINIMUM_DRAIN_DURATION and EXIT_ON_ZERO_ACTIVE_CONNECTIONS. */
export function decideEnvMode(
  current: { readonly minimum?: IstioEnvEntry; readonly exit?: IstioEnvEntry },
  plan: TimingPlan,
): EnvModeDecision {
  const M = plan.minimumDrainSeconds.value;
  const seconds = minimumDrainSeconds(current.minimum);
  const minimum: EnvEntryDecision =
    current.minimum !== undefined && seconds === undefined
      ? { kind: 'other' }
      : seconds !== undefined && seconds >= M
        ? { kind: 'holds' }
        : { kind: 'write', value: formatGoDurationSeconds(M) };
  const exit: EnvEntryDecision =
    current.exit !== undefined
      ? current.exit.valueFrom == null && parseGoBool(current.exit.value) === true
        ? { kind: 'holds' }
        : { kind: 'other' }
      : minimum.kind === 'other'
        ? { kind: 'withheld' }
        : { kind: 'write', value: 'true' };
  return { minimum, exit };
}

/**
 * Returns whether drainDuration D is written into `proxy.istio.io/config`: where the pod's own
 * differs from D (the model keeps a larger one, so D differs only where it is raised or
 * unreadable),
 * and, without one of the pod's, only where D is over Istio's 45 s default: writing a shorter one
 * would only close the listeners earlier.
 */
export function drainDurationToWrite(
  current: { readonly text: unknown; readonly seconds: number | undefined },
  D: number,
): boolean {
  return (
    (current.text !== undefined || D > ISTIO_DEFAULT_DRAIN_DURATION_SECONDS) &&
    current.seconds !== D
  );
}
