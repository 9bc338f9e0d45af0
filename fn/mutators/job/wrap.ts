/**
 * wrap mode: each main container's `command` becomes the wrapper (wrapper.ts) that asks the
 * proxies to quit once the program has exited, plus the pod annotations the quit call and a
 * network at start need (issue #4, docs/background.md#istio, docs/background.md#linkerd).
 */
import { annotationsOf } from '../../core/kubeObject.ts';
import type { Container } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { MutatorContext, ProposedChange, ProposedFinding } from '../types.ts';
import { httpClientOf, knownWithoutShell } from './images.ts';

import { describeVersion, nativeSidecarAnnotation } from './mode.ts';
import type { Mesh, ModeDecision } from './mode.ts';
import type { ModePlan } from './native.ts';
import { mergeHoldApplication } from './proxyConfig.ts';
import { PROXY_CONFIG_ANNOTATION } from '../../workloads/istioProxyConfig.ts';
import { STUCK_JOB } from './reasons.ts';
import {
  istioQuitEndpoint,
  isWrapped,
  linkerdQuitEndpoint,
  unwrapCommand,
  wrapCommand,
} from './wrapper.ts';
import type { QuitEndpoint } from './wrapper.ts';
import type { SidecarQuit } from './sidecarQuit.ts';
import { LINKERD_PROXY, MESH_PROXY } from '../../workloads/meshProxies.ts';
import { ISTIO, LINKERD, reached } from '../../facts/versionGates.ts';

const ISTIO_STATUS_PORT = 'status.sidecar.istio.io/port';
const LINKERD_ADMIN_PORT = 'config.linkerd.io/admin-port';
const LINKERD_ADMIN_SHUTDOWN = 'config.linkerd.io/proxy-admin-shutdown';

/** The pod wrap mode plans for: its meshes, main containers, mode decision and sidecars. */
export interface WrapPod {
  readonly meshes: readonly Mesh[];
  readonly main: readonly Container[];
  readonly decision: ModeDecision;
  /** Declared sidecars that quit too (cloud-sql-proxy, Dapr…), each with its endpoint. */
  readonly sidecars?: readonly SidecarQuit[];
}

/** What wrapping one container needs to know of the pod. */
interface WrapContext {
  readonly workload: Workload;
  readonly context: MutatorContext;
  readonly pod: WrapPod;
  readonly endpoints: readonly QuitEndpoint[];
  /** The proxies the wrapper asks to quit, in words. */
  readonly meshWords: string;
}

/**
 * Returns the wrapper changes and annotations for one pod, or findings saying why it cannot be
 * wrapped.
 */
export function wrapPlan(workload: Workload, context: MutatorContext, pod: WrapPod): ModePlan {
  const { meshes, main } = pod;
  const sidecars = pod.sidecars ?? [];
  const quit = quitEndpoints(workload, context, meshes);
  const findings: ProposedFinding[] = [...quit.findings];
  // Quitting one proxy of two would still leave the pod running: wrap only when all can be asked.
  if (quit.endpoints.length < meshes.length) return { changes: [], findings };
  const wrap: WrapContext = {
    workload,
    context,
    pod,
    endpoints: [...quit.endpoints, ...sidecars.map((s) => s.endpoint)],
    meshWords: [
      ...meshes.map((m) => `${MESH_PROXY[m]} (${context.mesh[m]?.evidence})`),
      ...sidecars.map((s) => s.name),
    ].join(' and '),
  };
  const changes: ProposedChange[] = [];
  const wrappedNames: string[] = [];
  for (const container of main) {
    const wrapped = wrapContainer(container, wrap);
    findings.push(...wrapped.findings);
    if (wrapped.change === undefined) continue;
    wrappedNames.push(container.name);
    changes.push(wrapped.change);
  }
  if (changes.length === 0) return { changes, findings };
  // Only the containers wrapped: one that could not be (no command, no shell) stops nothing.
  const wrapped = main.filter((c) => wrappedNames.includes(c.name));
  if (wrapped.length > 1) {
    findings.push({
      severity: 'warning',
      code: 'JOB_SEVERAL_MAIN_CONTAINERS',
      path: workload.at('spec', 'containers'),
      message:
        `${wrapped.length} main containers (${wrapped.map((c) => `"${c.name}"`).join(', ')}) ` +
        'are wrapped: ' +
        'the first to exit stops the proxy while the others may still need the network. ' +
        'Name only the one that finishes last in job.mainContainers, or use native mode',
    });
  }
  changes.push(...sidecars.flatMap((s) => s.changes));
  changes.push(...podAnnotations(workload, context, meshes, findings));
  return { changes, findings };
}

