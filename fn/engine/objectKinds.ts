/**
 * The kinds the object mutators change and read, derived from the mutators the run is given: the
 * one owner of what the pre-scan parses beyond workloads and context kinds, so that list and the
 * mutators' kinds cannot drift apart. Passed down to fn/stream and fn/krm as data (they do not
 * import the registry: .dependency-cruiser.cjs).
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { MUTATORS } from '../mutators/registry.ts';
import type { GroupKind, RegisteredMutator, RegisteredObjectMutator } from '../mutators/types.ts';
import { groupOf } from '../workloads/kinds.ts';
import type { ObjectKinds } from '../workloads/kinds.ts';

/** Returns the kinds `mutators`' object mutators change and read. */
export function objectKindsOf(mutators: readonly RegisteredMutator[]): ObjectKinds {
  const objectMutators = mutators.filter(
    (m): m is RegisteredObjectMutator => m.subject === 'object',
  );
  const entry = (k: GroupKind) => ({
    kind: k.kind,
    ...(k.mentions ? { mentions: k.mentions } : {}),
  });
  const byMutator = objectMutators.map((m) => ({
    changed: m.kinds.map(entry),
    read: m.reads.map(entry),
  }));
  return {
    changed: new Set(byMutator.flatMap((m) => m.changed.map((e) => e.kind))),
    read: new Set(byMutator.flatMap((m) => m.read.map((e) => e.kind))),
    byMutator,
  };
}

/** The kinds of the registered mutators: what a run with the default mutators parses. */
export const REGISTERED_OBJECT_KINDS: ObjectKinds = objectKindsOf(MUTATORS);

/** Returns true when `object` is of the kind and group `kind` names. */
export function isOfKind(object: KubeObject, kind: GroupKind): boolean {
  return (
    object.kind === kind.kind &&
    typeof object.apiVersion === 'string' &&
    groupOf(object.apiVersion) === kind.group
  );
}
