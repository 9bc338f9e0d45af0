/**
 * The read-only view of one workload that mutators get: the object, its pod template, where the
 * template is, and what kind of workload it is. Built fresh after every mutator's edits.
 */
import { getAt } from '../core/fieldPath.ts';
import type { FieldPath } from '../core/fieldPath.ts';
import type { Container, KubeObject, PodTemplate, ResourceRef } from '../core/kubeObject.ts';
import type { Resource } from './resource.ts';

export class Workload {
  constructor(
    readonly resource: Resource,
    /** Path of the pod template relative to the object (`spec.template`, `[]` for a Pod). */
    readonly templatePath: FieldPath,
    readonly ref: ResourceRef,
  ) {}

  /** Returns the object as it is now. */
  get object(): KubeObject {
    return this.resource.object;
  }

  /** Returns the pod template (metadata and spec) as it is now. */
  get template(): PodTemplate {
    return getAt(this.object, this.templatePath) ?? {};
  }

  /** Returns the app containers (`spec.containers`) of the pod template. */
  get containers(): Container[] {
    return this.template.spec?.containers ?? [];
  }

  /** Returns the path of a field of the pod template, relative to the object. */
  at(...path: FieldPath): FieldPath {
    return [...this.templatePath, ...path];
  }

  /** Returns the path of a field of the named container, relative to the object. */
  containerAt(name: string, ...path: FieldPath): FieldPath {
    return this.at('spec', 'containers', { key: 'name', equals: name }, ...path);
  }

  /**
   * Returns true for pods that run to completion: Jobs, CronJobs, and Pods whose restartPolicy is
   * Never or OnFailure (issue #4).
   */
  get runsToCompletion(): boolean {
    const kind = this.ref.kind;
    if (kind === 'Job' || kind === 'CronJob') return true;
    const policy = this.template.spec?.restartPolicy;
    return kind === 'Pod' && (policy === 'Never' || policy === 'OnFailure');
  }
}
