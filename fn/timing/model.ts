/**
 * The timing model of docs/background.md#the-timing-model: the one place where every duration
 * kube-graceful writes is decided and explained. Pure arithmetic over numbers with their sources;
 * no YAML here.
 *
 * Symbols: W drain window, R longest request, B buffer, S preStop sleep, G grace period.
 */

import type { Unknown } from '../core/unknown.ts';
import { sourceText } from '../core/source.ts';
import type { Source } from '../core/source.ts';
import { KUBERNETES_DEFAULT_GRACE_SECONDS } from './platformDefaults.ts';

/** A number and where it came from (a setting, the load balancer in front, …), as data. */
export interface Sourced {
  value: number;
  source: Source;
  /**
   * Set when the number is a guess, not a modelled fact (W from a Service that shows only
   * `type: LoadBalancer`): the model still plans with it, and `explain` says the outcome is
   * unknown and how to tell the tool.
   */
  unknown?: Unknown;
}

/** Everything the model needs for one workload. All values are whole seconds. */
export interface TimingInputs {
  /** W: how long after termination starts new traffic may still arrive. */
  drainWindow: Sourced;
  /** R: the longest request the workload must finish after traffic stops (default 20). */
  maxRequest: Sourced;
  /** B: safety buffer (default 5). */
  buffer: Sourced;
  /** `terminationGracePeriodSeconds` already in the manifest. */
  existingGraceSeconds?: number;
  /** A preStop the user already wrote: its sleep length, or 'unknown' when it can't be read. */
  existingPreStopSeconds?: number | 'unknown';
  /** `drainDuration` already in `proxy.istio.io/config`. */
  existingDrainDurationSeconds?: number;
  /**
   * When the load balancer closes established connections, when known: an AWS target group's
   * deregistration delay, or (`closing: 'gke-connection-draining'`) GKE's NEG removal plus
   * connection draining, both in seconds from t = 0 (fn/timing/connectionClosing.ts).
   */
  loadBalancer?: {
    deregistrationDelaySeconds?: Sourced;
    connectionTermination?: boolean;
    closing?: 'gke-connection-draining';
  };
  /**
   * How long the node waits for its pods when it goes away (a Karpenter NodePool's
   * terminationGracePeriod, a Spot notice, the setting): a grace period past it is cut there.
   */
  nodeShutdownBudget?: Sourced;
}

/** One computed duration: the value, the arithmetic that produced it, and why. */
export interface Derived {
  value: number;
  formula: string;
  explanation: string;
}

/**
 * Codes of the checks the model reports (docs/background.md#the-timing-model "Checks that become
 * results").
 */
export const TIMING_CHECK_CODES = [
  'PRESTOP_NOT_BELOW_GRACE',
  'PRESTOP_BELOW_WINDOW',
  'LB_DEREGISTRATION_TOO_SHORT',
  'LB_DEREGISTRATION_OUTLIVES_GRACE',
  'PRESTOP_LENGTH_UNKNOWN',
  'DRAIN_DURATION_BELOW_WINDOW',
  'SIDECAR_WAIT_NOT_BELOW_GRACE',
  'NODE_SHUTDOWN_BUDGET',
] as const;
export type TimingCheckCode = (typeof TIMING_CHECK_CODES)[number];

