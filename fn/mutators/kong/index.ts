/**
 * kong-drain (issue #26 item 5): Kong's proxy behind a load balancer keeps accepting while the load
 * balancer may still send it new connections, finishes the requests in flight, then exits, and its
 * grace period covers all of it. It does so with the chart's own preStop `kong quit`: `--wait` = W
 * and `--timeout` = R, never lowering a value already written. The pod's ingress-controller
 * container is not behind the load balancer and is left as written. The decision is ./decide.ts;
 * the proxy is recognised by its hook or its image (./kongQuit.ts).
 */
import { kongContainers } from './kongQuit.ts';
import type { Workload } from '../../workloads/workload.ts';
import { resolveTimingInputs } from '../shared/timingInputs.ts';
import { nodeForwardingOf } from '../../timing/loadBalancers.ts';
import { defineMutator, NOTHING } from '../types.ts';
import type { MutatorContext, MutatorOutcome } from '../types.ts';
import { decideKong } from './decide.ts';
import { explainKong } from './explain.ts';
import { KONG_FINDING_CODES } from './findings.ts';
import type { KongPlan } from './plan.ts';
import { KONG_SETTINGS } from './settings/slice.ts';
import { runsKong } from './kongQuit.ts';
import { KONG_COMPATIBILITY } from './compatibility.ts';

export const kongDrain = defineMutator<KongPlan, 'kong-drain'>({
  id: 'kong-drain',
  settings: KONG_SETTINGS,
  compatibility: KONG_COMPATIBILITY,
  description:
    "Kong: keep nginx accepting while the load balancer drains (the preStop's kong quit " +
    '--wait), then finish requests (--timeout); grace period to match',
  findingCodes: KONG_FINDING_CODES,
  enabled: (spec) => spec.kong.mode === 'on',
  // Its pods are its own whole: its preStop kong quit is how nginx stops, and the chart's
  // ingress-controller container is not behind the load balancer (./kongQuit.ts).
  claims: (workload) => !workload.runsToCompletion && runsKong(workload.template),
  mutate,
  explain: explainKong,
});

function mutate(workload: Workload, context: MutatorContext): MutatorOutcome<KongPlan> {
  const containers = workload.runsToCompletion ? [] : kongContainers(workload.template.spec);
  if (containers.length === 0) return NOTHING;
  const resolved = resolveTimingInputs(workload, context);
  const decision = decideKong(workload, resolved.inputs, containers);
  const findings = [...resolved.findings, ...decision.findings];
  const meshed = context.mesh.istio !== undefined || context.mesh.linkerd !== undefined;
  if (meshed)
    findings.push({
      severity: 'warning',
      code: 'KONG_MESH_NOT_MODELLED',
      message:
        'The Kong pod has a mesh sidecar; kube-graceful does not model it with kong quit and ' +
        'leaves it as written: make sure it outlives Kong (--wait + the longest request), e.g. ' +
        'a native sidecar.',
    });
  const { container, wait, timeout, grace } = decision;
  if (container === undefined || wait === undefined || timeout === undefined || !grace)
    return { changes: decision.changes, findings };
  // Behind node targets with Local the pod's readiness decides how long the node forwards
  // (./timeline.ts).
  const nodeForwarding = nodeForwardingOf(resolved.loadBalancer, context.spec.kubernetesVersion);
  const plan: KongPlan = {
    inputs: resolved.inputs,
    wait,
    timeout,
    grace,
    container,
    others: workload.containers.map((c) => c.name).filter((name) => name !== container),
    ...(resolved.loadBalancer ? { loadBalancer: resolved.loadBalancer } : {}),
    ...(nodeForwarding ? { nodeForwarding } : {}),
    ...(meshed ? { mesh: context.mesh } : {}),
  };
  return { changes: decision.changes, findings, plan };
}
