/**
 * An object a mutator adds goes where the object it was made for came from. Helm 4 hands a
 * post-renderer every document marked with the template file it came from and regroups the output
 * by that mark; a document without it becomes `generated-by-postrender-N.yaml`
 * (splitAndDeannotate, pkg/action/action.go@v4.0.0). With the target's mark, the added object is
 * listed with the template that made the target (`helm template`'s `# Source:`).
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { HELM4_POSTRENDER_FILENAME } from '../core/helm.ts';
import { annotationsOf } from '../core/kubeObject.ts';

/** Returns `object` with `target`'s Helm 4 template mark, when the target has one. */
export function alongside(object: KubeObject, target: KubeObject): KubeObject {
  const file = annotationsOf(target.metadata)[HELM4_POSTRENDER_FILENAME];
  if (typeof file !== 'string') return object;
  const metadata = object.metadata ?? {};
  return {
    ...object,
    metadata: {
      ...metadata,
      annotations: { ...annotationsOf(metadata), [HELM4_POSTRENDER_FILENAME]: file },
    },
  };
}