/** A finding about the timing, for the report and the KRM results. */
export interface TimingCheck {
  code: TimingCheckCode;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

/** The durations to write for one workload, each explained, and the checks they raise. */
export interface TimingPlan {
  /**
   * S: the preStop sleep (docs/background.md#the-timing-model: S = W), or what the user's own hook
   * really sleeps.
   */
  preStopSeconds: Derived;
  /** G = S + R + B, never below the manifest's own terminationGracePeriodSeconds. */
  graceSeconds: Derived;
  /**
   * Istio MINIMUM_DRAIN_DURATION of a gateway in env mode (an app sidecar uses S + R,
   * sidecarOutlivesSeconds).
   */
  minimumDrainSeconds: Derived;
  /** Istio drainDuration: W + B, never below the manifest's own. */
  drainDurationSeconds: Derived;
  /**
   * S + R: a classic app sidecar's wait (Istio terminationDrainDuration or exit-on-zero
   * MINIMUM_DRAIN_DURATION, Linkerd proxy-wait-before-exit-seconds; < G).
   */
  sidecarOutlivesSeconds: Derived;
  checks: TimingCheck[];
}

/** docs/background.md#the-timing-model: default longest request R. */
export const DEFAULT_MAX_REQUEST_SECONDS = 20;
/** docs/background.md#the-timing-model: default safety buffer B. */
export const DEFAULT_BUFFER_SECONDS = 5;
/**
 * Upper bound for every input. No load balancer in
 * docs/background.md#load-balancers-in-front-of-gateways needs more than minutes; a
 * value above a day is a unit mistake (milliseconds typed as seconds), not a plan.
 */
export const MAX_INPUT_SECONDS = 86_400;

/** Why an input cannot be planned with, in words naming it. */
class InputProblem {
  constructor(readonly message: string) {}
}

function validateSeconds(name: string, value: unknown): number | InputProblem {
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < 0 ||
    value > MAX_INPUT_SECONDS
  ) {
    return new InputProblem(
      `planTiming: ${name} must be a whole number of seconds from 0 to ${MAX_INPUT_SECONDS}, ` +
        `got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Values read from the manifest are facts, not settings: Kubernetes accepts any int64 grace, so
 * they are only checked to be whole and non-negative (a day's cap would reject a legal manifest).
 */
function validateExistingSeconds(name: string, value: unknown): number | InputProblem {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    return new InputProblem(
      `planTiming: ${name} must be a whole number of seconds, 0 or more, got ${String(value)}`,
    );
  }
  return value;
}

function validateSourced(name: string, sourced: Sourced | undefined): number | InputProblem {
  if (sourced === null || typeof sourced !== 'object') {
    return new InputProblem(`planTiming: ${name} is missing`);
  }
  if (typeof sourced.source !== 'object' || sourceText(sourced.source).trim() === '') {
    return new InputProblem(`planTiming: ${name}.source must say where the value came from`);
  }
  return validateSeconds(`${name}.value`, sourced.value);
}

/** The inputs as checked numbers: what the arithmetic runs on. */
interface Checked {
  readonly W: number;
  readonly R: number;
  readonly B: number;
  readonly existingGrace: number | undefined;
  readonly existingPreStop: number | 'unknown' | undefined;
  readonly existingDrain: number | undefined;
  readonly dereg: number | undefined;
  readonly budget: number | undefined;
}

/** Returns the inputs as numbers, or the first one that cannot be planned with. */
function checkInputs(inputs: TimingInputs): Checked | InputProblem {
  const optional = <T>(value: T | undefined, check: (value: T) => number | InputProblem) =>
    value === undefined ? undefined : check(value);
  const values = {
    W: validateSourced('drainWindow', inputs.drainWindow),
    R: validateSourced('maxRequest', inputs.maxRequest),
    B: validateSourced('buffer', inputs.buffer),
    existingGrace: optional(inputs.existingGraceSeconds, (v) =>
      validateExistingSeconds('existingGraceSeconds', v),
    ),
    existingPreStop:
      inputs.existingPreStopSeconds === 'unknown'
        ? ('unknown' as const)
        : optional(inputs.existingPreStopSeconds, (v) =>
            validateExistingSeconds('existingPreStopSeconds', v),
          ),
    existingDrain: optional(inputs.existingDrainDurationSeconds, (v) =>
      validateExistingSeconds('existingDrainDurationSeconds', v),
    ),
    dereg: optional(inputs.loadBalancer?.deregistrationDelaySeconds, (v) =>
      validateSourced('loadBalancer.deregistrationDelaySeconds', v),
    ),
    budget: optional(inputs.nodeShutdownBudget, (v) => validateSourced('nodeShutdownBudget', v)),
  };
  const problem = Object.values(values).find((v) => v instanceof InputProblem);
  return problem ?? (values as Checked);
}

/** A plan, or why the inputs cannot be planned with (a value out of the model's range). */
export type TimingResult =
  | { readonly ok: true; readonly plan: TimingPlan }
  | { readonly ok: false; readonly problem: string };

/**
 * Computes the preStop sleep, grace period, Istio drain settings and sidecar wait for one workload
 * from W, R and B (docs/background.md#the-timing-model), keeping what the manifest already sets
 * where lowering it would be unsafe.
 *
 * Returns a TimingPlan whose every value carries its formula and explanation, plus checks; or,
 * when a value is negative, NaN, fractional or more than a day (callers round values read from
 * manifests up before passing them in), the problem naming that input.
 */
export function planTimingResult(inputs: TimingInputs): TimingResult {
  const checked = checkInputs(inputs);
  return checked instanceof InputProblem
    ? { ok: false, problem: checked.message }
    : { ok: true, plan: planChecked(inputs, checked) };
}

/**
 * The plan for inputs a caller has already kept in range (or a test builds): a problem with them
 * is a bug in kube-graceful, thrown as a RangeError naming the input.
 */
export function planTiming(inputs: TimingInputs): TimingPlan {
  const result = planTimingResult(inputs);
  if (!result.ok) throw new RangeError(result.problem);
  return result.plan;
}

function planChecked(inputs: TimingInputs, checked: Checked): TimingPlan {
  const { W, R, B } = checked;
  const wSource = sourceText(inputs.drainWindow.source);
  const checks: TimingCheck[] = [];
  const preStopSeconds = preStopPlan(checked, wSource, checks);
  const S = preStopSeconds.value;
  const graceSeconds = gracePlan(inputs, checked, S);
  const G = graceSeconds.value;

  // MINIMUM_DRAIN_DURATION of a gateway in env mode: it replaces the sleep and must cover W, and
  // the preStop S where a user hook made S ≠ W. (An app's exit-on-zero sidecar must cover S + R,
  // sidecarOutlivesSeconds below: the app still finishes and calls out after its SIGTERM.)
  const M = Math.max(S, W);
  const minimumDrainSeconds: Derived = {
    value: M,
    formula: S === W ? `M = S = ${S}` : `M = max(S, W) = max(${S}, ${W}) = ${M}`,
    explanation:
      `Istio MINIMUM_DRAIN_DURATION (with EXIT_ON_ZERO_ACTIVE_CONNECTIONS): ` +
      `the proxy waits ${M} s before it may exit at zero connections, ` +
      `covering the drain window and the preStop sleep S.`,
  };
  const drainDurationSeconds = drainDurationPlan(checked, wSource, checks);

  const T = S + R;
  const sidecarOutlivesSeconds: Derived = {
    value: T,
    formula: `T = S + R = ${S} + ${R} = ${T}`,
    explanation:
      `The mesh proxy must outlive the app: ` +
      `its preStop (${S} s) plus the longest request (${R} s). ` +
      `Used as Istio terminationDrainDuration, ` +
      `Istio MINIMUM_DRAIN_DURATION with exit-on-zero, ` +
      `or Linkerd proxy-wait-before-exit-seconds, which must stay below G = ${G} s.`,
  };
  checks.push(
    ...orderChecks({ S, T, G, R, B }),
    ...boundChecks(inputs, { T, G, budget: checked.budget, dereg: checked.dereg }),
  );
  return {
    preStopSeconds,
    graceSeconds,
    minimumDrainSeconds,
    drainDurationSeconds,
    sidecarOutlivesSeconds,
    checks,
  };
}

/**
 * S. The user's own hook stays (the mutators never replace a preStop they did not write), so S is
 * what that hook really sleeps; the grace period must be built on that, not on W.
 */
function preStopPlan(checked: Checked, wSource: string, checks: TimingCheck[]): Derived {
  const { W, existingPreStop } = checked;
  if (typeof existingPreStop === 'number') {
    if (existingPreStop < W) {
      // Warning, not error: the output is valid and we respect the user's hook, but new
      // connections can still arrive after the sleep ends and the app gets SIGTERM.
      checks.push({
        code: 'PRESTOP_BELOW_WINDOW',
        severity: 'warning',
        message:
          `The existing preStop sleeps ${existingPreStop} s, ` +
          `but new connections may keep arriving for W = ${W} s (${wSource}); ` +
          `requests that arrive after ${existingPreStop} s can be refused. ` +
          `Lengthen the sleep to ${W} s, or remove the hook so kube-graceful writes one.`,
      });
    }
    return {
      value: existingPreStop,
      formula: `S = ${existingPreStop} (kept from manifest: the existing preStop sleeps this long)`,
      explanation:
        `The container already has a preStop hook that sleeps ${existingPreStop} s; ` +
        `it is kept, and the grace period is built on what it really sleeps.`,
    };
  }
  if (existingPreStop === 'unknown') {
    // Warning: the plan assumes the hook lasts W; if it lasts longer than G − R − B the
    // app is cut short, and only the user can tell.
    checks.push({
      code: 'PRESTOP_LENGTH_UNKNOWN',
      severity: 'warning',
      message:
        `The container already has a preStop hook whose length can't be read (not a sleep ` +
        `action or exec sleep N); it is kept and assumed to take W = ${W} s. ` +
        `If it takes longer, raise terminationGracePeriodSeconds by the difference or set ` +
        `the drain window to its real length.`,
    });
  }
  return {
    value: W,
    formula: `S = W = ${W}`,
    explanation:
      existingPreStop === 'unknown'
        ? `The container's own preStop hook is kept; its length can't be read, ` +
          `so the plan assumes it takes the drain window W = ${W} s (${wSource}).`
        : `The pod keeps accepting for ${W} s after termination starts (a preStop sleep, ` +
          `or a gateway proxy's minimum drain) because new connections may keep arriving for ` +
          `that long (W from ${wSource}).`,
  };
}

