/**
 * app-graceful (issue #5): every long-running workload that serves traffic keeps serving until
 * the endpoints routing to it have been updated (preStop S = W), has time to finish its requests
 * (grace G = S + R + B), and keeps its mesh sidecar up until the app is done. Every number comes
 * from the timing model (fn/timing/model.ts) and each change says how it was derived.
 */
import { originOf } from '../../config/schema.ts';
import { formatRef } from '../../core/kubeObject.ts';
import { groupOf } from '../../workloads/kinds.ts';
import type { Workload } from '../../workloads/workload.ts';
import type {
  Claim,
  MutatorContext,
  MutatorOutcome,
  ProposedChange,
  ProposedFinding,
} from '../types.ts';
import { defineMutator, NOTHING } from '../types.ts';
import { ambientAppFinding } from '../shared/ambient.ts';
import { cloudSqlProxies } from './cloudSqlProxy.ts';
import { controlPlaneReason } from './controlPlane.ts';
import { explainApp } from './explain.ts';
import { APP_FINDING_CODES } from './findings.ts';
import { podDrainDurationSeconds } from './istioInboundDrain.ts';
import { istioRenderInjected } from './istioRenderInjected.ts';
import { istioSidecar } from './istioSidecar.ts';
import { linkerdRenderInjected } from './linkerdRenderInjected.ts';
import { linkerdSidecar } from './linkerdSidecar.ts';
import { newPreStop } from './preStop.ts';
import { preStopSeconds } from '../../workloads/preStop.ts';
import { servingContainers } from './servingContainers.ts';
import type { SidecarOutcome } from './sidecarMode.ts';
import { drainWindowSource, planAppTiming } from './timing.ts';
import { planClaimedPodTiming } from './claimedTiming.ts';
import type { AppPlan, AppTiming } from './timing.ts';
import { APP_SETTINGS } from './settings/slice.ts';

export type { AppPlan } from './timing.ts';

/** Long-running kinds with a pod template (apps/v1); extra kinds (Argo Rollouts…) come from
 * config. */
const APP_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']);

export const appGraceful = defineMutator<AppPlan, 'app-graceful'>({
  id: 'app-graceful',
  settings: APP_SETTINGS,
  description:
    'app containers: preStop sleep for the drain window, grace period, ' +
    'mesh sidecar that outlives the app',
  findingCodes: APP_FINDING_CODES,
  enabled: (spec) => spec.app.mode === 'on',
  mutate,
  explain: explainApp,
});

function mutate(workload: Workload, context: MutatorContext): MutatorOutcome<AppPlan> {
  if (!inScope(workload, context)) return NOTHING;
  // Pods another mutator takes whole are its own (`claims`): Istio gateways gateway-drain's, pods
  // that run to completion job-sidecar-quit's, and a proxy that drains its own way its mutator's
  // (ingress-nginx's /wait-shutdown, Contour's shutdown-manager, Kong's kong quit, Traefik's
  // requestAcceptGraceTimeout), where a sleep in front would only move every step later.
  if (context.claimedBy !== undefined) return claimedSidecars(workload, context, context.claimedBy);
  const controlPlane = controlPlaneReason(workload);
  if (controlPlane && !context.explicitlyIncluded)
    return { changes: [], findings: [controlPlaneLeftAlone(workload, controlPlane)] };
  const serving = servingContainers(workload, context);
  const findings: ProposedFinding[] = [
    ...(context.mesh.ambient ? [ambientAppFinding(context.mesh.ambient.evidence)] : []),
    ...serving.findings,
  ];
  if (serving.names.length === 0) {
    findings.push({
      severity: 'info',
      code: 'NO_SERVING_CONTAINER',
      message:
        'No app container declares ports or receives traffic from a Service in ' +
        'the stream, so there is no drain window to wait for; left alone. List ' +
        'serving containers in app.servingContainers to change that.',
    });
    return { changes: [], findings };
  }
  const hooks = serving.names.map((name) => ({
    name,
    existing: preStopSeconds(
      workload.containers.find((c) => c.name === name)?.lifecycle?.preStop,
      context.spec.kubernetesVersion,
    ),
  }));
  const drainDuration = context.mesh.istio ? podDrainDurationSeconds(workload) : undefined;
  const timing = planAppTiming(
    workload,
    context,
    hooks,
    drainDuration === undefined ? {} : { existingDrainDurationSeconds: drainDuration },
  );
  findings.push(...timing.findings);
  const preStops = preStopChanges(workload, context, timing, { hooks, why: serving.why });
  const changes: ProposedChange[] = [...preStops.changes];
  findings.push(...preStops.findings);
  if (timing.graceToWrite !== undefined) {
    const G = timing.pod.graceSeconds;
    changes.push({
      path: workload.at('spec', 'terminationGracePeriodSeconds'),
      value: timing.graceToWrite,
      reason: [G.formula, G.explanation, drainWindowSource(timing)].join('\n'),
    });
  }
  const sidecars = sidecarsOf(workload, context, timing);
  for (const sidecar of sidecars) {
    changes.push(...sidecar.changes);
    findings.push(...sidecar.findings);
  }
  const cloudSql = cloudSqlProxies(workload, context, timing.pod.sidecarOutlivesSeconds);
  changes.push(...cloudSql.changes);
  findings.push(...cloudSql.findings);
  const usesSidecarWait = sidecars.some((s) => s.usesSidecarWait) || cloudSql.usesSidecarWait;
  // sidecarsOf lists Istio first.
  const classicIstio = context.mesh.istio !== undefined && sidecars[0]?.mode === 'classic';
  findings.push(...podCheckFindings(timing, usesSidecarWait, classicIstio));
  const plan: AppPlan = {
    inputs: timing.inputs,
    plan: timing.pod,
    sidecar: sidecars[0]?.mode ?? 'none',
    mesh: context.mesh,
    servingContainers: serving.names,
    effectiveGraceSeconds: timing.effectiveGraceSeconds,
    ...(timing.loadBalancer ? { loadBalancer: timing.loadBalancer } : {}),
  };
  return { changes, findings, plan };
}

