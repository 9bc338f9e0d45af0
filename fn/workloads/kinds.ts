/**
 * Where each kind keeps its pod template. Extra kinds (e.g. Argo Rollouts at `spec.template`) come
 * from config; a Pod is its own template.
 */
import type { FieldPath } from '../core/fieldPath.ts';
import type { ExtraKind } from '../config/schema.ts';
import { POLICY_KIND_NAMES } from './admissionPolicies.ts';
import { ROUTE_KINDS } from '../timing/gatewayRoutes.ts';

const BUILT_IN: Record<string, { group: string; template: FieldPath }> = {
  Pod: { group: '', template: [] },
  Deployment: { group: 'apps', template: ['spec', 'template'] },
  ReplicaSet: { group: 'apps', template: ['spec', 'template'] },
  StatefulSet: { group: 'apps', template: ['spec', 'template'] },
  DaemonSet: { group: 'apps', template: ['spec', 'template'] },
  Job: { group: 'batch', template: ['spec', 'template'] },
  CronJob: { group: 'batch', template: ['spec', 'jobTemplate', 'spec', 'template'] },
};

/**
 * Kinds that mutators read but never change: they tell how traffic reaches the workloads, and
 * which admission policies would rewrite their shutdown (fn/engine/admissionCheck.ts).
 */
const CONTEXT_KINDS: ReadonlySet<string> = new Set([
  'Service',
  'Namespace',
  'PodDisruptionBudget',
  'Ingress',
  'IngressClass',
  'IngressClassParams',
  'BackendConfig',
  'TargetGroupBinding',
  'TargetGroupConfiguration',
  'LoadBalancerConfiguration',
  'GCPBackendPolicy',
  'NodePool',
  'GatewayClass',
  'Gateway',
  ...ROUTE_KINDS,
  ...POLICY_KIND_NAMES,
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
   * Kinds parsed only for a document whose text contains one of these (KindEntry `mentions`),
   * when no mutator that needs the kind takes every object of it.
   */
  readonly mentioned?: ReadonlyMap<string, readonly string[]>;
  /**
   * Per mutator, the kinds it changes and those it reads: what it reads is needed only where
   * something it changes is in the input, so an input without Gateways does not have all its
   * ConfigMaps parsed for istio-gateway-api.
   */
  readonly byMutator?: ReadonlyArray<{
    readonly changed: readonly KindEntry[];
    readonly read: readonly KindEntry[];
  }>;
}

/** A kind a mutator changes or reads, and the text its objects must contain, if any. */
interface KindEntry {
  readonly kind: string;
  readonly mentions?: string;
}

/** A document as the pre-scan sees it: its kind (undefined: it cannot tell) and its text. */
interface Prescanned {
  readonly kind: string | undefined;
  readonly text: string;
}

/**
 * Returns the object kinds an input needs, given its documents as pre-scanned: a mutator's reads
 * only when one of its own kinds may be there (a document the pre-scan cannot name may be any),
 * and a kind only some entries take by `mentions` parsed only where its text has one of them.
 */
export function objectKindsIn(
  kinds: ObjectKinds | undefined,
  documents: readonly Prescanned[],
): ObjectKinds | undefined {
  if (kinds?.byMutator === undefined) return kinds;
  const takes = (entry: KindEntry, doc: Prescanned) =>
    doc.kind === undefined ||
    (doc.kind === entry.kind &&
      (entry.mentions === undefined || doc.text.includes(entry.mentions)));
  const needed = kinds.byMutator.filter((m) =>
    documents.some((doc) => m.changed.some((entry) => takes(entry, doc))),
  );
  const changed = kinds.byMutator.flatMap((m) => m.changed);
  const read = needed.flatMap((m) => m.read);
  const whole = new Set([...changed, ...read].filter((e) => !e.mentions).map((e) => e.kind));
  const mentioned = new Map<string, string[]>();
  for (const entry of [...changed, ...read])
    if (entry.mentions !== undefined && !whole.has(entry.kind))
      mentioned.set(entry.kind, [...(mentioned.get(entry.kind) ?? []), entry.mentions]);
  return {
    changed: new Set(changed.filter((e) => whole.has(e.kind)).map((e) => e.kind)),
    read: new Set(read.filter((e) => whole.has(e.kind)).map((e) => e.kind)),
    mentioned,
  };
}

/**
 * Returns true when a document of `kind` is parsed for the text it holds (ObjectKinds.mentioned).
 * The text is asked for only when the kind is one told by a mention: a segment split from bytes
 * makes its text anew at each read (fn/stream/split.ts), and most documents are of no such kind.
 */
export function isMentionedObject(
  kind: string | undefined,
  text: () => string,
  objectKinds: ObjectKinds | undefined,
): boolean {
  const marks = kind === undefined ? undefined : objectKinds?.mentioned?.get(kind);
  if (marks === undefined) return false;
  const read = text();
  return marks.some((mark) => read.includes(mark));
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
  const builtIn = Object.hasOwn(BUILT_IN, kind) ? BUILT_IN[kind] : undefined;
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
    Object.hasOwn(BUILT_IN, kind) ||
    CONTEXT_KINDS.has(kind) ||
    objectKinds.changed.has(kind) ||
    objectKinds.read.has(kind) ||
    extra.some((k) => k.kind === kind)
  );
}

/**
 * Returns true when a document of this top-level kind (as the pre-scan reads it) is a workload and
 * nothing else: no mutator reads it as context, and it is not a List. Such a document is parsed
 * when the run reaches it and let go after (fn/engine/streamPipeline.ts, listPipeline.ts); every
 * other kind that must be parsed is read first, as the context the workloads are planned in.
 */
export function isWorkloadKind(
  kind: string | undefined,
  extra: readonly ExtraKind[],
  objectKinds: ObjectKinds = NO_OBJECT_KINDS,
): boolean {
  return (
    kind !== undefined &&
    kind !== 'List' &&
    !CONTEXT_KINDS.has(kind) &&
    !objectKinds.read.has(kind) &&
    !objectKinds.changed.has(kind) &&
    !objectKinds.mentioned?.has(kind) &&
    isCandidateKind(kind, extra, objectKinds)
  );
}