/**
 * G = S + R + B: the grace countdown starts before preStop
 * (docs/background.md#kubernetes-pod-termination), so the sleep, the longest request and the
 * buffer must all fit in it. Never lowered below the manifest's.
 */
function gracePlan(inputs: TimingInputs, checked: Checked, S: number): Derived {
  const { R, B, existingGrace } = checked;
  const needed = S + R + B;
  const sum = `S + R + B = ${S} + ${R} + ${B} = ${needed}`;
  return existingGrace !== undefined && existingGrace > needed
    ? {
        value: existingGrace,
        formula: `G = ${existingGrace} (kept from manifest) ≥ ${sum}`,
        explanation:
          `The manifest's terminationGracePeriodSeconds ${existingGrace} already covers ` +
          `the sleep (${S} s), the longest request (${R} s, ` +
          `${sourceText(inputs.maxRequest.source)}) and the buffer ` +
          `(${B} s, ${sourceText(inputs.buffer.source)}); ` +
          `it is never lowered.`,
      }
    : {
        value: needed,
        formula: `G = ${sum}`,
        explanation:
          `The grace countdown starts before preStop, so it must hold the sleep (${S} s), ` +
          `the longest request (${R} s, ` +
          `${sourceText(inputs.maxRequest.source)}) and the buffer ` +
          `(${B} s, ${sourceText(inputs.buffer.source)})` +
          (existingGrace === undefined
            ? '.'
            : existingGrace < needed
              ? `; the manifest's ${existingGrace} s is raised.`
              : `; the manifest already sets exactly that.`),
      };
}

