/**
 * job-sidecar-quit: Jobs, CronJobs and run-once Pods with an Istio or Linkerd sidecar complete
 * when their work is done (issue #4; kubernetes/kubernetes#25908). native mode pins the mesh's
 * native-sidecar annotation; wrap mode wraps the main containers' command so the proxy is asked
 * to quit. Docs: docs/mutators/job-sidecar-quit.md.
 */
import { isDeepStrictEqual } from 'node:util';
import { getAt } from '../../core/fieldPath.ts';
import { annotationsOf, labelsOf } from '../../core/kubeObject.ts';
import { meshIgnoresNamespace } from '../../workloads/mesh.ts';
import type { Workload } from '../../workloads/workload.ts';
import { defineMutator, NOTHING } from '../types.ts';
import { nativeMaturityNote } from '../../workloads/nativeSidecars.ts';
import type { MutatorContext, MutatorOutcome, ProposedFinding } from '../types.ts';
import { explainJob } from './explain.ts';
import { JOB_FINDING_CODES } from './findings.ts';
import type { JobPlan } from './plan.ts';
import { ambientJobFinding } from '../shared/ambient.ts';
import { helmHookFindings } from './helmHook.ts';
import { mainContainers } from './mainContainers.ts';
import { decideMode, nativeBlockers } from './mode.ts';
import type { Mesh, ModeDecision } from './mode.ts';
import { nativePlan } from './native.ts';
import {
  alreadyNative,
  declaredOf,
  nativeMovePlan,
  noMainContainer,
  notStopped,
} from './declared.ts';
import type { DeclaredSidecar } from '../../workloads/declaredSidecars.ts';
import { MESH_PROXY_CONTAINERS } from '../../workloads/meshProxies.ts';
import type { ModePlan } from './native.ts';
import { wrapPlan } from './wrap.ts';
import { sidecarQuit } from './sidecarQuit.ts';
import { vaultAgentOf, vaultAlreadyInitOnly, vaultPlan } from './vault.ts';
import { DAPR_ENABLED, DAPR_NATIVE, DAPRD, daprQuit, daprSidecarOf } from './dapr.ts';
import { CONSUL_DATAPLANE, CONSUL_INJECT, CONSUL_NATIVE, consulSidecarOf } from './consul.ts';
import { KUMA_INJECTION, KUMA_SIDECAR, kumaInjected } from './kuma.ts';
import type { SidecarQuit } from './sidecarQuit.ts';
import { KUBERNETES, KUMA } from '../../facts/versionGates.ts';
import type { RenderInjectedProxy } from '../../workloads/renderInjected.ts';
import { JOB_SETTINGS } from './settings/slice.ts';

const MESHES: readonly Mesh[] = ['istio', 'linkerd'];

