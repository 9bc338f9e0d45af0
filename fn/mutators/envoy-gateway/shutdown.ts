/**
 * spec.shutdown of one EnvoyProxy from the timing model.
 *
 * What Envoy Gateway does on termination (internal/cmd/envoy/shutdown_manager.go@v1.9.0, the
 * same loop since v1.0.0): the shutdown-manager container's preStop fails Envoy's health checks
 * (`POST /healthcheck/fail`; the proxy's readiness fails and the endpoint goes), which with
 * `--drain-strategy immediate` (internal/infrastructure/common/proxy_args.go@v1.9.0) starts the
 * listener drain; Envoy keeps accepting. It then polls the listeners' downstream_cx_active
 * every second and ends the drain once minDrainDuration has passed and no connection is open, or
 * at drainTimeout, whichever comes first. The Envoy container's preStop waits for that, then
 * Envoy gets SIGTERM and exits. With healthCheckFailureDelay H (v1.9.0+) the drain starts
 * at once (`drain_listeners?graceful&skip_exit`) and readiness fails only after H.
 *
 * So the load balancer may send new connections until H + W at the latest (one that follows the
 * endpoints starts at termination, since a terminating pod's endpoint is not ready whatever its
 * probe says; one that only health-checks the proxy starts after H: the sum covers both), and the
 * proxy must not be allowed to exit at zero connections before then: minDrainDuration M ≥ H + W. A
 * request that arrives at that moment holds its connection open and needs R, plus the buffer:
 * drainTimeout D ≥ M + R + B. Both numbers are the timing model's (M = max(S, W) with S = W, and
 * S + R + B, fn/timing/model.ts), with the window widened by H.
 */
import type { FieldPath } from '../../core/fieldPath.ts';
import { planTimingResult } from '../../timing/model.ts';
import type { Derived, Sourced, TimingInputs, TimingPlan } from '../../timing/model.ts';
import { formatDuration, readDuration } from './durations.ts';
import type { ReadDuration } from './durations.ts';
import {
  DEFAULT_DRAIN_TIMEOUT_SECONDS,
  DEFAULT_MIN_DRAIN_SECONDS,
  GRACE_OVER_DRAIN_TIMEOUT_SECONDS,
  READY_TIMEOUT_OVER_DRAIN_TIMEOUT_SECONDS,
} from './facts.ts';
import type { SpecLocation } from './objects.ts';
import type { EnvoyGatewayChange, EnvoyGatewayFinding } from './outcome.ts';
import { patchedGrace } from './patchedGrace.ts';
import { holdReadiness } from './readiness.ts';
import type { NodeForwarding } from '../../timing/loadBalancers.ts';
import { sourceLine, sourceText } from '../../core/source.ts';

/** W (with the load balancer's target-group settings when known), R and B. */
export interface ShutdownTimingInputs {
  readonly drainWindow: Sourced;
  readonly maxRequest: Sourced;
  readonly buffer: Sourced;
  readonly loadBalancer?: TimingInputs['loadBalancer'];
  /** Until when a node forwards to the terminating proxy, behind node targets with Local. */
  readonly nodeForwarding?: NodeForwarding;
  /** The Envoy Gateway release the input's controller config names, when it names one. */
  readonly release?: string;
}

/** The durations for one EnvoyProxy, each explained, for `explain`. */
export interface ShutdownPlan {
  /** H: healthCheckFailureDelay to have (as written, 0 when absent, or raised to W where the node
   * forwards only to a ready proxy: ./readiness.ts). */
  readonly healthCheckFailureDelaySeconds: number;
  /** M: minDrainDuration to have (written or kept). */
  readonly minDrainDuration: Derived;
  /** D: drainTimeout to have (written or kept). */
  readonly drainTimeout: Derived;
  /** The proxy pod's grace: Envoy Gateway's D + 300, or the patch's value. */
  readonly grace: Derived;
  readonly timing: TimingPlan;
}

