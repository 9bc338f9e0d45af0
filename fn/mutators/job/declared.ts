/**
 * Sidecars the chart declares in a Job's `containers` (fn/workloads/declaredSidecars.ts: a known
 * image, or named by `job.sidecars`), made native sidecars: each moves to `initContainers` with
 * `restartPolicy: Always` (KEP-753), every other field kept as written. Kubernetes then stops it
 * once the main containers have exited, and its exit code does not count for the pod's phase
 * (kubelet getPhase, pkg/kubelet/kubelet_pods.go: "terminated restartable init containers are not
 * taken into account for the pod phase"). This is what the Cloud SQL Auth Proxy's own Job example
 * does (examples/k8s-sidecar/job_with_sidecar.yaml@v2.25.3).
 */
import { sourceOf } from '../../config/schema.ts';
import type { Config } from '../../config/schema.ts';
import { declaredSidecars } from '../../workloads/declaredSidecars.ts';
import { MESH_PROXY_CONTAINERS } from '../../workloads/meshProxies.ts';
import type { DeclaredSidecar } from '../../workloads/declaredSidecars.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedChange, ProposedFinding } from '../types.ts';
import type { ModeDecision } from './mode.ts';
import type { ModePlan } from './native.ts';
import { STUCK_JOB } from './reasons.ts';
import { moveToNativeSidecar, startOrder } from '../shared/nativeSidecar.ts';
import { nativeSidecarsOf } from '../../workloads/nativeSidecars.ts';

/**
 * The pod's declared sidecars in `containers`, those already native, and a finding for each
 * configured name that matches neither.
 */
export function declaredOf(
  workload: Workload,
  config: Config,
): { sidecars: DeclaredSidecar[]; native: DeclaredSidecar[]; findings: ProposedFinding[] } {
  const named = config.spec.job.sidecars;
  const namedBy = `job.sidecars (${sourceOf(config, 'job.sidecars')})`;
  // A mesh proxy injected at render time is the mesh's to handle (native.ts, wrap.ts), even if
  // named: moving it would undo its injector's ordering.
  const candidates = workload.containers.filter((c) => !MESH_PROXY_CONTAINERS.has(c.name));
  const { sidecars, missing } = declaredSidecars(candidates, named, namedBy);
  // Those that run as native sidecars already (a run before this one, or the chart).
  const native = declaredSidecars(nativeSidecarsOf(workload.template), named, namedBy).sidecars;
  const findings = missing
    .filter((name) => !native.some((s) => s.name === name) && !MESH_PROXY_CONTAINERS.has(name))
    .map((name): ProposedFinding => ({
      severity: 'warning',
      code: 'JOB_SIDECAR_NOT_FOUND',
      message:
        `job.sidecars names "${name}", but this pod has no container of that name ` +
        `(containers: ${workload.containers.map((c) => `"${c.name}"`).join(', ') || 'none'})`,
      path: workload.at('spec', 'containers'),
    }));
  return { sidecars, native, findings };
}

/** Returns the changes that make each declared sidecar a native one. */
export function nativeMovePlan(
  workload: Workload,
  sidecars: readonly DeclaredSidecar[],
  decision: ModeDecision,
): ModePlan {
  const changes: ProposedChange[] = [];
  const findings: ProposedFinding[] = [];
  const initNames = new Set((workload.template.spec?.initContainers ?? []).map((c) => c.name));
  for (const sidecar of sidecars) {
    const container = workload.containers.find((c) => c.name === sidecar.name);
    if (!container) continue;
    if (initNames.has(sidecar.name)) {
      // Two containers of one name would be refused by the API server.
      findings.push({
        severity: 'warning',
        code: 'JOB_SIDECAR_NAME_TAKEN',
        message:
          `${sidecar.name} cannot move to initContainers: an init container has that name. ` +
          `Nothing changed; rename one of them in the chart`,
        path: workload.containerAt(sidecar.name),
      });
      continue;
    }
    changes.push(
      ...moveToNativeSidecar(
        workload,
        container,
        [
          `${sidecar.name} becomes a native sidecar (restartPolicy: Always in initContainers): ` +
            `Kubernetes stops it once the main containers have exited, and its exit code does ` +
            `not count for the pod's phase (KEP-753; kubelet getPhase). ${STUCK_JOB}`,
          `Why a sidecar: ${sidecar.evidence}. ${startOrder(container)} ` +
            `Every field is kept as written. Mode native: ${decision.why}.`,
        ].join('\n'),
      ),
    );
  }
  return { changes, findings };
}

/**
 * Declared sidecars the wrapper cannot end (no quit endpoint it knows, or a version without one):
 * the pod is left as written, since quitting the others would still leave it running. Said as a
 * warning, with what would end them.
 */
export function notStopped(
  stuck: ReadonlyArray<{ readonly sidecar: DeclaredSidecar; readonly problem: string }>,
  decision: ModeDecision,
): ProposedFinding {
  const names = stuck
    .map(({ sidecar, problem }) => `${sidecar.name} (${sidecar.evidence}; ${problem})`)
    .join('; ');
  return {
    severity: 'warning',
    code: 'JOB_SIDECAR_NOT_STOPPED',
    message:
      `${names}: keeps running after the main containers exit, and the wrapper cannot end it, ` +
      `so the Job never completes. Nothing changed for this pod; a native sidecar would end ` +
      `it, and ${decision.why}: if the oldest kubelet is 1.29 or later, say so ` +
      `(kubernetesVersion)`,
  };
}

/** A pod whose containers are all sidecars: which one is the work cannot be told. */
export function noMainContainer(workload: Workload): ProposedFinding {
  const names = workload.containers.map((c) => c.name).join(', ');
  return {
    severity: 'warning',
    code: 'JOB_NO_MAIN_CONTAINER',
    message:
      `every container of this pod is a sidecar (${names}), ` +
      `so none can be told to be the work: nothing changed. ` +
      `Leave the work's container out of job.sidecars (kube-graceful.dev/job-sidecars)`,
    path: workload.at('spec', 'containers'),
  };
}

/** The declared sidecars are native already: the Job completes. */
export function alreadyNative(sidecars: readonly DeclaredSidecar[]): ProposedFinding {
  return {
    severity: 'info',
    code: 'JOB_ALREADY_COMPLETES',
    message:
      `${sidecars.map((s) => s.name).join(', ')} already run${sidecars.length === 1 ? 's' : ''} ` +
      `as native sidecars (restartPolicy: Always in initContainers): the Job completes, ` +
      `nothing to do`,
  };
}
