/**
 * The timing of one app workload, from the one model (fn/timing/model.ts): a plan per serving
 * container (its own preStop, if it has one, fixes its S) and the pod's plan, which is the
 * plan of the container that sleeps longest: the grace period and the sidecar must cover that
 * one, and so cover every other.
 */
import type { MutatorContext, ProposedFinding } from '../types.ts';
import { resolveTimingInputs } from '../shared/timingInputs.ts';
import type { LoadBalancerRecognition } from '../../timing/loadBalancers.ts';
import type { ExistingTiming } from '../shared/timingInputs.ts';
import { graceToWrite, planTiming } from '../../timing/model.ts';
import { KUBERNETES_DEFAULT_GRACE_SECONDS } from '../../timing/platformDefaults.ts';
import type { TimingCheck, TimingInputs, TimingPlan } from '../../timing/model.ts';
import type { MeshMembership } from '../../workloads/mesh.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { PreStopLength } from './preStop.ts';
import { sourceText } from '../../core/source.ts';

/** What `explain` shows for an app workload. */
export interface AppPlan {
  /** The pod's timing inputs (W, R, B and what the manifest already sets). */
  readonly inputs: TimingInputs;
  /** The pod's plan: S of the longest-sleeping serving container, G, the sidecar's wait. */
  readonly plan: TimingPlan;
  readonly sidecar: 'native' | 'classic' | 'none';
  readonly mesh: MeshMembership;
  readonly servingContainers: readonly string[];
  /** The grace period the pods will have: the plan's G, or the Kubernetes default when that covers
   * it. */
  readonly effectiveGraceSeconds: number;
  /** The load balancer that decided W, when one in the stream did: who sends new connections. */
  readonly loadBalancer?: LoadBalancerRecognition;
}

/** A serving container and the length of the preStop it already has, if any. */
export interface ServingHook {
  readonly name: string;
  readonly existing: PreStopLength | undefined;
}

/** The pod's plan, each container's plan, and findings: input notes, per-hook and per-pod
 * checks. */
export interface AppTiming {
  readonly inputs: TimingInputs;
  readonly pod: TimingPlan;
  readonly containers: ReadonlyMap<string, TimingPlan>;
  readonly findings: ProposedFinding[];
  /** The pod plan's checks that are not about one hook; the caller keeps those that apply. */
  readonly podChecks: readonly TimingCheck[];
  /** The grace to write, or undefined when the manifest sets none and the default 30 s covers G. */
  readonly graceToWrite: number | undefined;
  readonly effectiveGraceSeconds: number;
  /** The load balancer that decided W, when one in the stream did. */
  readonly loadBalancer?: LoadBalancerRecognition;
  /** When the app stops taking new work, for reasons: `its SIGTERM at S = … s` when not given (a
   * Traefik pod gets SIGTERM at once and keeps accepting until its requestAcceptGraceTimeout). */
  readonly stopsAccepting?: string;
}

/** Returns the sentence that names where the drain window W came from, for change reasons. */
export function drainWindowSource(timing: AppTiming): string {
  const { value, source } = timing.inputs.drainWindow;
  return `W = ${value} s from ${sourceText(source)}.`;
}

/** Checks about one container's own hook; reported once per container, at its preStop. */
const HOOK_CHECKS = new Set(['PRESTOP_BELOW_WINDOW', 'PRESTOP_LENGTH_UNKNOWN']);

/**
 * Returns the timing of a workload whose serving containers are `hooks` (at least one);
 * `existing` carries what the pod's proxy config already sets (drainDuration).
 */
export function planAppTiming(
  workload: Workload,
  context: MutatorContext,
  hooks: readonly ServingHook[],
  existing: ExistingTiming = {},
): AppTiming {
  const resolved = resolveTimingInputs(workload, context, existing);
  const findings: ProposedFinding[] = [...resolved.findings];
  const containers = new Map<string, TimingPlan>();
  let podInputs = resolved.inputs;
  let pod: TimingPlan | undefined;
  const existingGrace = resolved.inputs.existingGraceSeconds;
  const effectiveBefore = existingGrace ?? KUBERNETES_DEFAULT_GRACE_SECONDS;
  for (const hook of hooks) {
    const inputs: TimingInputs =
      hook.existing === undefined
        ? resolved.inputs
        : { ...resolved.inputs, existingPreStopSeconds: hook.existing };
    const plan = planTiming(inputs);
    containers.set(hook.name, plan);
    if (pod === undefined || plan.preStopSeconds.value > pod.preStopSeconds.value) {
      pod = plan;
      podInputs = inputs;
    }
    const at = workload.containerAt(hook.name, 'lifecycle', 'preStop');
    for (const check of plan.checks.filter((c) => HOOK_CHECKS.has(c.code))) {
      findings.push({
        severity: check.severity,
        code: check.code,
        message: `Container ${hook.name}: ${check.message}`,
        path: at,
      });
    }
    if (typeof hook.existing === 'number' && plan.graceSeconds.value > effectiveBefore) {
      const grace =
        existingGrace === undefined
          ? `not set (Kubernetes default ${KUBERNETES_DEFAULT_GRACE_SECONDS} s)`
          : `${existingGrace} s`;
      const cut = effectiveBefore <= hook.existing;
      findings.push({
        // Warning when the hook itself cannot finish (the API server rejects a sleep action longer
        // than the grace period; an exec sleep is killed): the source chart is broken, not just
        // tight.
        severity: cut ? 'warning' : 'info',
        code: 'GRACE_BELOW_OWN_PRESTOP',
        message:
          `Container ${hook.name}'s own preStop sleeps ${hook.existing} s but ` +
          `terminationGracePeriodSeconds is ${grace}: ` +
          (cut
            ? 'the hook itself is cut short. '
            : 'the app has too little time left to finish its requests. ') +
          `It needs ${plan.graceSeconds.formula}; raised to ${plan.graceSeconds.value}.`,
        path: workload.at('spec', 'terminationGracePeriodSeconds'),
      });
    }
  }
  if (pod === undefined) throw new RangeError('planAppTiming: no serving container');
  const G = pod.graceSeconds.value;
  // The API default applies before the sleep-action check, so an unset field counts as 30 s.
  const grace = graceToWrite(G, existingGrace);
  return {
    inputs: podInputs,
    pod,
    containers,
    findings,
    podChecks: pod.checks.filter((c) => !HOOK_CHECKS.has(c.code)),
    graceToWrite: grace,
    effectiveGraceSeconds: grace ?? existingGrace ?? KUBERNETES_DEFAULT_GRACE_SECONDS,
    ...(resolved.loadBalancer ? { loadBalancer: resolved.loadBalancer } : {}),
  };
}