/**
 * drainDuration: Envoy closes its listeners after it (default 45 s), so it must reach past W
 * while the LB still sends (docs/background.md#istio, docs/background.md#the-timing-model): W +
 * B. Never lowered below the manifest's.
 */
function drainDurationPlan(checked: Checked, wSource: string, checks: TimingCheck[]): Derived {
  const { W, B, existingDrain } = checked;
  const drainNeeded = W + B;
  const drainSum = `W + B = ${W} + ${B} = ${drainNeeded}`;
  const drainDurationSeconds: Derived =
    existingDrain !== undefined && existingDrain > drainNeeded
      ? {
          value: existingDrain,
          formula: `D = ${existingDrain} (kept from manifest) ≥ ${drainSum}`,
          explanation:
            `The manifest's drainDuration ${existingDrain} s already keeps listeners open ` +
            `past W; it is never lowered.`,
        }
      : {
          value: drainNeeded,
          formula: `D = ${drainSum}`,
          explanation:
            `Envoy keeps accepting (answering with Connection: close) for drainDuration, ` +
            `then closes its listeners; ${drainNeeded} s keeps them open while the load ` +
            `balancer may still send (W = ${W} s) plus the buffer.`,
        };
  if (existingDrain !== undefined && existingDrain < W) {
    // Info: the plan itself raises drainDuration, so the output is right; the note tells the
    // user why their value changed.
    checks.push({
      code: 'DRAIN_DURATION_BELOW_WINDOW',
      severity: 'info',
      message:
        `drainDuration in proxy.istio.io/config was ${existingDrain} s, ` +
        `below the drain window W = ${W} s (${wSource}): ` +
        `Envoy would close its listeners while the load balancer still sends. ` +
        `It is raised to ${drainDurationSeconds.value} s.`,
    });
  }
  return drainDurationSeconds;
}

