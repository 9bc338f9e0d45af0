/**
 * The Traefik numbers of the timing model (docs/background.md#the-timing-model), from W, R and B:
 *
 *   S = W (or W − P after a user's preStop sleep of P s)     requestAcceptGraceTimeout: keep
 *                                                            accepting while the LB still sends
 *   graceTimeOut = R                                         the longest request may finish
 *   G = P + max(S' + R') over the TCP entry points (+ the UDP ones, stopped after) + B
 *
 * where S' and R' are what each entry point ends up with (a user's larger value is kept). Traefik
 * stops its TCP entry points in parallel, then its UDP ones (`Server.Stop`,
 * pkg/server/server.go@v2.11.53 and @v3.7.9), each sleeping requestAcceptGraceTimeout and then
 * waiting up to graceTimeOut (`Shutdown`, pkg/server/server_entrypoint_tcp.go and
 * server_entrypoint_udp.go@v3.7.9), so the process lives that long after SIGTERM.
 */
import { planTimingResult } from '../../timing/model.ts';
import type { Derived, Sourced, TimingCheck, TimingInputs } from '../../timing/model.ts';
import { TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS } from './facts.ts';
import type { EntryPoint, LifecycleValue } from './staticConfig/read.ts';
import { sourceText } from '../../core/source.ts';

/** The model's inputs for one Traefik workload (whole seconds, with where each came from). */
export interface TraefikTimingInputs {
  /** W: how long the load balancer may still send new connections after termination starts. */
  readonly drainWindow: Sourced;
  /** R: the longest request to finish. */
  readonly maxRequest: Sourced;
  /** B: safety buffer. */
  readonly buffer: Sourced;
  /** `terminationGracePeriodSeconds` in the manifest. */
  readonly existingGraceSeconds?: number;
  /**
   * The load balancer's target-group timing, when known (AWS), as
   * fn/mutators/shared/timingInputs.ts resolves it.
   */
  readonly loadBalancer?: TimingInputs['loadBalancer'];
  /** A preStop the user wrote on the Traefik container: its sleep, or 'unknown'. Never added by
   * kube-graceful. */
  readonly existingPreStopSeconds?: number | 'unknown';
}

/** What one entry point will run with after the change. */
interface EntryPointTiming {
  readonly entryPoint: EntryPoint;
  readonly requestAcceptGraceSeconds: number;
  readonly graceTimeOutSeconds: number;
}

/** The targets and the grace period, each with its formula. */
export interface TraefikTimingPlan {
  /** P: the user's preStop sleep (0 when none or unreadable). */
  readonly preStopSeconds: number;
  /** S: requestAcceptGraceTimeout each TCP entry point needs. */
  readonly requestAcceptGrace: Derived;
  /** graceTimeOut each TCP entry point needs (R). */
  readonly graceTimeOut: Derived;
  readonly entryPoints: readonly EntryPointTiming[];
  /** G: terminationGracePeriodSeconds needed (before comparing with the manifest's). */
  readonly grace: Derived;
}

/** Returns seconds rounded up: Traefik durations may be fractional, Kubernetes' grace is whole. */
function whole(seconds: number): number {
  return Math.ceil(seconds);
}

/** A user value that is readable and larger than the target wins; anything else gets the target. */
function effective(value: LifecycleValue | undefined, target: number): number {
  return value?.seconds !== undefined && value.seconds > target ? whole(value.seconds) : target;
}

/** Returns the plan for one Traefik container's entry points. */
export function planTraefikTiming(
  inputs: TraefikTimingInputs,
  entryPoints: readonly EntryPoint[],
): TraefikTimingPlan {
  const W = inputs.drainWindow.value;
  const R = inputs.maxRequest.value;
  const B = inputs.buffer.value;
  const P = typeof inputs.existingPreStopSeconds === 'number' ? inputs.existingPreStopSeconds : 0;

  const S = Math.max(W - P, 0);
  const requestAcceptGrace: Derived =
    P === 0
      ? {
          value: S,
          formula: `S = W = ${W}`,
          explanation:
            `Traefik keeps accepting for ${S} s after SIGTERM, because the load ` +
            `balancer may send new connections for that long.`,
        }
      : {
          value: S,
          formula: `S = max(W − P, 0) = max(${W} − ${P}, 0) = ${S}`,
          explanation:
            `The container's own preStop already holds SIGTERM back ${P} s; ` +
            `Traefik keeps accepting for the rest of the drain window W = ${W} s.`,
        };
  const graceTimeOut: Derived = {
    value: R,
    formula: `graceTimeOut = R = ${R}`,
    explanation:
      `After it stops accepting, Traefik gives requests in flight up to ${R} ` +
      `s to finish, then closes what is left.`,
  };

  const timings = entryPointTimings(entryPoints, S, R);
  const tcp = longest(timings, 'tcp');
  const udp = longest(timings, 'udp');
  const grace = graceOf({ P, S, R, B }, tcp, udp, inputs);
  return { preStopSeconds: P, requestAcceptGrace, graceTimeOut, entryPoints: timings, grace };
}

/** Each entry point's own times: TCP ones at least the targets, UDP ones as written. */
function entryPointTimings(
  entryPoints: readonly EntryPoint[],
  S: number,
  R: number,
): EntryPointTiming[] {
  return entryPoints.map((entryPoint) =>
    entryPoint.protocol === 'tcp'
      ? {
          entryPoint,
          requestAcceptGraceSeconds: effective(entryPoint.lifecycle.requestAcceptGraceTimeout, S),
          graceTimeOutSeconds: effective(entryPoint.lifecycle.graceTimeOut, R),
        }
      : {
          // UDP entry points are left as written: their own values, or Traefik's defaults.
          entryPoint,
          requestAcceptGraceSeconds: whole(
            entryPoint.lifecycle.requestAcceptGraceTimeout?.seconds ?? 0,
          ),
          graceTimeOutSeconds: whole(
            entryPoint.lifecycle.graceTimeOut?.seconds ?? TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS,
          ),
        },
  );
}

