/** A Kubernetes object inside a document: the whole document, or one item of a `kind: List`. */
import type { ManifestDocument } from '../document/manifest.ts';
import { getAt } from '../core/fieldPath.ts';
import type { FieldPath } from '../core/fieldPath.ts';
import { objectRef } from '../core/kubeObject.ts';
import type { KubeObject, ResourceRef } from '../core/kubeObject.ts';

export class Resource {
  constructor(
    readonly doc: ManifestDocument,
    /** Path of the object in its document: `[]`, or `['items', i]` inside a List. */
    readonly base: FieldPath,
  ) {}

  /** Returns the object as plain data, as it is now (after edits so far). */
  get object(): KubeObject {
    return getAt(this.doc.data, this.base) ?? {};
  }

  /**
   * Returns apiVersion, kind, name and namespace (namespace from config when the object has none).
   */
  ref(defaultNamespace?: string): ResourceRef {
    return objectRef(this.object, defaultNamespace);
  }
}