/** Each mesh proxy's quit endpoint, or a finding on why one cannot be asked. */
function quitEndpoints(
  workload: Workload,
  context: MutatorContext,
  meshes: readonly Mesh[],
): { endpoints: QuitEndpoint[]; findings: ProposedFinding[] } {
  const annotations = annotationsOf(workload.template.metadata);
  const endpoints: QuitEndpoint[] = [];
  const findings: ProposedFinding[] = [];
  for (const mesh of meshes) {
    const endpoint = quitEndpoint(mesh, annotations, context);
    if ('problem' in endpoint)
      findings.push({
        severity: 'warning',
        code: 'JOB_NO_QUIT_ENDPOINT',
        message: endpoint.problem,
        ...(endpoint.path ? { path: workload.at(...endpoint.path) } : {}),
      });
    else endpoints.push(endpoint);
  }
  return { endpoints, findings };
}

/** The fix the HTTP-client findings name. */
const CLIENT_FIX =
  'Use native mode (job.mode: native, ' +
  'Kubernetes ≥ 1.29 with Istio ≥ 1.24 / Linkerd ≥ 2.15), or an image with curl or wget; ' +
  'if this image has one, set job.imageHasHttpClient: ' +
  'true (kube-graceful.dev/job-image-has-http-client: "true")';

/**
 * Wraps one main container's command, or says why not (no command, no shell, no HTTP client); a
 * container whose image may lack an HTTP client is wrapped with a warning.
 */
function wrapContainer(
  container: Container,
  wrap: WrapContext,
): { change?: ProposedChange; findings: ProposedFinding[] } {
  const { workload, context } = wrap;
  const command = container.command ?? [];
  const path = workload.containerAt(container.name, 'command');
  if (command.length === 0)
    return {
      findings: [
        {
          severity: 'warning',
          code: 'JOB_ENTRYPOINT_UNKNOWN',
          path,
          message: entrypointUnknown(container),
        },
      ],
    };
  const noShell = isWrapped(command)
    ? undefined
    : withoutShell(container.image, context.spec.job.imageHasShell);
  if (noShell !== undefined)
    return {
      findings: [
        {
          severity: 'warning',
          code: 'JOB_IMAGE_WITHOUT_SHELL',
          path: workload.containerAt(container.name, 'image'),
          message:
            `container "${container.name}" not wrapped: the wrapper needs /bin/sh, ` +
            `and ${noShell} (${container.image}). ` +
            `Use native mode (job.mode: native, ` +
            `Kubernetes ≥ 1.29 with Istio ≥ 1.24 / Linkerd ≥ 2.15), or an image with a shell; ` +
            `if this image does have /bin/sh, set job.imageHasShell: ` +
            `true (kube-graceful.dev/job-image-has-shell: "true")`,
        },
      ],
    };
  const client = httpClientOf(
    container.image,
    context.spec.job.imageHasHttpClient,
    context.spec.job.imageHasShell,
  );
  if (client.client === 'none' && !isWrapped(command))
    return {
      findings: [
        {
          severity: 'warning',
          code: 'JOB_IMAGE_WITHOUT_HTTP_CLIENT',
          path: workload.containerAt(container.name, 'image'),
          message:
            `container "${container.name}" not wrapped: ` +
            `the wrapper asks the proxy to quit with curl or wget, and ${client.evidence}, ` +
            `so the Job would still never complete. ${CLIENT_FIX}`,
        },
      ],
    };
  const findings: ProposedFinding[] = [];
  if (client.client === 'unknown')
    findings.push({
      severity: 'warning',
      code: 'JOB_IMAGE_HTTP_CLIENT_UNKNOWN',
      path: workload.containerAt(container.name, 'image'),
      message:
        `container "${container.name}" wrapped, ` +
        `but the Job completes only if its image has curl or wget for the quit call, ` +
        `and ${client.evidence}: with neither, ` +
        `the wrapper prints so and the proxy keeps the pod running. ${CLIENT_FIX}`,
    });
  const clientKnown =
    client.client === 'unknown' ? 'not known for this image (see the warning)' : client.evidence;
  return { change: wrapChange(command, path, wrap, clientKnown), findings };
}