/** The entry point of `protocol` that takes longest to stop (accepting, then finishing). */
function longest(
  timings: readonly EntryPointTiming[],
  protocol: 'tcp' | 'udp',
): EntryPointTiming | undefined {
  return timings
    .filter((t) => t.entryPoint.protocol === protocol)
    .reduce<EntryPointTiming | undefined>(
      (best, t) =>
        best === undefined ||
        t.requestAcceptGraceSeconds + t.graceTimeOutSeconds >
          best.requestAcceptGraceSeconds + best.graceTimeOutSeconds
          ? t
          : best,
      undefined,
    );
}

/**
 * G: the preStop P, the longest TCP entry point's accept and finish times, the UDP entry points
 * (stopped after the TCP ones) and B.
 */
function graceOf(
  { P, S, R, B }: { P: number; S: number; R: number; B: number },
  tcp: EntryPointTiming | undefined,
  udp: EntryPointTiming | undefined,
  inputs: TraefikTimingInputs,
): Derived {
  const tcpS = tcp?.requestAcceptGraceSeconds ?? S;
  const tcpR = tcp?.graceTimeOutSeconds ?? R;
  const udpSeconds =
    udp === undefined ? 0 : udp.requestAcceptGraceSeconds + udp.graceTimeOutSeconds;
  const value = P + tcpS + tcpR + udpSeconds + B;

  const terms: string[] = [];
  const numbers: string[] = [];
  if (P > 0) {
    terms.push('P');
    numbers.push(String(P));
  }
  const simple = tcpS === S && tcpR === R;
  terms.push(simple ? 'S + R' : `S′ + R′ (entry point ${tcp?.entryPoint.name})`);
  numbers.push(`${tcpS} + ${tcpR}`);
  if (udp !== undefined) {
    terms.push(`UDP entry point ${udp.entryPoint.name}`);
    numbers.push(`(${udp.requestAcceptGraceSeconds} + ${udp.graceTimeOutSeconds})`);
  }
  terms.push('B');
  numbers.push(String(B));
  return {
    value,
    formula: `G = ${terms.join(' + ')} = ${numbers.join(' + ')} = ${value}`,
    explanation:
      `The grace countdown starts at termination, so it must hold ` +
      (P > 0 ? `the preStop (${P} s), ` : '') +
      `the time Traefik keeps accepting (${tcpS} s) and waits for requests in flight (${tcpR} s)` +
      (udp === undefined
        ? ''
        : `, then its UDP entry points, stopped after the TCP ones (${udpSeconds} s)`) +
      `, and the buffer (${B} s, ${sourceText(inputs.buffer.source)}).`,
  };
}

/** The model's checks about the load balancer's own settings. */
export type LoadBalancerCheck = TimingCheck & {
  code: 'LB_DEREGISTRATION_TOO_SHORT' | 'LB_DEREGISTRATION_OUTLIVES_GRACE';
};

function isLoadBalancerCheck(check: TimingCheck): check is LoadBalancerCheck {
  return (
    check.code === 'LB_DEREGISTRATION_TOO_SHORT' ||
    check.code === 'LB_DEREGISTRATION_OUTLIVES_GRACE'
  );
}

/**
 * Returns the model's load-balancer checks (LB_DEREGISTRATION_TOO_SHORT,
 * LB_DEREGISTRATION_OUTLIVES_GRACE) for what the pod will really do: it accepts until P + S′ and
 * is done by P + S′ + R′, inside the grace period G it ends up with. The model's own arithmetic
 * decides; only its load-balancer checks are taken (the others are about a preStop and a sidecar,
 * which Traefik has not).
 */
export function loadBalancerChecks(
  inputs: TraefikTimingInputs,
  plan: TraefikTimingPlan,
  graceSeconds: number,
): LoadBalancerCheck[] {
  if (inputs.loadBalancer?.deregistrationDelaySeconds === undefined) return [];
  const tcp = plan.entryPoints.filter((t) => t.entryPoint.protocol === 'tcp');
  // Accepting until the longest requestAcceptGraceTimeout; done when the longest entry point is
  // (its own S′ + R′: the longest sleep and the longest wait may be on different entry points).
  const accepting =
    plan.preStopSeconds +
    Math.max(plan.requestAcceptGrace.value, ...tcp.map((t) => t.requestAcceptGraceSeconds));
  const done =
    plan.preStopSeconds +
    Math.max(
      plan.requestAcceptGrace.value + plan.graceTimeOut.value,
      ...tcp.map((t) => t.requestAcceptGraceSeconds + t.graceTimeOutSeconds),
    );
  const inFlight = done - accepting;
  const result = planTimingResult({
    drainWindow: { value: accepting, source: inputs.drainWindow.source },
    maxRequest: { value: inFlight, source: inputs.maxRequest.source },
    buffer: inputs.buffer,
    existingGraceSeconds: graceSeconds,
    loadBalancer: inputs.loadBalancer,
  });
  // A user value beyond the model's one-day range: no check rather than a wrong one.
  return result.ok ? result.plan.checks.filter(isLoadBalancerCheck) : [];
}