export const jobSidecarQuit = defineMutator<JobPlan, 'job-sidecar-quit'>({
  id: 'job-sidecar-quit',
  settings: JOB_SETTINGS,
  description:
    'Jobs with a mesh sidecar complete: native sidecar, ' +
    'or a command wrapper that asks the proxy to quit',
  findingCodes: JOB_FINDING_CODES,
  enabled: (spec) => spec.job.mode !== 'off',
  // A pod that runs to completion is behind no load balancer's drain: app-graceful leaves it.
  claims: (workload) => workload.runsToCompletion,
  mutate(workload: Workload, context: MutatorContext): MutatorOutcome<JobPlan> {
    if (!workload.runsToCompletion) return NOTHING;
    const meshes = MESHES.filter((mesh) => context.mesh[mesh] !== undefined);
    const declared = declaredOf(workload, context.config);
    const vault = vaultAgentOf(workload.template);
    const injected = injectedOf(workload, context);
    const sidecars = { meshes, declared, vault, injected };
    const early = withoutPlan(workload, context, sidecars);
    if (early) return early;
    const rendered = renderedProxies(context, meshes);
    const decision = injectedWraps(
      renderedClassic(
        decideMode(context.config, meshes, annotationsOf(workload.template.metadata)),
        rendered,
      ),
      injected,
    );
    const pod: ModeInputs = {
      meshes,
      decision,
      declared: declared.sidecars,
      injected: injected.quits,
    };
    const sidecarsPlan =
      decision.mode === 'native' ? native(workload, context, pod) : wrap(workload, context, pod);
    // The Vault agent's switch is the same in either mode (vault.ts).
    const vaultChanges = vaultPlan(workload);
    const plan = {
      changes: [...sidecarsPlan.changes, ...vaultChanges.changes],
      findings: [...sidecarsPlan.findings, ...vaultChanges.findings],
    };
    // Only what differs from the manifest counts, so "nothing to do" can be said when that is so.
    const changes = plan.changes.filter(
      (c) => !isDeepStrictEqual(getAt(workload.object, c.path), c.value),
    );
    const findings = [...declared.findings, ...injected.done, ...plan.findings];
    if (decision.mode === 'native' && changes.some((c) => c.value === 'true'))
      findings.push(...maturityNotes(context, meshes));
    if (changes.length > 0) findings.push(...helmHookFindings(workload));
    else if (!findings.some((f) => f.severity !== 'info'))
      findings.push(
        meshes.length === 0 && declared.sidecars.length === 0
          ? vaultAlreadyInitOnly()
          : alreadyDone(decision.mode),
      );
    const jobPlan: JobPlan = {
      mode: decision.mode,
      why: decision.why,
      meshes,
      mesh: context.mesh,
      sidecars: declared.sidecars,
      vault: vault.injected,
      dapr: injected.dapr,
      consul: injected.consul,
    };
    return { changes, findings, plan: jobPlan };
  },
  explain: explainJob,
});

/** What runs beside the Job's program. */
interface JobSidecars {
  readonly meshes: readonly Mesh[];
  readonly declared: ReturnType<typeof declaredOf>;
  readonly vault: ReturnType<typeof vaultAgentOf>;
  readonly injected: ReturnType<typeof injectedOf>;
}

/** The proxies injected at render time, for the meshes of the pod. */
function renderedProxies(context: MutatorContext, meshes: readonly Mesh[]): RenderInjectedProxy[] {
  return meshes.map((mesh) => context.mesh[mesh]?.renderInjected).filter((p) => p !== undefined);
}

/**
 * The outcome where there is nothing to plan: a sidecar nothing can end, no sidecar, no main
 * container, or proxies injected at render time as native sidecars. Undefined where there is.
 */
function withoutPlan(
  workload: Workload,
  context: MutatorContext,
  { meshes, declared, vault, injected }: JobSidecars,
): MutatorOutcome<JobPlan> | undefined {
  // An injected sidecar the wrapper cannot end leaves the pod running whatever else is done.
  if (injected.stuck.length > 0)
    return { changes: [], findings: [...declared.findings, ...injected.stuck] };
  if (
    meshes.length === 0 &&
    declared.sidecars.length === 0 &&
    !vault.injected &&
    injected.quits.length === 0
  )
    return {
      changes: [],
      findings: [
        ...declared.findings,
        ...(declared.native.length > 0
          ? [alreadyNative(declared.native)]
          : injected.done.length > 0
            ? injected.done
            : [
                context.mesh.ambient
                  ? ambientJobFinding(context.mesh.ambient.evidence)
                  : noMesh(workload),
              ]),
      ],
    };
  // Never guess the work: a pod of sidecars only has nothing whose end means the Job is done.
  const sidecarNames = new Set(declared.sidecars.map((s) => s.name));
  if (
    workload.containers.every((c) => MESH_PROXY_CONTAINERS.has(c.name) || sidecarNames.has(c.name))
  )
    return { changes: [], findings: [...declared.findings, noMainContainer(workload)] };
  const rendered = renderedProxies(context, meshes);
  if (
    meshes.length > 0 &&
    declared.sidecars.length === 0 &&
    !vault.injected &&
    rendered.length === meshes.length &&
    rendered.every((p) => p.native)
  ) {
    // Injected at render time as native sidecars: the Job already completes (KEP-753).
    return {
      changes: [],
      findings: [
        {
          severity: 'info',
          code: 'RENDER_INJECTED',
          message:
            `${rendered.map((p) => p.evidence).join('; ')}: ` +
            `the Job completes when its containers exit; nothing to do.`,
        },
      ],
    };
  }
  return undefined;
}