/**
 * A pod another mutator claims: it owns the pod's drain, but when it says how long its server
 * serves (traefik-drain: Traefik keeps accepting on SIGTERM), the pod's mesh proxy must outlive
 * that as it outlives an app, or the server's requests to its backends fail while it still
 * accepts. Only the sidecar settings are made here (./claimedTiming.ts); with the claiming mutator
 * off, or no span, nothing.
 */
function claimedSidecars(
  workload: Workload,
  context: MutatorContext,
  claim: Claim,
): MutatorOutcome<AppPlan> {
  if (!context.mesh.istio && !context.mesh.linkerd) return NOTHING;
  const span = claim.servingSpan?.();
  if (span === undefined) return NOTHING;
  const timing = planClaimedPodTiming(span);
  const changes: ProposedChange[] = [];
  const findings: ProposedFinding[] = [];
  for (const sidecar of sidecarsOf(workload, context, timing)) {
    changes.push(...sidecar.changes);
    findings.push(...sidecar.findings);
  }
  return { changes, findings };
}

/** Returns true for the long-running apps/v1 kinds and the configured extra kinds. */
function inScope(workload: Workload, context: MutatorContext): boolean {
  const { kind, apiVersion } = workload.ref;
  const group = groupOf(apiVersion);
  if (group === 'apps' && APP_KINDS.has(kind)) return true;
  return context.spec.extraKinds.some((k) => k.kind === kind && k.group === group);
}

/** Returns what each mesh injecting into the pods needs (none for pods without a mesh). */
function sidecarsOf(
  workload: Workload,
  context: MutatorContext,
  timing: AppTiming,
): SidecarOutcome[] {
  return [
    ...(context.mesh.istio
      ? [
          context.mesh.istio.renderInjected
            ? istioRenderInjected(workload, context.spec, timing, context.mesh.istio.renderInjected)
            : istioSidecar(
                workload,
                context.spec,
                timing,
                originOf(context.config, 'istioVersion').kind !== 'default',
              ),
        ]
      : []),
    ...(context.mesh.linkerd
      ? [
          context.mesh.linkerd.renderInjected
            ? linkerdRenderInjected(
                workload,
                context.spec,
                timing,
                context.mesh.linkerd.renderInjected,
              )
            : linkerdSidecar(workload, context.spec, timing),
        ]
      : []),
  ];
}

/** The preStop sleep of each serving container without a hook of its own. */
function preStopChanges(
  workload: Workload,
  context: MutatorContext,
  timing: AppTiming,
  {
    hooks,
    why,
  }: {
    readonly hooks: ReadonlyArray<{ readonly name: string; readonly existing: unknown }>;
    readonly why: ReadonlyMap<string, string>;
  },
): { changes: ProposedChange[]; findings: ProposedFinding[] } {
  const changes: ProposedChange[] = [];
  const findings: ProposedFinding[] = [];
  for (const hook of hooks) {
    if (hook.existing !== undefined) continue; // the user's hook stays; its length fed the plan
    const plan = timing.containers.get(hook.name)!;
    const S = plan.preStopSeconds.value;
    // Nothing to wait for (and `seconds: 0` is invalid before 1.33, KEP-4818).
    if (S === 0) continue;
    const made = newPreStop(S, context.spec);
    const path = workload.containerAt(hook.name, 'lifecycle', 'preStop');
    if (made.hook === undefined) {
      findings.push({
        severity: 'warning',
        code: 'PRESTOP_NOT_WRITTEN',
        message: `Container ${hook.name}: ${made.problem}`,
        path,
      });
      continue;
    }
    const defaultGives =
      timing.graceToWrite === undefined && timing.inputs.existingGraceSeconds === undefined
        ? `, which the Kubernetes default of ${timing.effectiveGraceSeconds} s ` +
          `already gives (field not set)`
        : '';
    const reason = [
      `${plan.preStopSeconds.formula}; serving: ${why.get(hook.name)}.`,
      plan.preStopSeconds.explanation,
      made.mechanism,
      `Fits the grace period: ${timing.pod.graceSeconds.formula}${defaultGives}.`,
    ].join('\n');
    changes.push({ path, value: made.hook, reason });
  }
  return { changes, findings };
}

function controlPlaneLeftAlone(workload: Workload, reason: string): ProposedFinding {
  return {
    severity: 'info',
    code: 'CONTROL_PLANE_LEFT_ALONE',
    message:
      `${formatRef(workload.ref)} is left alone because ${reason}; ` +
      `name it in an include selector to change it.`,
  };
}

/** The pod's timing checks that apply to what was written. */
function podCheckFindings(
  timing: AppTiming,
  usesSidecarWait: boolean,
  classicIstio: boolean,
): ProposedFinding[] {
  return timing.podChecks
    .filter(
      (check) =>
        !(check.code === 'SIDECAR_WAIT_NOT_BELOW_GRACE' && !usesSidecarWait) &&
        // Only a classic istio-proxy closes its inbound listeners after drainDuration
        // (istioInboundDrain.ts).
        !(check.code === 'DRAIN_DURATION_BELOW_WINDOW' && !classicIstio),
    )
    .map((check) => ({ severity: check.severity, code: check.code, message: check.message }));
}
