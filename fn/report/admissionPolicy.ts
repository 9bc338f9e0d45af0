/**
 * `kube-graceful policy` (issue #31 item 5): the plan as an admission guard. From the change
 * records, a ValidatingAdmissionPolicy and its binding (admissionregistration.k8s.io/v1, GA from
 * Kubernetes 1.30) that reject a new pod of a planned workload whose terminationGracePeriodSeconds
 * or preStop hooks fall below what the plan set: a later edit of the chart, a kustomize patch or a
 * mutating policy cannot undo the plan unseen. Pods are matched by their workload's namespace and
 * selector labels (stable across upgrades, unlike a chart's version labels; the template's labels
 * where the workload has no selector to read; a Pod by its name); only CREATE is checked, as a
 * pod's grace period and hooks cannot change after (core/v1 validation: pod updates may not
 * change them: kubernetes pkg/apis/core/validation/validation.go@v1.30.0 ValidatePodUpdate).
 */
import type { FieldPath } from '../core/fieldPath.ts';
import { formatRef, labelsOf } from '../core/kubeObject.ts';
import type { KubeObject } from '../core/kubeObject.ts';
import { getAt, hasPrefix } from '../core/fieldPath.ts';
import { podTemplatePath } from '../workloads/kinds.ts';
import type { ExtraKind } from '../config/schema.ts';
import type { PatchedObject } from './patches.ts';
import { KUBERNETES_DEFAULT_GRACE_SECONDS } from '../timing/platformDefaults.ts';

/** What one planned workload's pods must keep. */
export interface PodGuard {
  /** `Deployment ns/name`, for the message. */
  readonly workload: string;
  readonly namespace?: string;
  /** The template's labels, or for a bare Pod its name. */
  readonly selects:
    { readonly labels: Readonly<Record<string, string>> } | { readonly name: string };
  /** The grace period the plan set, or the one it planned with where it kept it. */
  readonly minGraceSeconds: number;
  readonly hooks: readonly HookGuard[];
}

/** A preStop hook the plan set on one container. */
interface HookGuard {
  readonly container: string;
  readonly init: boolean;
  /** The hook as the plan wrote it. */
  readonly preStop: unknown;
}

/** The guards of the planned workloads, and the workloads no guard can select (with why). */
export interface Guards {
  readonly guards: readonly PodGuard[];
  readonly unguarded: readonly string[];
}

/** Returns a guard per object whose records set its pods' grace period or preStop hooks. */
export function podGuards(
  objects: readonly PatchedObject[],
  extraKinds: readonly ExtraKind[],
  defaultNamespace?: string,
): Guards {
  const guards: PodGuard[] = [];
  const unguarded: string[] = [];
  for (const { ref, original, records } of objects) {
    const template = podTemplatePath(original.apiVersion, original.kind, extraKinds);
    if (template === undefined) continue;
    const under = (path: FieldPath) => path.slice(template.length);
    const planned = records.filter((r) => hasPrefix(r.path, template) && r.after !== undefined);
    const grace = planned.find((r) => isGrace(under(r.path)));
    const hooks = planned.flatMap((r) => hookOf(under(r.path), r.after));
    if (grace === undefined && hooks.length === 0) continue;
    const workload = formatRef({ ...ref, namespace: ref.namespace ?? defaultNamespace });
    const labels = selectorLabels(original, template);
    const selects =
      template.length === 0
        ? { name: String(original.metadata?.name ?? '') }
        : Object.keys(labels).length > 0
          ? { labels }
          : undefined;
    if (selects === undefined) {
      unguarded.push(`${workload}: its pod template has no labels to select its pods by`);
      continue;
    }
    const kept = getAt(original, [...template, 'spec', 'terminationGracePeriodSeconds']);
    // Where the plan kept the grace period, it planned with the one the pods get: the template's,
    // or Kubernetes's default where the template sets none.
    const minGrace =
      typeof grace?.after === 'number'
        ? grace.after
        : typeof kept === 'number'
          ? kept
          : KUBERNETES_DEFAULT_GRACE_SECONDS;
    const namespace = ref.namespace ?? defaultNamespace;
    guards.push({
      workload,
      ...(namespace === undefined ? {} : { namespace }),
      selects,
      minGraceSeconds: minGrace,
      hooks,
    });
  }
  return { guards, unguarded };
}

/**
 * The labels that select the workload's pods: its `spec.selector.matchLabels` (immutable on the
 * apps/v1 kinds, every pod of it carries them), else its template's labels (a Job's selector is
 * generated unless manualSelector); a matchExpressions part is not read, which only widens the
 * pods checked to more of the workload's own.
 */
function selectorLabels(object: KubeObject, template: FieldPath): Record<string, string> {
  const matchLabels = getAt(object, ['spec', 'selector', 'matchLabels']);
  const usable =
    matchLabels !== null &&
    typeof matchLabels === 'object' &&
    Object.values(matchLabels).every((v) => typeof v === 'string') &&
    Object.keys(matchLabels).length > 0;
  if (usable) return matchLabels as Record<string, string>;
  const pod = getAt(object, template) as KubeObject | undefined;
  return labelsOf(pod?.metadata);
}