/**
 * A proxy injected at render time as a classic sidecar stays one: the native annotation is read
 * only at injection. Native mode is then not to be had; the wrapper is
 * (fn/workloads/renderInjected.ts).
 */
function renderedClassic(
  decision: ModeDecision,
  rendered: readonly RenderInjectedProxy[],
): ModeDecision {
  const classic = rendered.filter((p) => !p.native);
  if (decision.mode !== 'native' || classic.length === 0) return decision;
  return {
    mode: 'wrap',
    why:
      `${decision.why}, but ${classic.map((p) => p.evidence).join('; ')}: ` +
      `the native annotation is read only at injection, so wrap`,
  };
}

/** What a mode's plan reads beside the workload: the meshes, the mode and the sidecars. */
interface ModeInputs {
  readonly meshes: readonly Mesh[];
  readonly decision: ModeDecision;
  /** Sidecars the chart declares (cloud-sql-proxy…). */
  readonly declared: readonly DeclaredSidecar[];
  /** Sidecars an injector adds that quit at an endpoint (Dapr, Consul). */
  readonly injected: readonly SidecarQuit[];
}

function native(workload: Workload, context: MutatorContext, pod: ModeInputs): ModePlan {
  const { meshes, decision, declared: sidecars } = pod;
  // An explicit `job.mode: native` the versions cannot honour: pinning the annotation would do
  // nothing (old mesh) or leave the proxy an init container that never ends (old Kubernetes).
  // The conservative choice is to change nothing and say so.
  const blockers = decision.pinnedByPod ? [] : nativeBlockers(context.config, meshes);
  if (blockers.length > 0) {
    return {
      changes: [],
      findings: [
        {
          severity: 'warning',
          code: 'JOB_NATIVE_UNAVAILABLE',
          message:
            `${decision.why}, but native sidecars are not available: ${blockers.join('; ')}. ` +
            `Nothing changed; set the versions of the target cluster, or job.mode: wrap`,
        },
      ],
    };
  }
  const mesh = nativePlan(workload, context, meshes, decision);
  const moved = nativeMovePlan(workload, sidecars, decision);
  return {
    changes: [...mesh.changes, ...moved.changes],
    findings: [...mesh.findings, ...moved.findings],
  };
}

/**
 * The upstream maturity of native sidecars where this run pins them: a fact to weigh, not a reason
 * to leave the Job hanging.
 */
function maturityNotes(context: MutatorContext, meshes: readonly Mesh[]): ProposedFinding[] {
  return meshes
    .map((mesh) => nativeMaturityNote(mesh, context.spec))
    .filter((note) => note !== undefined)
    .map((note) => ({
      severity: 'info',
      code: 'JOB_NATIVE_SIDECAR_MATURITY',
      message:
        `${note}. Native was still chosen: ` +
        `without it (or a wrapper) the Job never completes. ` +
        `Set job.mode: wrap (kube-graceful.dev/job-mode: wrap) to keep classic sidecars`,
    }));
}

function wrap(workload: Workload, context: MutatorContext, pod: ModeInputs): ModePlan {
  const { meshes, decision, declared: sidecars, injected } = pod;
  // Each declared sidecar must be ended by the wrapper too, or the pod still never completes.
  const quits = sidecars.map((sidecar) => ({ sidecar, quit: sidecarQuit(workload, sidecar) }));
  const stuck = quits.flatMap(({ sidecar, quit }) =>
    'problem' in quit ? [{ sidecar, problem: quit.problem }] : [],
  );
  if (stuck.length > 0) return { changes: [], findings: [notStopped(stuck, decision)] };
  const ended = [...quits.flatMap(({ quit }) => ('problem' in quit ? [] : [quit])), ...injected];
  if (meshes.length === 0 && ended.length === 0) return { changes: [], findings: [] };
  const main = mainContainers(workload, context.spec, sidecars);
  const plan = wrapPlan(workload, context, {
    meshes,
    main: main.containers,
    decision,
    sidecars: ended,
  });
  return { changes: plan.changes, findings: [...main.findings, ...plan.findings] };
}

