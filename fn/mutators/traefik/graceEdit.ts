/**
 * The grace period Traefik's pod needs: G covering the accepting window, the slowest entry
 * point's requests and B, written where the pod has less, never lowered (issue #32 item 4: one step
 * of the traefik-drain decision, ./decide.ts).
 */
import type { FieldPath } from '../../core/fieldPath.ts';
import type { PodTemplate } from '../../core/kubeObject.ts';
import { graceToWrite } from '../../timing/model.ts';
import { KUBERNETES_DEFAULT_GRACE_SECONDS } from '../../timing/platformDefaults.ts';
import { derivationLine, sourceLines } from './reasons.ts';
import type { TraefikTimingInputs, TraefikTimingPlan } from './timing.ts';
import type { TraefikChange, TraefikFinding } from './outcome.ts';

/** Returns the grace change (if any), a finding for a larger grace kept, and the grace in
 * effect. */
export function graceEdit(
  template: PodTemplate,
  plan: TraefikTimingPlan,
  inputs: TraefikTimingInputs,
  at: (...path: FieldPath) => FieldPath,
): { changes: TraefikChange[]; findings: TraefikFinding[]; graceInEffect: number } {
  const changes: TraefikChange[] = [];
  const findings: TraefikFinding[] = [];
  const existingGrace = inputs.existingGraceSeconds;
  const needed = plan.grace.value;
  let graceInEffect = needed;
  if (typeof existingGrace === 'number' && existingGrace >= needed) {
    graceInEffect = existingGrace;
    // As the manifest writes it: beyond 2^53 the model compares a smaller stand-in (grace.ts).
    const written = String(template.spec?.terminationGracePeriodSeconds);
    if (existingGrace > needed)
      findings.push({
        severity: 'info',
        code: 'TRAEFIK_GRACE_KEPT',
        path: at('spec', 'terminationGracePeriodSeconds'),
        message:
          `terminationGracePeriodSeconds ${written} is more than the ` +
          `model's ${plan.grace.formula}; it is kept (never lowered).`,
      });
  } else {
    const grace = graceToWrite(
      needed,
      typeof existingGrace === 'number' ? existingGrace : undefined,
    );
    // Not written: G ≤ 30 and no field, so the pod keeps Kubernetes' 30 s, which covers G.
    graceInEffect = grace ?? Math.max(needed, KUBERNETES_DEFAULT_GRACE_SECONDS);
    if (grace !== undefined) {
      changes.push({
        path: at('spec', 'terminationGracePeriodSeconds'),
        value: grace,
        reason: [
          derivationLine('terminationGracePeriodSeconds', String(grace), plan.grace),
          ...sourceLines(inputs, ['W', 'R', 'B']),
        ].join('\n'),
      });
    }
  }
  return { changes, findings, graceInEffect };
}
