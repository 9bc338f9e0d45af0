/**
 * contour-drain (issue #26 item 4): Contour's Envoy behind a load balancer keeps accepting while
 * the load balancer may still send it new connections, lets its connections finish their requests,
 * then exits, and its grace period covers all of it. It does so with the shutdown-manager's own
 * `--check-delay` or `--drain-delay` (drain-delay + check-delay ≥ W), never lowering a value
 * already written, and keeps both of Contour's preStop hooks. The decision is ./decide.ts; the pod
 * is recognised by the shutdown-manager's command (./shutdownManager.ts).
 */
import { contourEnvoyPod } from './shutdownManager.ts';
import type { Workload } from '../../workloads/workload.ts';
import { resolveTimingInputs } from '../shared/timingInputs.ts';
import { nodeForwardingOf } from '../../timing/loadBalancers.ts';
import { defineMutator, NOTHING } from '../types.ts';
import type { MutatorContext, MutatorOutcome } from '../types.ts';
import { decideContour } from './decide.ts';
import { explainContour } from './explain.ts';
import { CONTOUR_FINDING_CODES } from './findings.ts';
import type { ContourPlan } from './plan.ts';
import { CONTOUR_SETTINGS } from './settings/slice.ts';
import { runsContourShutdownManager } from './shutdownManager.ts';
import { CONTOUR_COMPATIBILITY } from './compatibility.ts';

export const contourDrain = defineMutator<ContourPlan, 'contour-drain'>({
  id: 'contour-drain',
  settings: CONTOUR_SETTINGS,
  compatibility: CONTOUR_COMPATIBILITY,
  description:
    "Contour's Envoy: keep accepting while the load balancer drains (the shutdown-manager's " +
    '--check-delay), then let connections finish; grace period to match',
  findingCodes: CONTOUR_FINDING_CODES,
  enabled: (spec) => spec.contour.mode === 'on',
  // Its pods are its own whole: its preStop waits on the shutdown-manager's /shutdown
  // (./shutdownManager.ts).
  claims: (workload) => !workload.runsToCompletion && runsContourShutdownManager(workload.template),
  mutate,
  explain: explainContour,
});

function mutate(workload: Workload, context: MutatorContext): MutatorOutcome<ContourPlan> {
  const pod = workload.runsToCompletion ? undefined : contourEnvoyPod(workload.template.spec);
  if (pod === undefined) return NOTHING;
  const resolved = resolveTimingInputs(workload, context);
  // Behind instance targets with externalTrafficPolicy Local the node forwards to Envoy only while
  // it is ready (fn/timing/loadBalancerTable.ts nodeForwardingOf): the drain delay must hold
  // readiness until W, on a kube-proxy that forwards to a terminating pod at all.
  const nodeForwarding = nodeForwardingOf(resolved.loadBalancer, context.spec.kubernetesVersion);
  const readinessBound = nodeForwarding === 'while-ready';
  const decision = decideContour(workload, resolved.inputs, pod, { readinessBound });
  const findings = [...resolved.findings, ...decision.findings];
  const meshed = context.mesh.istio !== undefined || context.mesh.linkerd !== undefined;
  if (meshed)
    findings.push({
      severity: 'warning',
      code: 'CONTOUR_MESH_NOT_MODELLED',
      message:
        "The Envoy pod has a mesh sidecar; kube-graceful does not model it with Contour's " +
        'shutdown and leaves it as written: make sure it outlives Envoy (drain-delay + ' +
        'check-delay + the longest request), e.g. a native sidecar.',
    });
  const { stopAccepting, grace } = decision;
  if (pod.envoy === undefined || stopAccepting === undefined || grace === undefined)
    return { changes: decision.changes, findings };
  const plan: ContourPlan = {
    inputs: resolved.inputs,
    stopAccepting,
    grace,
    shutdownManager: pod.shutdownManager.name,
    envoy: pod.envoy.name,
    ...(decision.version ? { version: decision.version } : {}),
    ...(resolved.loadBalancer ? { loadBalancer: resolved.loadBalancer } : {}),
    ...(nodeForwarding ? { nodeForwarding } : {}),
    ...(meshed ? { mesh: context.mesh } : {}),
  };
  return { changes: decision.changes, findings, plan };
}