function isGrace(path: FieldPath): boolean {
  return path.length === 2 && path[0] === 'spec' && path[1] === 'terminationGracePeriodSeconds';
}

/** The hook a record under the pod template sets, if it sets a container's whole preStop. */
function hookOf(path: FieldPath, after: unknown): HookGuard[] {
  const [spec, list, item, lifecycle, preStop] = path;
  if (path.length !== 5 || spec !== 'spec' || lifecycle !== 'lifecycle' || preStop !== 'preStop')
    return [];
  if (list !== 'containers' && list !== 'initContainers') return [];
  if (typeof item !== 'object' || item.key !== 'name') return [];
  return [{ container: item.equals, init: list === 'initContainers', preStop: after }];
}

/** The policy's name, and its binding's. */
const POLICY_NAME = 'kube-graceful-shutdown';

/** Returns the ValidatingAdmissionPolicy and its binding for `guards`. */
export function admissionPolicy(guards: readonly PodGuard[]): KubeObject[] {
  const labels = { 'app.kubernetes.io/managed-by': 'kube-graceful' };
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: POLICY_NAME, labels },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] },
          ],
        },
        validations: guards.map((guard) => ({
          expression: guardExpression(guard),
          message: guardMessage(guard),
          reason: 'Forbidden',
        })),
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: POLICY_NAME, labels },
      spec: { policyName: POLICY_NAME, validationActions: ['Deny'] },
    },
  ];
}

/** A CEL string literal (CEL's escapes are JSON's, for the characters JSON escapes). */
function cel(text: string): string {
  return JSON.stringify(text);
}

/** `!(the pod is this workload's) || (it keeps what the plan set)`, in CEL. */
function guardExpression(guard: PodGuard): string {
  const selected = [
    ...(guard.namespace === undefined ? [] : [`request.namespace == ${cel(guard.namespace)}`]),
    ...('name' in guard.selects
      ? [`object.metadata.name == ${cel(guard.selects.name)}`]
      : [
          'has(object.metadata.labels)',
          ...Object.entries(guard.selects.labels).map(
            ([key, value]) =>
              `${cel(key)} in object.metadata.labels && ` +
              `object.metadata.labels[${cel(key)}] == ${cel(value)}`,
          ),
        ]),
  ];
  const kept = [
    'has(object.spec.terminationGracePeriodSeconds) && ' +
      `object.spec.terminationGracePeriodSeconds >= ${guard.minGraceSeconds}`,
    ...guard.hooks.map(hookExpression),
  ];
  return `!(${selected.join(' && ')}) || (${kept.join(' && ')})`;
}

/** The container of that name has a preStop at least the plan's, in CEL. */
function hookExpression(hook: HookGuard): string {
  const list = hook.init ? 'object.spec.initContainers' : 'object.spec.containers';
  const has = hook.init ? `has(object.spec.initContainers) && ` : '';
  return (
    `${has}${list}.exists(c, c.name == ${cel(hook.container)} && has(c.lifecycle) && ` +
    `has(c.lifecycle.preStop) && ${preStopExpression(hook.preStop)})`
  );
}

/**
 * The hook's kind and its length: a sleep action at least as long; an exec hook with the plan's
 * command; an httpGet hook to the plan's path.
 */
function preStopExpression(preStop: unknown): string {
  const hook = (preStop ?? {}) as {
    sleep?: { seconds?: unknown };
    exec?: { command?: unknown };
    httpGet?: { path?: unknown };
  };
  if (typeof hook.sleep?.seconds === 'number')
    return (
      `has(c.lifecycle.preStop.sleep) && ` +
      `c.lifecycle.preStop.sleep.seconds >= ${hook.sleep.seconds}`
    );
  const command = hook.exec?.command;
  if (Array.isArray(command) && command.every((part) => typeof part === 'string'))
    return (
      `has(c.lifecycle.preStop.exec) && has(c.lifecycle.preStop.exec.command) && ` +
      `c.lifecycle.preStop.exec.command == [${command.map(cel).join(', ')}]`
    );
  if (typeof hook.httpGet?.path === 'string')
    return (
      `has(c.lifecycle.preStop.httpGet) && has(c.lifecycle.preStop.httpGet.path) && ` +
      `c.lifecycle.preStop.httpGet.path == ${cel(hook.httpGet.path)}`
    );
  return 'true';
}

/** What the guard requires, in words, for the API server's message. */
function guardMessage(guard: PodGuard): string {
  const needs = [
    `terminationGracePeriodSeconds of at least ${guard.minGraceSeconds}`,
    ...guard.hooks.map((hook) => {
      const sleep = (hook.preStop as { sleep?: { seconds?: unknown } } | null)?.sleep?.seconds;
      return typeof sleep === 'number'
        ? `a preStop sleep of at least ${sleep} s in container ${hook.container}`
        : `the planned preStop hook in container ${hook.container}`;
    }),
  ];
  return (
    `kube-graceful: pods of ${guard.workload} need ${needs.join(' and ')}, ` +
    `or they lose requests when they stop (run kube-graceful on the manifests again)`
  );
}
