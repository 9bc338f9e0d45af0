/**
 * Helm hook Jobs (`helm.sh/hook`). Helm 3's `--post-renderer` never receives hooks
 * (helm/helm#7891, checked with Helm 3.17.2: the post-renderer's stdin holds no hook, and
 * `helm template --post-renderer` prints hooks unchanged). Helm 4 sends them, each document
 * marked with `postrenderer.helm.sh/postrender-filename` (test/fixtures/corpus/helm4-*).
 *
 * So when we see a hook, the input is Helm 4's (our change reaches the cluster) or `helm template`
 * output. The second case is the trap: a user who checks the output here and then deploys with
 * `helm upgrade --post-renderer` on Helm 3 gets this Job unchanged. Only that case is reported.
 */
import { HELM4_POSTRENDER_FILENAME } from '../../core/helm.ts';
import { annotationsOf } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedFinding } from '../types.ts';

const HELM_HOOK = 'helm.sh/hook';

/** Returns the finding for a hook Job whose input is not Helm 4's post-renderer stream. */
export function helmHookFindings(workload: Workload): ProposedFinding[] {
  const annotations = annotationsOf(workload.object.metadata);
  const hook = annotations[HELM_HOOK];
  if (hook === undefined || annotations[HELM4_POSTRENDER_FILENAME] !== undefined) return [];
  // A hook can be a Job, a CronJob or a bare Pod: name the kind found.
  const kind = String(workload.object.kind ?? 'workload');
  return [
    {
      severity: 'info',
      code: 'JOB_HELM3_HOOK',
      message:
        `this ${kind} is a Helm hook (${HELM_HOOK}: ${hook}). ` +
        `Helm 3 never sends hooks to a post-renderer (helm/helm#7891): ` +
        `with \`helm install/upgrade --post-renderer\` on Helm 3 this ${kind} is deployed ` +
        `unchanged. The change above reaches the cluster with Helm 4 (post-renderer plugin) ` +
        `or \`helm template … | kube-graceful | kubectl apply -f -\``,
      path: ['metadata', 'annotations', HELM_HOOK],
    },
  ];
}
