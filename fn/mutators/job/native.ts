/**
 * native mode: pin the mesh's native-sidecar annotation on the pod template. A native sidecar
 * (KEP-753) does not block Job completion (docs/background.md#kubernetes-pod-termination), so
 * nothing has to call a quit endpoint — and nothing may: a native sidecar that exits is restarted
 * (docs/background.md#istio).
 */
import type { Config } from '../../config/schema.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { MutatorContext, ProposedChange, ProposedFinding } from '../types.ts';
import { STUCK_JOB } from './reasons.ts';
import { describeVersion, nativeSidecarAnnotation } from './mode.ts';
import type { Mesh, ModeDecision } from './mode.ts';
import { isWrapped, unwrapCommand } from './wrapper.ts';
import { MESH_PROXY } from '../../workloads/meshProxies.ts';

/** The changes and findings of one mode for one pod. */
export interface ModePlan {
  readonly changes: ProposedChange[];
  readonly findings: ProposedFinding[];
}

/**
 * Returns the annotations that make every mesh's proxy a native sidecar, and undoes our wrapper.
 */
export function nativePlan(
  workload: Workload,
  context: MutatorContext,
  meshes: readonly Mesh[],
  decision: ModeDecision,
): ModePlan {
  const changes: ProposedChange[] = [];
  for (const mesh of meshes) {
    const key = nativeSidecarAnnotation(context.config, mesh);
    if (key === undefined) continue; // decideMode / the caller ruled this out
    changes.push({
      path: workload.at('metadata', 'annotations', key),
      value: 'true',
      reason: [
        `${proxyName(mesh)} becomes a native sidecar, ` +
          `which does not keep the Job's pod running once the main containers exit (KEP-753). ` +
          `${STUCK_JOB}`,
        `${annotationSince(context.config, mesh)}; ` +
          `pinned so the result does not depend on mesh defaults or kubelet versions (Istio ` +
          `from 1.27 decides by every node's kubelet version, ` +
          `pkg/kube/inject/webhook.go@1.27.0). Mesh: ${context.mesh[mesh]?.evidence}. ` +
          `Mode native: ${decision.why}.`,
      ].join('\n'),
    });
  }
  // A wrapper left from an earlier wrap-mode run would call quit on a native sidecar, which
  // Kubernetes restarts (docs/background.md#istio "Never call quitquitquit in native mode").
  for (const container of workload.containers) {
    if (!container.command || !isWrapped(container.command)) continue;
    const original = unwrapCommand(container.command) ?? container.command;
    changes.push({
      path: workload.containerAt(container.name, 'command'),
      value: original,
      reason:
        'kube-graceful wrapper removed: in native mode the proxy must not be asked to quit, ' +
        'a native sidecar that exits is restarted (a sidecar container has restartPolicy: ' +
        'Always, KEP-753).',
    });
  }
  return { changes, findings: [] };
}

function proxyName(mesh: Mesh): string {
  return MESH_PROXY[mesh];
}

function annotationSince(config: Config, mesh: Mesh): string {
  return mesh === 'istio'
    ? 'Istio reads this per-pod annotation from 1.24; ' +
        `configured: ${describeVersion(config, 'istio')}`
    : `Linkerd names this annotation by version (alpha prefix 2.15–2.18, beta 2.19, ` +
        `config.linkerd.io/ from 2.20: pkg/k8s/labels.go@version-2.15, @version-2.19, ` +
        `@version-2.20); configured: ${describeVersion(config, 'linkerd')}`;
}