export interface ShutdownOutcome {
  readonly changes: readonly EnvoyGatewayChange[];
  readonly findings: readonly EnvoyGatewayFinding[];
  readonly plan?: ShutdownPlan;
}

const MIN_DRAIN = 'minDrainDuration';
const DRAIN_TIMEOUT = 'drainTimeout';
const HEALTH_CHECK_FAILURE_DELAY = 'healthCheckFailureDelay';

/** The shutdown fields as the manifest writes them. */
interface ExistingShutdown {
  readonly min: ReadDuration;
  readonly timeout: ReadDuration;
  readonly delay: ReadDuration;
}

/** The changes and findings a plan gathers. */
interface Gathered {
  readonly changes: EnvoyGatewayChange[];
  readonly findings: EnvoyGatewayFinding[];
}

/**
 * Returns the spec.shutdown fields to set on the EnvoyProxy at `location` (and the patched grace
 * period to raise, when a patch sets one), keeping every value the user wrote that is already
 * larger, and the findings; or only an error finding when a duration cannot be read.
 */
export function planShutdown(
  location: SpecLocation,
  timing: ShutdownTimingInputs,
): ShutdownOutcome {
  const shutdownPath: FieldPath = [...location.specPath, 'shutdown'];
  const shutdown = location.spec.shutdown ?? {};
  const existing: ExistingShutdown = {
    min: readDuration(shutdown.minDrainDuration),
    timeout: readDuration(shutdown.drainTimeout),
    delay: readDuration(shutdown.healthCheckFailureDelay),
  };
  const unreadable = unreadableFindings(location, shutdownPath, existing);
  if (unreadable.length > 0) return { changes: [], findings: unreadable };

  const hold = holdReadiness(
    location.label,
    [...shutdownPath, HEALTH_CHECK_FAILURE_DELAY],
    seconds(existing.delay),
    timing,
  );
  const H = hold.H;
  const result = planTimingResult(widenedInputs(timing, H));
  if (!result.ok) {
    return {
      changes: [],
      findings: [
        {
          severity: 'error',
          code: 'EG_TIMING_INPUT',
          message: `No shutdown plan for ${location.label}: ${result.problem}.`,
          path: shutdownPath,
        },
      ],
    };
  }
  const { plan } = result;
  const out: Gathered = { changes: [...hold.changes], findings: [...hold.findings] };
  const sources = [
    sourceLine('W', timing.drainWindow.source),
    sourceLine('R', timing.maxRequest.source),
    sourceLine('B', timing.buffer.source),
  ];
  const minDrainDuration = minDrainValue(existing.min, plan, { H, W: timing.drainWindow.value });
  record(out, location, shutdownPath, {
    field: MIN_DRAIN,
    existing: existing.min,
    derived: minDrainDuration,
    sources: sources.slice(0, 1),
    code: 'EG_MIN_DRAIN_BELOW_WINDOW',
    why: `it is below the ${plan.minimumDrainSeconds.value} s the load balancer may still send`,
  });
  const M = minDrainDuration.value;
  const drainTimeout = drainTimeoutValue(existing.timeout, M, timing);
  record(out, location, shutdownPath, {
    field: DRAIN_TIMEOUT,
    existing: existing.timeout,
    derived: drainTimeout,
    sources,
    code: 'EG_DRAIN_TIMEOUT_BELOW_NEED',
    why:
      `a request accepted at the end of the minimum drain (${M} s) ` +
      'could be cut before it finishes',
  });
  const grace = planGrace(location, drainTimeout.value, out.changes, out.findings);
  out.findings.push(...loadBalancerFindings(plan, timing.loadBalancer, grace.value));
  return {
    changes: out.changes,
    findings: out.findings,
    plan: {
      healthCheckFailureDelaySeconds: H,
      minDrainDuration,
      drainTimeout,
      grace,
      timing: plan,
    },
  };
}

