/**
 * Mutating admission policies in the stream that rewrite a pod's grace period or hooks after
 * rendering (issue #31 item 4): what kube-graceful writes is then not what runs. The Kyverno
 * library's own `mutate-large-termination-gps` caps every pod at 50 s
 * (kyverno/policies other/mutate-large-termination-gps/mutate-large-termination-gps.yaml and its
 * MutatingPolicy twin in other-mpol/, at b9c4317).
 *
 * Recognised by the fields their mutations name, never by evaluating them: match rules,
 * preconditions and CEL are not run, so a policy that names `terminationGracePeriodSeconds` or
 * `lifecycle` is taken to touch them. Shapes read:
 * - Kyverno `kyverno.io/*` ClusterPolicy and Policy: `spec.rules[].mutate` (patchStrategicMerge,
 *   patchesJson6902, foreach). A rule that matches Pods reaches the pods of every controller, so
 *   what it matches is not read.
 * - Kyverno `policies.kyverno.io/*` MutatingPolicy and Kubernetes `admissionregistration.k8s.io/*`
 *   MutatingAdmissionPolicy: `spec.mutations[]` (applyConfiguration / jsonPatch expressions).
 * - Gatekeeper `mutations.gatekeeper.sh/*` Assign: `spec.location` and `spec.parameters`.
 */
import { isRecord } from '../core/fieldPath.ts';
import type { KubeObject } from '../core/kubeObject.ts';

/** The pod fields a policy can take from the plan. */
export type PlanField = 'terminationGracePeriodSeconds' | 'lifecycle';

/** What one policy does to the plan's fields, as far as its text says. */
export interface PolicyReach {
  /** The fields its mutations name. */
  readonly fields: readonly PlanField[];
  /**
   * The grace period it writes, when the mutation states it as a number (the Kyverno library's
   * 50): a pod whose grace is not above it keeps its own.
   */
  readonly graceWritten?: number;
  /** Where in the policy the mutations are, for the message: `spec.rules[].mutate`. */
  readonly where: string;
}

/** The kinds read, by API group: the pre-scan parses documents of these kinds only. */
const POLICY_KINDS: ReadonlyArray<{ group: string; kinds: readonly string[]; where: string }> = [
  { group: 'kyverno.io', kinds: ['ClusterPolicy', 'Policy'], where: 'spec.rules[].mutate' },
  { group: 'policies.kyverno.io', kinds: ['MutatingPolicy'], where: 'spec.mutations' },
  {
    group: 'admissionregistration.k8s.io',
    kinds: ['MutatingAdmissionPolicy'],
    where: 'spec.mutations',
  },
  { group: 'mutations.gatekeeper.sh', kinds: ['Assign'], where: 'spec.location' },
];

/** The kinds of those policies, for the pre-scan (fn/workloads/kinds.ts CONTEXT_KINDS). */
export const POLICY_KIND_NAMES: readonly string[] = [
  ...new Set(POLICY_KINDS.flatMap((p) => p.kinds)),
];

/** True for a kind one of those policies has (its group is read by policyReach). */
export function isPolicyKind(kind: unknown): boolean {
  return typeof kind === 'string' && POLICY_KIND_NAMES.includes(kind);
}

/** Returns what the policy's mutations do to a pod's grace period or hooks, or undefined. */
export function policyReach(object: KubeObject): PolicyReach | undefined {
  const group = object.apiVersion?.split('/')[0];
  const known = POLICY_KINDS.find((p) => p.group === group && p.kinds.includes(object.kind ?? ''));
  if (!known) return undefined;
  const spec = isRecord(object.spec) ? object.spec : {};
  const mutations = mutationsOf(known.group, spec);
  const found = new Set<PlanField>();
  const written: number[] = [];
  walk(mutations, (key, value) => {
    for (const field of PLAN_FIELDS) {
      if (key === field) found.add(field);
      if (typeof value === 'string' && namesField(value, field)) found.add(field);
    }
    if (key === 'terminationGracePeriodSeconds' && typeof value === 'number') written.push(value);
    if (typeof value === 'string') written.push(...gracesIn(value));
  });
  if (known.group === 'mutations.gatekeeper.sh') {
    // Assign writes `parameters.assign.value` at `location`.
    const value =
      isRecord(spec.parameters) && isRecord(spec.parameters.assign)
        ? spec.parameters.assign.value
        : undefined;
    if (found.has('terminationGracePeriodSeconds') && typeof value === 'number')
      written.push(value);
  }
  if (found.size === 0) return undefined;
  const graceWritten = written.length === 1 ? written[0] : undefined;
  return {
    fields: PLAN_FIELDS.filter((f) => found.has(f)),
    where: known.where,
    ...(graceWritten !== undefined ? { graceWritten } : {}),
  };
}

const PLAN_FIELDS: readonly PlanField[] = ['terminationGracePeriodSeconds', 'lifecycle'];

/** The part of the spec that holds the mutations (match rules and conditions left out). */
function mutationsOf(group: string, spec: Record<string, unknown>): unknown {
  if (group === 'kyverno.io')
    return Array.isArray(spec.rules)
      ? spec.rules.map((rule) => (isRecord(rule) ? rule.mutate : undefined))
      : undefined;
  if (group === 'mutations.gatekeeper.sh') return { location: spec.location };
  return spec.mutations;
}

/** Calls `visit` on every key/value of maps and every string of lists, depth first. */
function walk(node: unknown, visit: (key: string | undefined, value: unknown) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) {
      if (typeof item === 'string') visit(undefined, item);
      else walk(item, visit);
    }
  } else if (isRecord(node)) {
    for (const [key, value] of Object.entries(node)) {
      visit(key, value);
      walk(value, visit);
    }
  }
}

/**
 * True when a JSON patch path, CEL expression or Gatekeeper location names the field: as a path
 * step (`/lifecycle`, `.lifecycle`) or as a key (`lifecycle:`), not inside another word.
 */
function namesField(text: string, field: PlanField): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_])${field}($|[^A-Za-z0-9_])`).test(text);
}

/** The grace periods a text writes as a literal: `terminationGracePeriodSeconds: 50` (CEL). */
function gracesIn(text: string): number[] {
  return [...text.matchAll(/terminationGracePeriodSeconds["']?\s*:\s*(\d+)/g)].map((m) =>
    Number(m[1]),
  );
}