/** The change that wraps a command, with why. */
function wrapChange(
  command: readonly string[],
  path: ProposedChange['path'],
  wrap: WrapContext,
  clientKnown: string,
): ProposedChange {
  const { endpoints, meshWords, context } = wrap;
  const program = unwrapCommand(command) ?? command;
  const istioDrain = wrap.pod.meshes.includes('istio')
    ? ` istio-proxy exits at once from Istio ${ISTIO.quitSkipsDrain.since} ` +
      '(istio/istio#55424); before, it first drains for terminationDrainDuration ' +
      '(or MINIMUM_DRAIN_DURATION with exit-on-zero), ' +
      'and the Job completes that much later ' +
      `(configured: ${describeVersion(context.config, 'istio')}).`
    : '';
  return {
    path,
    value: wrapCommand(program, endpoints),
    reason: [
      `Wrapped: when ${JSON.stringify(program.join(' '))} exits, ` +
        `the wrapper POSTs ${endpoints.map((e) => e.url).join(' and ')} so ${meshWords} ` +
        `exit${endpoints.length > 1 ? '' : 's'}, then exits with the program's own exit code. ` +
        STUCK_JOB,
      `The call needs curl or wget in the image: ${clientKnown}.${istioDrain}`,
      `args are unchanged: Kubernetes appends them to command, ` +
        `so they reach the program as "$@". Mode wrap: ${wrap.pod.decision.why}.`,
    ].join('\n'),
  };
}

/** Why an image cannot run the wrapper: config says so, or the image is known to have no shell. */
function withoutShell(
  image: string | undefined,
  imageHasShell: boolean | undefined,
): string | undefined {
  if (imageHasShell === true) return undefined;
  if (imageHasShell === false) return 'job.imageHasShell is false';
  return knownWithoutShell(image);
}
function entrypointUnknown(container: Container): string {
  const what =
    container.args && container.args.length > 0 ? 'has args but no command' : 'has no command';
  return (
    `container "${container.name}" ${what}: the image ENTRYPOINT runs, ` +
    `which the manifest does not show, ` +
    `so it cannot be wrapped (kube-graceful never guesses it). ` +
    `Use native mode (job.mode: native, ` +
    `Kubernetes ≥ 1.29 with Istio ≥ 1.24 / Linkerd ≥ 2.15), ` +
    `or give the container an explicit command`
  );
}

/** The mesh's quit endpoint with the pod's port annotation honoured, or why there is none. */
function quitEndpoint(
  mesh: Mesh,
  annotations: Readonly<Record<string, string>>,
  context: MutatorContext,
): QuitEndpoint | { problem: string; path?: string[] } {
  if (mesh === 'linkerd' && !reached(LINKERD.shutdownEndpoint, context.spec.linkerdVersion)) {
    return {
      problem:
        `${describeVersion(context.config, 'linkerd')} has no POST /shutdown (from ` +
        `${LINKERD.shutdownEndpoint.since}): the proxy cannot be asked to quit`,
    };
  }
  const key = mesh === 'istio' ? ISTIO_STATUS_PORT : LINKERD_ADMIN_PORT;
  const text = annotations[key];
  if (text === undefined) return mesh === 'istio' ? istioQuitEndpoint() : linkerdQuitEndpoint();
  const port = /^\d{1,5}$/.test(String(text).trim()) ? Number(String(text).trim()) : NaN;
  if (port >= 1 && port <= 65535)
    return mesh === 'istio' ? istioQuitEndpoint(port) : linkerdQuitEndpoint(port);
  const path = ['metadata', 'annotations', key];
  if (mesh === 'istio' && port === 0)
    return {
      problem:
        `${key}: "0" turns off pilot-agent's status port and with it /quitquitquit: ` +
        `the proxy cannot be asked to quit`,
      path,
    };
  return {
    problem:
      `${key}: ${JSON.stringify(text)} is not a port from 1 to 65535: ` +
      `the quit endpoint is unknown`,
    path,
  };
}