/** An error finding for each shutdown duration the manifest writes that cannot be read. */
function unreadableFindings(
  location: SpecLocation,
  shutdownPath: FieldPath,
  existing: ExistingShutdown,
): EnvoyGatewayFinding[] {
  return (
    [
      [MIN_DRAIN, existing.min],
      [DRAIN_TIMEOUT, existing.timeout],
      [HEALTH_CHECK_FAILURE_DELAY, existing.delay],
    ] as const
  )
    .filter(([, read]) => read.kind === 'unreadable')
    .map(([field, read]) => unreadableFinding(location, [...shutdownPath, field], field, read));
}

/**
 * The model's inputs, with the drain window widened by H: the window is how long new connections
 * may arrive after termination starts, and a load balancer that health-checks the proxy only
 * starts counting after H.
 */
function widenedInputs(timing: ShutdownTimingInputs, H: number): TimingInputs {
  const W = timing.drainWindow.value;
  return {
    drainWindow:
      H === 0
        ? timing.drainWindow
        : {
            value: H + W,
            source: {
              kind: 'derived',
              how: `${HEALTH_CHECK_FAILURE_DELAY} ${H} s + W ${W} s (`,
              from: timing.drainWindow.source,
              after: ')',
            },
          },
    maxRequest: timing.maxRequest,
    buffer: timing.buffer,
    ...(timing.loadBalancer ? { loadBalancer: timing.loadBalancer } : {}),
  };
}

/** M: the model's minimum drain (max(S, W) over the widened window), or the manifest's larger. */
function minDrainValue(
  existing: ReadDuration,
  plan: TimingPlan,
  { H, W }: { readonly H: number; readonly W: number },
): FieldValue {
  const needed = plan.minimumDrainSeconds.value;
  const window = H === 0 ? `W = ${W}` : `H + W = ${H} + ${W} = ${needed}`;
  return keepOrRaise(
    existing,
    needed,
    {
      formula: `M = ${window}`,
      explanation:
        `The load balancer may send new connections for ${needed} s after the drain starts` +
        (H === 0 ? '' : ` (health checks fail ${H} s in, then W = ${W} s; the conservative sum)`) +
        `; the shutdown manager must not let Envoy exit at zero connections before then.`,
    },
    DEFAULT_MIN_DRAIN_SECONDS,
  );
}

/** D = M + R + B: the model's S + R + B when M is the model's; the user's larger M moves it on. */
function drainTimeoutValue(
  existing: ReadDuration,
  M: number,
  timing: ShutdownTimingInputs,
): FieldValue {
  const R = timing.maxRequest.value;
  const B = timing.buffer.value;
  const needed = M + R + B;
  return keepOrRaise(
    existing,
    needed,
    {
      formula: `D = M + R + B = ${M} + ${R} + ${B} = ${needed}`,
      explanation:
        `A request that arrives as the minimum drain ends must finish (R = ${R}` +
        ` s) before the drain times out, ` +
        `with the buffer B = ${B} s on top.`,
    },
    DEFAULT_DRAIN_TIMEOUT_SECONDS,
  );
}

function seconds(read: ReadDuration): number | undefined {
  return read.kind === 'seconds' ? read.seconds : undefined;
}

/** A shutdown field's value to have, and whether it is Envoy Gateway's own default, unwritten. */
type FieldValue = Derived & { readonly upstreamDefault?: true };

