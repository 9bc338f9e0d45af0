/**
 * The finding for a mutating admission policy in the stream that would rewrite what the workloads'
 * shutdown rests on (issue #31 item 4): the grace period and the hooks are set at render time, and
 * the policy changes them again when the pods are admitted, in silence. Only policies in the stream
 * can be seen; docs/findings.md says so.
 */
import { getAt } from '../core/fieldPath.ts';
import { annotationsOf } from '../core/kubeObject.ts';
import { readIgnore } from './ignoreAnnotation.ts';
import { ADMISSION_UNDOES_PLAN } from './findingCodes.ts';
import type { FieldPath } from '../core/fieldPath.ts';
import { formatRef, objectRef } from '../core/kubeObject.ts';
import type { KubeObject, ResourceRef } from '../core/kubeObject.ts';
import type { Finding } from '../core/records.ts';
import { policyReach } from '../workloads/admissionPolicies.ts';
import type { PlanField, PolicyReach } from '../workloads/admissionPolicies.ts';

/** A policy read from the stream, with the document it stands in. */
interface StreamPolicy {
  readonly ref: ResourceRef;
  readonly document: number;
  readonly reach: PolicyReach;
  /** The codes its `kube-graceful.dev/ignore` annotation accepts. */
  readonly ignore: ReadonlySet<string>;
}

/** A workload's pod template as the run leaves it: what a policy could rewrite. */
interface PodShutdown {
  readonly ref: ResourceRef;
  /** `terminationGracePeriodSeconds` as written, if it is. */
  readonly grace?: number;
  /** True when a container or init container has a lifecycle hook. */
  readonly hooks: boolean;
  /** The longest preStop `sleep` of its containers, in seconds (0: none). */
  readonly sleep: number;
}

/** Collects the policies and the pods of a run, then says which policy undoes which pods. */
export class AdmissionCheck {
  readonly #policies: StreamPolicy[] = [];
  readonly #pods: PodShutdown[] = [];

  /** Notes a context object when it is a policy that reaches the grace period or hooks. */
  notePolicy(object: KubeObject, document: number, defaultNamespace?: string): void {
    const reach = policyReach(object);
    if (!reach) return;
    const { codes } = readIgnore(annotationsOf(object.metadata));
    this.#policies.push({
      ref: objectRef(object, defaultNamespace),
      document,
      reach,
      ignore: codes,
    });
  }

  /** True when a policy was noted: the pods need not be read otherwise. */
  get active(): boolean {
    return this.#policies.length > 0;
  }

  /** Notes a workload's pod template (at `templatePath` in `object`) as the run leaves it. */
  notePod(ref: ResourceRef, object: KubeObject, templatePath: FieldPath): void {
    const spec = getAt(object, [...templatePath, 'spec']) as Record<string, unknown> | undefined;
    const grace = spec?.terminationGracePeriodSeconds;
    const containers = [spec?.containers, spec?.initContainers].flatMap((list) =>
      Array.isArray(list) ? (list as unknown[]) : [],
    );
    const lifecycles = containers.map((c) => getAt(c, ['lifecycle'])).filter((l) => l != null);
    const sleeps = lifecycles.map((l) => getAt(l, ['preStop', 'sleep', 'seconds']));
    const sleep = Math.max(0, ...sleeps.filter((s) => typeof s === 'number'));
    const hooks = lifecycles.length > 0;
    this.#pods.push({ ref, hooks, sleep, ...(typeof grace === 'number' ? { grace } : {}) });
  }

  /**
   * Returns one error per policy that would rewrite a field some pod of the stream sets, with the
   * codes the policy's own annotation accepts.
   */
  findings(): Array<{ finding: Finding; ignore: ReadonlySet<string> }> {
    return this.#policies.flatMap((policy) => {
      const undone = this.#pods.filter((pod) => undoes(policy.reach, pod));
      if (undone.length === 0) return [];
      const finding: Finding = {
        severity: 'error',
        code: ADMISSION_UNDOES_PLAN,
        message: message(policy, undone),
        mutator: 'engine',
        resource: policy.ref,
        document: policy.document,
      };
      return [{ finding, ignore: policy.ignore }];
    });
  }
}

/** True when the policy rewrites a field the pod sets (a grace above what it writes, a hook). */
function undoes(reach: PolicyReach, pod: PodShutdown): boolean {
  const grace =
    reach.fields.includes('terminationGracePeriodSeconds') &&
    pod.grace !== undefined &&
    (reach.graceWritten === undefined || pod.grace > reach.graceWritten);
  return grace || (reach.fields.includes('lifecycle') && pod.hooks);
}

function message(policy: StreamPolicy, undone: readonly PodShutdown[]): string {
  const { reach } = policy;
  const fields = reach.fields.map((f) => FIELD_TEXT[f]).join(' and ');
  const writes =
    reach.graceWritten !== undefined
      ? ` (it writes terminationGracePeriodSeconds: ${reach.graceWritten})`
      : '';
  const first = undone.slice(0, 3).map((p) => formatRef(p.ref));
  const more = undone.length > first.length ? ` and ${undone.length - first.length} more` : '';
  // pkg/apis/core/validation validateSleepAction (the compatibility table's
  // k8s-prestop-sleep-within-grace).
  const written = reach.graceWritten;
  const sleep = Math.max(...undone.map((p) => p.sleep));
  const cut =
    written !== undefined && sleep > written
      ? ` Its pods would be rejected: the API server refuses a preStop sleep (${sleep} s here) ` +
        `longer than the grace period (${written} s).`
      : '';
  const raise = written !== undefined ? ' (or raise what it writes to their grace period)' : '';
  return (
    `this policy's ${reach.where} rewrites ${fields} when pods are admitted${writes}: ` +
    `the shutdown planned for ${first.join(', ')}${more} is undone after rendering.${cut} ` +
    `Exclude these workloads from the policy${raise}, ` +
    `or accept it with kube-graceful.dev/ignore: ${ADMISSION_UNDOES_PLAN} on the policy`
  );
}

const FIELD_TEXT: Readonly<Record<PlanField, string>> = {
  terminationGracePeriodSeconds: 'the grace period',
  lifecycle: 'lifecycle hooks',
};
