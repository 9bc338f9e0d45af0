/**
 * traefik-drain (issue #19 item 3): Traefik behind a load balancer keeps accepting while the load
 * balancer may still send it new connections, lets the requests in flight finish, then exits, and
 * its grace period covers all of it. It does so with Traefik's own entry point life-cycle settings
 * (`requestAcceptGraceTimeout` = S, `graceTimeOut` = R), never a preStop sleep; a larger value the
 * chart or the user wrote is kept. The decision is ./decide.ts; W, R and B are resolved from the
 * stream and config as for every other mutator (fn/mutators/shared/timingInputs.ts). Traefik is
 * recognised by its image (./recognise.ts).
 */
import { runsTraefik } from './recognise.ts';
import type { Workload } from '../../workloads/workload.ts';
import { resolveTimingInputs } from '../shared/timingInputs.ts';
import { nodeForwardingOf } from '../../timing/loadBalancers.ts';
import { defineMutator, NOTHING } from '../types.ts';
import type { MutatorContext, MutatorOutcome } from '../types.ts';
import { planTraefik } from './decide.ts';
import { explainTraefik } from './explain.ts';
import { TRAEFIK_FINDING_CODES } from './findings.ts';
import type { TraefikPlan } from './plan.ts';
import { TRAEFIK_SETTINGS } from './settings/slice.ts';
import { TRAEFIK_COMPATIBILITY } from './compatibility.ts';
import { traefikServingSpan } from './servingSpan.ts';

export const traefikDrain = defineMutator<TraefikPlan, 'traefik-drain'>({
  id: 'traefik-drain',
  settings: TRAEFIK_SETTINGS,
  compatibility: TRAEFIK_COMPATIBILITY,
  description:
    "Traefik: keep accepting while the load balancer drains (entry points' " +
    'requestAcceptGraceTimeout), then finish requests (graceTimeOut); ' +
    'grace period to match',
  findingCodes: TRAEFIK_FINDING_CODES,
  enabled: (spec) => spec.traefik.mode === 'on',
  claims: (workload) => !workload.runsToCompletion && runsTraefik(workload.template),
  servingSpan: traefikServingSpan,
  mutate,
  explain: explainTraefik,
});

function mutate(workload: Workload, context: MutatorContext): MutatorOutcome<TraefikPlan> {
  // A Job's pod is not behind a load balancer's drain: it runs to completion (job-sidecar-quit's).
  if (workload.runsToCompletion || !runsTraefik(workload.template)) return NOTHING;
  const resolved = resolveTimingInputs(workload, context);
  const nodeForwarding = nodeForwardingOf(resolved.loadBalancer, context.spec.kubernetesVersion);
  const { drainWindow, maxRequest, buffer, loadBalancer } = resolved.inputs;
  const outcome = planTraefik(
    { object: workload.object, templatePath: workload.templatePath },
    {
      drainWindow,
      maxRequest,
      buffer,
      ...(loadBalancer ? { loadBalancer } : {}),
      kubernetesVersion: context.spec.kubernetesVersion,
      ...(nodeForwarding ? { nodeForwarding } : {}),
    },
  );
  const findings = [...resolved.findings, ...outcome.findings];
  const { plan: timing, inputs, container, source } = outcome;
  if (
    timing === undefined ||
    inputs === undefined ||
    container === undefined ||
    (source !== 'flags' && source !== 'env')
  ) {
    return { changes: outcome.changes, findings };
  }
  const plan: TraefikPlan = {
    inputs,
    timing,
    container,
    source,
    ...(resolved.loadBalancer ? { loadBalancer: resolved.loadBalancer } : {}),
    ...(nodeForwarding ? { nodeForwarding } : {}),
    ...(context.mesh.istio || context.mesh.linkerd ? { mesh: context.mesh } : {}),
  };
  return { changes: outcome.changes, findings, plan };
}