/** The needed value, or the manifest's when it is larger (never lowered). */
function keepOrRaise(
  existing: ReadDuration,
  needed: number,
  derived: Omit<Derived, 'value'>,
  upstreamDefault: number,
): FieldValue {
  const current = seconds(existing);
  if (current !== undefined && current > needed) {
    return {
      value: current,
      formula: `${current} (kept from manifest) ≥ ${derived.formula}`,
      explanation: `The manifest's ${current} s already covers it; it is never lowered.`,
    };
  }
  // Not set: the shutdown manager's own default applies (facts.ts, internal/cmd/envoy.go@v1.2.0
  // … @v1.9.0); writing a smaller value would lower what the proxy gets (issue #27 item 6).
  if (current === undefined && upstreamDefault >= needed) {
    return {
      value: upstreamDefault,
      formula: `${upstreamDefault} (Envoy Gateway's default, not set) ≥ ${derived.formula}`,
      explanation:
        `Envoy Gateway's default of ${upstreamDefault} s already covers it; nothing is written ` +
        '(a smaller value would lower it).',
      upstreamDefault: true,
    };
  }
  return { value: needed, ...derived };
}

/** One shutdown field's decision, as `record` writes it. */
interface FieldDecision {
  readonly field: typeof MIN_DRAIN | typeof DRAIN_TIMEOUT;
  readonly existing: ReadDuration;
  readonly derived: FieldValue;
  readonly sources: readonly string[];
  /** The finding when the user's value is raised, and why it had to be. */
  readonly code: 'EG_MIN_DRAIN_BELOW_WINDOW' | 'EG_DRAIN_TIMEOUT_BELOW_NEED';
  readonly why: string;
}

/** Adds the change (and, when the user's value is raised, an info finding) unless the manifest
 * already says exactly that. */
function record(
  out: Gathered,
  location: SpecLocation,
  shutdownPath: FieldPath,
  decision: FieldDecision,
): void {
  const { field, existing, derived, sources, code, why } = decision;
  const path: FieldPath = [...shutdownPath, field];
  const current = seconds(existing);
  if (derived.upstreamDefault || (current !== undefined && current >= derived.value)) return;
  const value = formatDuration(derived.value);
  out.changes.push({
    path,
    value,
    reason: [
      `shutdown.${field} = ${value}: ${derived.formula}. ${derived.explanation}`,
      ...sources,
    ].join('\n'),
  });
  if (current !== undefined) {
    out.findings.push({
      severity: 'info',
      code,
      message:
        `${location.label} had shutdown.${field} ` +
        `${existing.kind === 'seconds' ? existing.text : ''} (${current} s): ${why}. ` +
        `It is raised to ${value}.`,
      path,
    });
  }
}

/**
 * The pod's grace: Envoy Gateway writes D + 300 itself (resource_provider.go@v1.9.0), which
 * always covers the drain; only a grace set through the Deployment or DaemonSet patch can fall
 * short of the shutdown manager's ready timeout D + 10 (resource.go@v1.9.0). That one is raised.
 */