function noMesh(workload: Workload): ProposedFinding {
  const ignored = MESHES.map((mesh) => meshIgnoresNamespace(mesh, workload.ref.namespace)).filter(
    (why) => why !== undefined,
  );
  // Only when that is the whole story: a pod that opts out says so below.
  if (ignored.length > 0)
    return {
      severity: 'info',
      code: 'JOB_NO_MESH',
      message: `no mesh sidecar is injected: ${ignored.join('; ')}; nothing to do`,
    };
  const meta = workload.template.metadata;
  const optOut = [
    (labelsOf(meta)['sidecar.istio.io/inject'] ??
      annotationsOf(meta)['sidecar.istio.io/inject']) === 'false'
      ? 'sidecar.istio.io/inject: "false"'
      : '',
    annotationsOf(meta)['linkerd.io/inject'] === 'disabled' ? 'linkerd.io/inject: disabled' : '',
  ].filter(Boolean);
  const namespace = workload.ref.namespace;
  const namespaceWhy = namespace
    ? `namespace ${namespace} is neither labelled for injection by a Namespace in the stream ` +
      'nor listed in mesh.istioInjectedNamespaces / mesh.linkerdInjectedNamespaces'
    : 'the resource names no namespace';
  const why =
    optOut.length > 0
      ? `the pod template opts out with ${optOut.join(' and ')}`
      : 'no sidecar.istio.io/inject, istio.io/rev or linkerd.io/inject on the pod template, ' +
        `and ${namespaceWhy}`;
  return {
    severity: 'info',
    code: 'JOB_NO_MESH',
    message: `no mesh sidecar is injected (${why}): nothing to do`,
  };
}

function alreadyDone(mode: 'native' | 'wrap'): ProposedFinding {
  return {
    severity: 'info',
    code: 'JOB_ALREADY_COMPLETES',
    message:
      mode === 'native'
        ? 'the mesh proxy is already pinned as a native sidecar: the Job completes, nothing to do'
        : 'the main containers are already wrapped and the pod annotations set: ' +
          'the Job completes, nothing to do',
  };
}

/** The sidecars an injector adds at admission, as the wrapper can end them. */
interface Injected {
  readonly dapr: boolean;
  readonly consul: boolean;
  /** How the wrapper ends each that must be ended. */
  readonly quits: readonly SidecarQuit[];
  /** Why each that must be ended is not native: a version the stream does not show. */
  readonly notNative: readonly string[];
  /** Info: an injected sidecar the pod asks to be native, nothing to do. */
  readonly done: readonly ProposedFinding[];
  /** Warnings: an injected sidecar the wrapper cannot end (or kube-graceful does not model). */
  readonly stuck: readonly ProposedFinding[];
}

/**
 * Dapr's daprd (./dapr.ts) and Consul's consul-dataplane (./consul.ts) in the pod: the quits the
 * wrapper must make, or, where the pod asks for a native sidecar, the finding that says nothing is
 * to be done. A program that calls the shutdown API itself, as Dapr's Job example does, is wrapped
 * too: whether its own call is reached (a command that fails first never makes it) is not known,
 * and a second call is harmless.
 */