/** The plan's own order: the sleep and the sidecar's wait must each end before G. */
function orderChecks({
  S,
  T,
  G,
  R,
  B,
}: Readonly<Record<'S' | 'T' | 'G' | 'R' | 'B', number>>): TimingCheck[] {
  const checks: TimingCheck[] = [];
  if (S >= G) {
    // Error: the API server rejects sleep.seconds > G, and S = G leaves the app no time at all;
    // the output itself would be wrong, so it must not be emitted silently.
    checks.push({
      code: 'PRESTOP_NOT_BELOW_GRACE',
      severity: 'error',
      message:
        `preStop sleep S = ${S} s is not below terminationGracePeriodSeconds G = ${G} s: ` +
        `the sleep would be rejected or cut and the app killed without draining. ` +
        `Set maxRequestSeconds or bufferSeconds above 0 (R = ${R}, B = ${B}) so G > S.`,
    });
  }
  if (T >= G) {
    // Error: Linkerd requires proxy-wait-before-exit-seconds < grace (docs/background.md#linkerd);
    // at ≥ G the proxy is SIGKILLed with the app and in-flight requests are lost.
    checks.push({
      code: 'SIDECAR_WAIT_NOT_BELOW_GRACE',
      severity: 'error',
      message:
        `The sidecar wait S + R = ${T} s is not below terminationGracePeriodSeconds G = ${G} ` +
        `s: the proxy would be killed together with the app. ` +
        `Set bufferSeconds to at least 1 (now ${B}).`,
    });
  }
  return checks;
}

/**
 * G for a proxy that drains on its own terms (ingress-nginx, Contour's Envoy, Kong): the sum of
 * `values`, named `terms` in the formula ("P + R + B"), or the manifest's grace period where it
 * already covers them, never lowered.
 */
export function coveringGrace(
  terms: string,
  values: readonly number[],
  existing: number | undefined,
  explanation: string,
): Derived {
  const needed = values.reduce((sum, value) => sum + value, 0);
  const sum = `${terms} = ${values.join(' + ')} = ${needed}`;
  return existing !== undefined && existing >= needed
    ? {
        value: existing,
        formula: `G = ${existing} (kept from manifest) ≥ ${sum}`,
        explanation: 'A grace period the manifest sets is never lowered.',
      }
    : { value: needed, formula: `G = ${sum}`, explanation };
}

/**
 * Returns the grace period to write, or undefined when writing it would change nothing the pod
 * gets: with no field set the pod already has 30 s, so a G of 30 or less is not written (writing
 * a smaller one would lower the real grace; writing 30 is a diff for nothing); with the field set,
 * only a G above it is written (the plan keeps a larger one, and a grace beyond 2^53 s is compared
 * as Number.MAX_SAFE_INTEGER, fn/workloads/grace.ts: writing that back would lower it).
 */
export function graceToWrite(
  plannedGraceSeconds: number,
  existingGraceSeconds: number | undefined,
): number | undefined {
  if (existingGraceSeconds !== undefined)
    return plannedGraceSeconds > existingGraceSeconds ? plannedGraceSeconds : undefined;
  return plannedGraceSeconds > KUBERNETES_DEFAULT_GRACE_SECONDS ? plannedGraceSeconds : undefined;
}

/*
 * The checks of a plan against what bounds it from outside the pod: the node's shutdown budget
 * (Spot, Karpenter, kubelet graceful node shutdown: fn/timing/nodeShutdown.ts) and the load
 * balancer's deregistration delay or connection draining. The plan holds either way; these say
 * which setting outside the manifests must change.
 */

const ANNOTATION = 'the target-group attributes annotation';