function planGrace(
  location: SpecLocation,
  D: number,
  changes: EnvoyGatewayChange[],
  findings: EnvoyGatewayFinding[],
): Derived {
  const patched = patchedGrace(location);
  if (patched === undefined) {
    const value = D + GRACE_OVER_DRAIN_TIMEOUT_SECONDS;
    return {
      value,
      formula:
        `G = D + ${GRACE_OVER_DRAIN_TIMEOUT_SECONDS} = ${D} + ${GRACE_OVER_DRAIN_TIMEOUT_SECONDS}` +
        ` = ${value} (written by Envoy Gateway)`,
      explanation:
        "Envoy Gateway sets the proxy pod's terminationGracePeriodSeconds to " +
        'drainTimeout + 300 s; nothing to write.',
    };
  }
  const needed = D + READY_TIMEOUT_OVER_DRAIN_TIMEOUT_SECONDS;
  if (patched.seconds >= needed) {
    return {
      value: patched.seconds,
      formula:
        `G = ${patched.seconds} (kept from the ${patched.workloadField} patch) ` +
        `≥ D + ${READY_TIMEOUT_OVER_DRAIN_TIMEOUT_SECONDS} = ${needed}`,
      explanation:
        "The patch's grace period already outlasts the shutdown manager's " +
        'ready timeout; it is never lowered.',
    };
  }
  const derived: Derived = {
    value: needed,
    formula:
      `G = D + ${READY_TIMEOUT_OVER_DRAIN_TIMEOUT_SECONDS} = ` +
      `${D} + ${READY_TIMEOUT_OVER_DRAIN_TIMEOUT_SECONDS} = ${needed}`,
    explanation:
      `The Envoy container's preStop waits for the shutdown manager up to ` +
      `drainTimeout + ${READY_TIMEOUT_OVER_DRAIN_TIMEOUT_SECONDS} s ` +
      (`(its --ready-timeout, ` +
        `internal/infrastructure/kubernetes/proxy/resource.go@v1.9.0); a ` +
        `shorter grace kills Envoy mid-drain.`),
  };
  changes.push({
    path: patched.path,
    value: needed,
    reason: `terminationGracePeriodSeconds = ${needed}: ${derived.formula}. ${derived.explanation}`,
  });
  findings.push({
    severity: 'info',
    code: 'EG_PATCHED_GRACE_BELOW_DRAIN',
    message:
      `${location.label} patches the proxy's terminationGracePeriodSeconds ` +
      `to ${patched.seconds} s through ${patched.workloadField}.patch, ` +
      (`below drainTimeout ${D} s + ${READY_TIMEOUT_OVER_DRAIN_TIMEOUT_SECONDS}` +
        ` s: the pod would be killed before the drain ends. It is raised to ${needed}` +
        `.`),
    path: patched.path,
  });
  return derived;
}

/**
 * The model's deregistration-delay check against the pod's drain, and the grace check against the
 * grace the pod really gets (Envoy Gateway's D + 300 or the patch's), not the model's S + R + B.
 */
function loadBalancerFindings(
  plan: TimingPlan,
  lb: TimingInputs['loadBalancer'],
  grace: number,
): EnvoyGatewayFinding[] {
  const findings: EnvoyGatewayFinding[] = plan.checks
    .filter((check) => check.code === 'LB_DEREGISTRATION_TOO_SHORT')
    .map((check) => ({
      severity: check.severity,
      code: 'LB_DEREGISTRATION_TOO_SHORT',
      message: check.message,
    }));
  const delay = lb?.deregistrationDelaySeconds;
  if (delay !== undefined && delay.value > grace && lb?.connectionTermination !== true) {
    findings.push({
      severity: 'warning',
      code: 'LB_DEREGISTRATION_OUTLIVES_GRACE',
      message:
        `The load balancer's deregistration delay is ${delay.value} s ` +
        `(${sourceText(delay.source)}), longer than the proxy pod's grace period ${grace} s, ` +
        (`and connection termination is off: for ${delay.value - grace} s it ` +
          `keeps routing established connections to a pod that is gone. `) +
        (`Set deregistration_delay.connection_termination.enabled=true, or ` +
          `deregistration_delay.timeout_seconds=${grace}, in the `) +
        (`service.beta.kubernetes.io/aws-load-balancer-target-group-attributes ` +
          `annotation under envoyService.annotations.`),
    });
  }
  return findings;
}

function unreadableFinding(
  location: SpecLocation,
  path: FieldPath,
  field: string,
  read: ReadDuration,
): EnvoyGatewayFinding {
  return {
    severity: 'error',
    code: 'EG_SHUTDOWN_DURATION_UNREADABLE',
    message:
      `${location.label}: shutdown.${field} ` +
      `${JSON.stringify(read.kind === 'unreadable' ? read.text : '')} ` +
      `is not a duration Envoy Gateway accepts ` +
      (`(Go duration text such as "60s" or "1m30s"; a bare number is not one: ` +
        `api/v1alpha1/envoyproxy_types.go@v1.9.0). `) +
      `Write it with a unit, e.g. "${field === DRAIN_TIMEOUT ? '60s' : '10s'}".`,
    path,
  };
}
