/**
 * Where each kind keeps its pod template. Extra kinds (e.g. Argo Rollouts at `spec.template`) come
 * from config; a Pod is its own template.
 */
import type { FieldPath } from '../core/fieldPath.ts';
import type { ExtraKind } from '../config/schema.ts';

const BUILT_IN: Record<string, { group: string; template: FieldPath }> = {
  Pod: { group: '', template: [] },
  Deployment: { group: 'apps', template: ['spec', 'template'] },
  ReplicaSet: { group: 'apps', template: ['spec', 'template'] },
  StatefulSet: { group: 'apps', template: ['spec', 'template'] },
  DaemonSet: { group: 'apps', template: ['spec', 'template'] },
  Job: { group: 'batch', template: ['spec', 'template'] },
  CronJob: { group: 'batch', template: ['spec', 'jobTemplate', 'spec', 'template'] },
};

/** Kinds that mutators read but never change: they tell how traffic reaches the workloads. */
export const CONTEXT_KINDS: ReadonlySet<string> = new Set([
  'Service',
  'Namespace',
  'PodDisruptionBudget',
  'Ingress',
  'BackendConfig',
]);

/**
 * The kinds the object mutators change and read (fn/mutators/types.ts ObjectMutator), by name:
 * the pre-scan sees a document's kind, not its group. fn/engine/objectKinds.ts derives them from
 * the registry, so what is parsed and what the mutators handle cannot drift apart.
 */
export interface ObjectKinds {
  /** Kinds a mutator changes: parsed, and handed to the pipeline in stream order. */
  readonly changed: ReadonlySet<string>;
  /** Kinds a mutator reads from elsewhere in the stream: parsed first, as context objects. */
  readonly read: ReadonlySet<string>;
  /**
   * Per mutator, the kinds it changes and those it reads: what it reads is needed only where
   * something it changes is in the input (present), so an input without Gateways does not have
   * all its ConfigMaps parsed for istio-gateway-api.
   */
  readonly byMutator?: ReadonlyArray<{
    readonly changed: ReadonlySet<string>;
    readonly read: ReadonlySet<string>;
  }>;
}

/**
 * Returns the object kinds an input needs, given the kinds its documents were pre-scanned as
 * (`undefined`: one the pre-scan could not name, which might be any): a mutator's reads only when
 * one of its own kinds may be there.
 */
export function objectKindsIn(
  kinds: ObjectKinds | undefined,
  present: ReadonlyArray<string | undefined>,
): ObjectKinds | undefined {
  if (kinds?.byMutator === undefined) return kinds;
  const seen = new Set(present);
  const needed = kinds.byMutator.filter(
    (m) => seen.has(undefined) || [...m.changed].some((kind) => seen.has(kind)),
  );
  return { changed: kinds.changed, read: new Set(needed.flatMap((m) => [...m.read])) };
}

/** No object mutator: only workloads and the context kinds are parsed. */
const NO_OBJECT_KINDS: ObjectKinds = { changed: new Set(), read: new Set() };

/** Returns the API group of an apiVersion (`apps/v1` → `apps`, `v1` → ``). */
export function groupOf(apiVersion: string | undefined): string {
  // Parsed YAML: `apiVersion: 1` is a number, which belongs to no group (and is no workload).
  return typeof apiVersion === 'string' && apiVersion.includes('/')
    ? apiVersion.slice(0, apiVersion.indexOf('/'))
    : '';
}

/** Returns the path of the pod template inside a resource of this kind, or undefined. */
export function podTemplatePath(
  apiVersion: string | undefined,
  kind: string | undefined,
  extra: readonly ExtraKind[],
): FieldPath | undefined {
  if (!kind) return undefined;
  const group = groupOf(apiVersion);
  const builtIn = BUILT_IN[kind];
  if (builtIn?.group === group) return builtIn.template;
  const configured = extra.find((k) => k.kind === kind && k.group === group);
  return configured?.podTemplatePath.split('.');
}

/**
 * Returns true when documents of this top-level kind must be parsed (a mutator may read or change
 * them).
 */
export function isCandidateKind(
  kind: string | undefined,
  extra: readonly ExtraKind[],
  objectKinds: ObjectKinds = NO_OBJECT_KINDS,
): boolean {
  if (kind === undefined) return true; // cannot tell without parsing: parse
  return (
    kind === 'List' ||
    kind in BUILT_IN ||
    CONTEXT_KINDS.has(kind) ||
    objectKinds.changed.has(kind) ||
    objectKinds.read.has(kind) ||
    extra.some((k) => k.kind === kind)
  );
}