/** Where the user sets a target group's attributes, for the advice of the checks. */
function attributesIn(source: Source | undefined): string {
  return source?.kind === 'target-group' && source.attributesIn !== undefined
    ? source.attributesIn
    : ANNOTATION;
}

/** The numbers the checks compare: the drain T = S + R, G, and the bounds when known. */
interface Bounded {
  readonly T: number;
  readonly G: number;
  readonly budget: number | undefined;
  readonly dereg: number | undefined;
}

/** Returns the checks of the node's budget, then of the load balancer's delay. */
function boundChecks(inputs: TimingInputs, plan: Bounded): TimingCheck[] {
  return [
    ...(plan.budget === undefined ? [] : budgetChecks(inputs, plan, plan.budget)),
    ...(plan.dereg === undefined ? [] : deregistrationChecks(inputs, plan, plan.dereg)),
  ];
}

function budgetChecks(inputs: TimingInputs, { T, G }: Bounded, budget: number): TimingCheck[] {
  if (G <= budget) return [];
  // Warning: the rollout plan holds; a node going away (Spot, Karpenter, node shutdown) stops
  // the pod at the budget instead (fn/timing/nodeShutdown.ts).
  const budgetSource = sourceText(inputs.nodeShutdownBudget!.source);
  return [
    {
      code: 'NODE_SHUTDOWN_BUDGET',
      severity: 'warning',
      message:
        `When its node goes away the pod gets at most ${budget} s (${budgetSource}), less than ` +
        `terminationGracePeriodSeconds G = ${G} s: ` +
        (T <= budget
          ? `its drain S + R = ${T} s still fits, only the buffer is cut.`
          : `requests still in flight at ${budget} s are lost (the drain S + R = ${T} s ends ` +
            `later). Shorten the drain window or the longest request for such nodes, or give ` +
            `the node more time.`),
    },
  ];
}

function deregistrationChecks(
  inputs: TimingInputs,
  { T, G }: Bounded,
  dereg: number,
): TimingCheck[] {
  const checks: TimingCheck[] = [];
  const delaySource = inputs.loadBalancer?.deregistrationDelaySeconds?.source;
  const deregSource = delaySource ? sourceText(delaySource) : '';
  if (dereg < T) {
    // Warning: the LB setting lives outside what the plan writes; the manifests are valid but
    // the LB will cut connections still being served.
    checks.push({
      code: 'LB_DEREGISTRATION_TOO_SHORT',
      severity: 'warning',
      message:
        inputs.loadBalancer?.closing === 'gke-connection-draining'
          ? `The load balancer closes the connections still open at ${dereg} s ` +
            `(${deregSource}), before the pod's drain S + R = ${T} s ends: it cuts requests ` +
            `in flight. Set connectionDraining.drainingTimeoutSec ${T - dereg} s longer in a ` +
            (delaySource?.kind === 'connection-draining' && delaySource.setBy === 'GCPBackendPolicy'
              ? `GCPBackendPolicy whose targetRef names the Service (spec.default).`
              : `BackendConfig the Service names (cloud.google.com/backend-config).`)
          : `The load balancer's deregistration delay is ${dereg} s (${deregSource}), ` +
            `shorter than the pod's drain S + R = ${T} s: it cuts connections still in ` +
            `flight. Set deregistration_delay.timeout_seconds between ${T} and ${G} in ` +
            `${attributesIn(delaySource)}.`,
    });
  }
  if (dereg > G && inputs.loadBalancer?.connectionTermination !== true) {
    // Warning: like the one above, an LB setting the user must change.
    checks.push({
      code: 'LB_DEREGISTRATION_OUTLIVES_GRACE',
      severity: 'warning',
      message:
        `The load balancer's deregistration delay is ${dereg} s (${deregSource}), ` +
        `longer than terminationGracePeriodSeconds G = ${G} s, ` +
        `and connection termination is off: ` +
        `for ${dereg - G} s it keeps routing established connections to a pod that is ` +
        `gone. Set deregistration_delay.connection_termination.enabled=true, ` +
        `or deregistration_delay.timeout_seconds=${G}` +
        (attributesIn(delaySource) === ANNOTATION ? '.' : ` in ${attributesIn(delaySource)}.`),
    });
  }
  return checks;
}