/** Annotations the wrapper relies on: native off, Linkerd's shutdown switch, Istio's hold. */
function podAnnotations(
  workload: Workload,
  context: MutatorContext,
  meshes: readonly Mesh[],
  findings: ProposedFinding[],
): ProposedChange[] {
  const changes: ProposedChange[] = [];
  const at = (key: string) => workload.at('metadata', 'annotations', key);
  for (const mesh of meshes) {
    const nativeKey = nativeSidecarAnnotation(context.config, mesh);
    // Injected at render time: the proxy's place is fixed in the template; the annotation would do
    // nothing.
    if (nativeKey !== undefined && !context.mesh[mesh]?.renderInjected) {
      changes.push({
        path: at(nativeKey),
        value: 'false',
        reason:
          'Pinned off: the wrapper asks the proxy to quit, ' +
          'and a native sidecar that exits is restarted (restartPolicy: Always, KEP-753); ' +
          'left open, the mesh may pick native by itself (Istio from 1.27 on kubelets ≥ ' +
          '1.33, pkg/kube/inject/webhook.go@1.27.0; Linkerd from 2.20, ' +
          'charts/linkerd-control-plane/values.yaml@version-2.20).',
      });
    }
  }
  if (meshes.includes('linkerd')) changes.push(linkerdShutdownSwitch(workload, context));
  if (meshes.includes('istio')) changes.push(...istioHold(workload, context, findings));
  return changes;
}

/** Linkerd's POST /shutdown switch: the annotation, or the env it becomes where injected. */
function linkerdShutdownSwitch(workload: Workload, context: MutatorContext): ProposedChange {
  if (context.mesh.linkerd?.renderInjected) {
    // What the annotation turns into at injection:
    // charts/partials/templates/_proxy.tpl@version-2.18.
    return {
      path: workload.containerAt(
        LINKERD_PROXY,
        'env',
        { key: 'name', equals: 'LINKERD2_PROXY_SHUTDOWN_ENDPOINT_ENABLED' },
        'value',
      ),
      value: 'true',
      reason:
        `linkerd-proxy answers POST /shutdown only with ` +
        `LINKERD2_PROXY_SHUTDOWN_ENDPOINT_ENABLED "true" (off by default since Linkerd 2.16, ` +
        `charts/linkerd-control-plane/values.yaml@version-2.16); ` +
        `set on the container because ${context.mesh.linkerd.renderInjected.evidence}.`,
    };
  }
  return {
    path: workload.at('metadata', 'annotations', LINKERD_ADMIN_SHUTDOWN),
    value: 'enabled',
    reason:
      'linkerd-proxy answers POST /shutdown only with this annotation (off by default ' +
      'since Linkerd 2.16).',
  };
}

/** Istio's holdApplicationUntilProxyStarts, merged into `proxy.istio.io/config` where it acts. */
function istioHold(
  workload: Workload,
  context: MutatorContext,
  findings: ProposedFinding[],
): ProposedChange[] {
  const annotations = annotationsOf(workload.template.metadata);
  if (context.mesh.istio?.renderInjected) {
    findings.push({
      severity: 'info',
      code: 'RENDER_INJECTED',
      message:
        `${context.mesh.istio.renderInjected.evidence}: ` +
        `holdApplicationUntilProxyStarts is applied only at injection, so it was not set; ` +
        `the program may start before istio-proxy is ready.`,
    });
    return [];
  }
  const merge = mergeHoldApplication(annotations[PROXY_CONFIG_ANNOTATION]);
  const path = workload.at('metadata', 'annotations', PROXY_CONFIG_ANNOTATION);
  if (merge.kind === 'set') {
    return [
      {
        path,
        value: merge.value,
        reason:
          'holdApplicationUntilProxyStarts: ' +
          'the program starts only once istio-proxy is ready, ' +
          'so it has a network from its first line (Istio 1.8+); other keys kept.',
      },
    ];
  }
  if (merge.kind === 'keptFalse') {
    findings.push({
      severity: 'info',
      code: 'JOB_HOLD_KEPT_FALSE',
      path,
      message:
        `${PROXY_CONFIG_ANNOTATION} sets holdApplicationUntilProxyStarts: false, kept: ` +
        `the program may start before istio-proxy is ready and see no network for its ` +
        `first moments`,
    });
  } else if (merge.kind === 'invalid') {
    findings.push({
      severity: 'warning',
      code: 'JOB_PROXY_CONFIG_INVALID',
      path,
      message:
        `${PROXY_CONFIG_ANNOTATION} left unchanged, ` +
        `holdApplicationUntilProxyStarts not set: ${merge.problem}`,
    });
  }
  return [];
}
