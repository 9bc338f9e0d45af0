/**
 * ingress-nginx-drain (issue #26 item 3): the ingress-nginx controller behind a load balancer keeps
 * accepting while the load balancer may still send it new connections, finishes the requests in
 * flight, then exits, and its grace period covers all of it. It does so with the controller's own
 * `--shutdown-grace-period` (P = W), never lowering a value already written, and keeps the chart's
 * `/wait-shutdown` preStop. The decision is ./decide.ts; the controller is recognised by its binary
 * (./controller.ts).
 */
import { runsIngressNginx } from './controller.ts';
import type { Workload } from '../../workloads/workload.ts';
import { resolveTimingInputs } from '../shared/timingInputs.ts';
import { nodeLocalReadinessMessage } from '../shared/nodeLocalReadiness.ts';
import { nodeForwardingOf } from '../../timing/loadBalancers.ts';
import { defineMutator, NOTHING } from '../types.ts';
import type { MutatorContext, MutatorOutcome } from '../types.ts';
import { decideIngressNginx } from './decide.ts';
import { explainIngressNginx } from './explain.ts';
import { INGRESS_NGINX_FINDING_CODES } from './findings.ts';
import type { IngressNginxPlan } from './plan.ts';
import { INGRESS_NGINX_SETTINGS } from './settings/slice.ts';
import { INGRESS_NGINX_COMPATIBILITY } from './compatibility.ts';

export const ingressNginxDrain = defineMutator<IngressNginxPlan, 'ingress-nginx-drain'>({
  id: 'ingress-nginx-drain',
  settings: INGRESS_NGINX_SETTINGS,
  compatibility: INGRESS_NGINX_COMPATIBILITY,
  description:
    'ingress-nginx: keep nginx accepting while the load balancer drains ' +
    '(--shutdown-grace-period), then finish requests; grace period to match',
  findingCodes: INGRESS_NGINX_FINDING_CODES,
  enabled: (spec) => spec.ingressNginx.mode === 'on',
  // Its pods are its own whole: its /wait-shutdown preStop is how the controller learns to
  // stop (./controller.ts).
  claims: (workload) => !workload.runsToCompletion && runsIngressNginx(workload.template),
  mutate,
  explain: explainIngressNginx,
});

function mutate(workload: Workload, context: MutatorContext): MutatorOutcome<IngressNginxPlan> {
  if (workload.runsToCompletion || !runsIngressNginx(workload.template)) return NOTHING;
  const resolved = resolveTimingInputs(workload, context);
  const decision = decideIngressNginx(workload, resolved.inputs);
  const findings = [...resolved.findings, ...decision.findings];
  const meshed = context.mesh.istio !== undefined || context.mesh.linkerd !== undefined;
  if (meshed)
    findings.push({
      severity: 'warning',
      code: 'INGRESS_NGINX_MESH_NOT_MODELLED',
      message:
        'The controller pod has a mesh sidecar; kube-graceful does not model it with the ' +
        "controller yet and leaves it as written: make sure it outlives the controller's " +
        'shutdown (--shutdown-grace-period + the longest request), e.g. a native sidecar.',
    });
  const { container, shutdownGrace, grace } = decision;
  if (container === undefined || shutdownGrace === undefined || grace === undefined)
    return { changes: decision.changes, findings };
  // Behind node targets with Local, /healthz fails from SIGTERM on (./timeline.ts).
  const nodeForwarding = nodeForwardingOf(resolved.loadBalancer, context.spec.kubernetesVersion);
  const nodeLocal = nodeLocalReadinessMessage(
    nodeForwarding,
    workload.containers.find((c) => c.name === container),
    resolved.inputs.drainWindow.value,
    {
      pods: 'the controller pods',
      fails: 'the controller fails /healthz from SIGTERM on, which /wait-shutdown sends at once,',
      thresholdAt: `on container ${container} (chart value controller.readinessProbe)`,
      policyAt: 'on the Service (chart value controller.service.externalTrafficPolicy)',
    },
  );
  if (nodeLocal)
    findings.push({ severity: 'warning', code: 'INGRESS_NGINX_NODE_LOCAL', message: nodeLocal });
  const plan: IngressNginxPlan = {
    inputs: resolved.inputs,
    shutdownGrace,
    grace,
    container,
    ...(resolved.loadBalancer ? { loadBalancer: resolved.loadBalancer } : {}),
    ...(nodeForwarding ? { nodeForwarding } : {}),
    ...(meshed ? { mesh: context.mesh } : {}),
  };
  return { changes: decision.changes, findings, plan };
}