function injectedOf(workload: Workload, context: MutatorContext): Injected {
  const dapr = daprSidecarOf(workload.template);
  const consul = consulSidecarOf(workload.template);
  const quits: SidecarQuit[] = [];
  const notNative: string[] = [];
  const done: ProposedFinding[] = [];
  const stuck: ProposedFinding[] = [];
  const runsNative =
    `on a kubelet that runs native sidecars (Kubernetes ` +
    `${KUBERNETES.nativeSidecars.since}+); nothing to do`;
  if (dapr.injected && dapr.native)
    done.push({
      severity: 'info',
      code: 'JOB_DAPR_NATIVE',
      message:
        `the pod asks for ${DAPRD} as a native sidecar (${DAPR_NATIVE}, read by Dapr's ` +
        `injector from 1.18.0): the Job completes when its containers exit, ${runsNative}`,
    });
  else if (dapr.injected) {
    quits.push(daprQuit());
    notNative.push(
      `${DAPRD} (${DAPR_ENABLED}) is a native sidecar only with ${DAPR_NATIVE} on Dapr 1.18+`,
    );
  }
  if (consul.injected && consul.native)
    done.push({
      severity: 'info',
      code: 'JOB_CONSUL_NATIVE',
      message:
        `the pod asks for ${CONSUL_DATAPLANE} as a native sidecar (${CONSUL_NATIVE}, read by ` +
        `consul-k8s's injector from v1.9.0): the Job completes when its containers exit, ` +
        runsNative,
    });
  else if (consul.quit !== undefined && 'problem' in consul.quit)
    stuck.push({
      severity: 'warning',
      code: 'JOB_CONSUL_NOT_STOPPED',
      message:
        `${CONSUL_DATAPLANE} (${CONSUL_INJECT}) keeps the pod running after the program ` +
        `exits, and the wrapper cannot end it: ${consul.quit.problem}. Nothing is written; set ` +
        `${CONSUL_NATIVE}: "true" (consul-k8s v1.9.0+, Kubernetes ` +
        `${KUBERNETES.nativeSidecars.since}+), or POST to the dataplane's graceful-shutdown ` +
        `endpoint when the program ends`,
    });
  else if (consul.quit !== undefined) {
    quits.push(consul.quit);
    notNative.push(
      `${CONSUL_DATAPLANE} (${CONSUL_INJECT}) is a native sidecar only with ${CONSUL_NATIVE} ` +
        `on consul-k8s v1.9.0+`,
    );
  }
  const namespace = context.inventory.namespaces.find(
    (n) => n.metadata?.name === workload.ref.namespace,
  );
  if (kumaInjected(workload.template, namespace))
    stuck.push({
      severity: 'warning',
      code: 'JOB_KUMA_NOT_STOPPED',
      message:
        `${KUMA_SIDECAR} (${KUMA_INJECTION} on the pod's or its namespace's labels) keeps the ` +
        `pod running after the program exits unless Kuma runs it as a native sidecar (the ` +
        `control plane's experimental.sidecarContainers, Kuma ${KUMA.sidecarContainers.since}+, ` +
        `on Kubernetes ` +
        `${KUBERNETES.nativeSidecars.since}+), which this input does not show; kube-graceful ` +
        `does not end it (Kuma quits Envoy through an admin listener over TLS on a port its ` +
        `bootstrap assigns). Nothing is written; turn sidecarContainers on, or end kuma-dp ` +
        `when the program ends`,
    });
  return { dapr: dapr.injected, consul: consul.injected, quits, notNative, done, stuck };
}

/**
 * Where an injected sidecar must be ended, the pod is wrapped: the wrapper can end it (and the
 * mesh proxies), and a native one needs an injector version the stream does not show.
 */
function injectedWraps(decision: ModeDecision, injected: Injected): ModeDecision {
  if (injected.quits.length === 0 || decision.mode === 'wrap') return decision;
  const one = injected.quits.length === 1;
  return {
    mode: 'wrap',
    why:
      `${decision.why}, but ${injected.notNative.join(', and ')}, ` +
      `${one ? 'a version' : 'versions'} the stream does not show: wrap, which ends ` +
      `${injected.quits.map((q) => q.name).join(' and ')} through ` +
      `${one ? 'its shutdown API' : 'their shutdown APIs'}`,
  };
}
