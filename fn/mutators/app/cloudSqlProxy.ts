/**
 * A Cloud SQL Auth Proxy the chart runs beside an app as a regular container gets SIGTERM at t = 0
 * with the pod and stops proxying while the app still serves through its preStop (S) and finishes
 * its requests (R): every query in that time fails (fn/workloads/cloudSqlProxy.ts). The proxy must
 * outlive the app, as a mesh sidecar must:
 * - native sidecar where the oldest kubelet has them (sidecarMode auto or native): moved to
 *   `initContainers` with `restartPolicy: Always`, as the proxy's own Deployment example does from
 *   v2.15.0 (examples/k8s-sidecar/proxy_with_workload_identity.yaml@v2.15.0); Kubernetes sends it
 *   SIGTERM once the app's containers have exited (KEP-753);
 * - otherwise, from v2.12.0, `--min-sigterm-delay` = T = S + R keeps it accepting until the app is
 *   done (cmd/root.go@v2.12.0);
 * - otherwise (v1, or v2 before 2.12.0 on an older kubelet) nothing the proxy reads keeps it up:
 *   a warning says what would.
 */
import type { Container } from '../../core/kubeObject.ts';
import { formatRef } from '../../core/kubeObject.ts';
import type { Derived } from '../../timing/model.ts';
import {
  cloudSqlProxyOf,
  hasMinSigtermDelay,
  MIN_SIGTERM_DELAY_FLAG,
  sigtermBehaviour,
} from '../../workloads/cloudSqlProxy.ts';
import type { CloudSqlProxy } from '../../workloads/cloudSqlProxy.ts';
import { CLOUD_SQL_PROXY } from '../../facts/versionGates.ts';
import { MESH_PROXY_CONTAINERS } from '../../workloads/meshProxies.ts';
import { kubeletBlocker } from '../../workloads/nativeSidecars.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { MutatorContext, ProposedChange, ProposedFinding } from '../types.ts';
import { moveToNativeSidecar, startOrder } from '../shared/nativeSidecar.ts';
import { appendArg } from '../shared/containerArgs.ts';

const DEPLOYMENT_EXAMPLE =
  'GoogleCloudPlatform/cloud-sql-proxy examples/k8s-sidecar/proxy_with_workload_identity.yaml' +
  '@v2.15.0';

/** What keeping the pod's Cloud SQL Auth Proxies up until the app is done sets and finds. */
export interface ProxyOutcome {
  readonly changes: ProposedChange[];
  readonly findings: ProposedFinding[];
  /** True when a proxy's life is bounded by T = S + R, which must then stay below G. */
  readonly usesSidecarWait: boolean;
}

/** The Cloud SQL Auth Proxies among the pod's regular containers. */
function cloudSqlProxyContainers(
  workload: Workload,
): Array<{ container: Container; proxy: CloudSqlProxy }> {
  return workload.containers.flatMap((container) => {
    const proxy = MESH_PROXY_CONTAINERS.has(container.name)
      ? undefined
      : cloudSqlProxyOf(container);
    return proxy ? [{ container, proxy }] : [];
  });
}

/** Returns the changes that keep each Cloud SQL Auth Proxy of the pod up until the app is done. */
export function cloudSqlProxies(
  workload: Workload,
  context: MutatorContext,
  T: Derived,
): ProxyOutcome {
  const proxies = cloudSqlProxyContainers(workload);
  const outcome: ProxyOutcome = { changes: [], findings: [], usesSidecarWait: false };
  if (proxies.length === 0) return outcome;
  const blocker = kubeletBlocker(context.spec);
  const classicAsked = context.spec.sidecarMode === 'classic';
  if (blocker === undefined && !classicAsked) {
    for (const { container } of proxies) native(workload, container, context, outcome);
    return outcome;
  }
  const whyClassic = classicAsked ? 'sidecarMode is classic' : blocker!;
  let usesWait = false;
  for (const { container, proxy } of proxies) {
    if (!hasMinSigtermDelay(proxy) || runsUnderShell(container)) {
      outcome.findings.push(stopsFirst(workload, container, proxy, whyClassic));
      continue;
    }
    usesWait = true;
    const accepts = sigtermBehaviour(container, proxy).acceptsFor;
    if (!accepts.set) {
      const reason = [
        `${container.name} (the Cloud SQL Auth Proxy) gets SIGTERM with the app at t = 0; ` +
          `${MIN_SIGTERM_DELAY_FLAG} keeps it accepting new connections for T seconds after ` +
          `it, so the app's queries reach the database until it is done ` +
          `(GoogleCloudPlatform/cloud-sql-proxy cmd/root.go@v2.12.0; from ` +
          `v${CLOUD_SQL_PROXY.minSigtermDelay.since}, the image is v${proxy.version}).`,
        T.formula,
        `Classic, not a native sidecar: ${whyClassic}.`,
      ].join('\n');
      outcome.changes.push(
        appendArg(workload, container, `${MIN_SIGTERM_DELAY_FLAG}=${T.value}s`, reason),
      );
    } else if (accepts.seconds < T.value) {
      outcome.findings.push({
        severity: 'warning',
        code: 'APP_SIDECAR_STOPS_FIRST',
        message:
          `${container.name} (the Cloud SQL Auth Proxy) accepts new connections for ` +
          `${accepts.seconds} s after SIGTERM (${accepts.source}), but the app serves until ` +
          `T = ${T.value} s (${T.formula}): its queries fail after that. Kept as written; ` +
          `raise it to ${T.value}s or more`,
        path: workload.containerAt(container.name),
      });
    }
  }
  return { ...outcome, usesSidecarWait: usesWait };
}

/** Moves one proxy to `initContainers` as a native sidecar. */
function native(
  workload: Workload,
  container: Container,
  context: MutatorContext,
  outcome: ProxyOutcome,
): void {
  const taken = (workload.template.spec?.initContainers ?? []).some(
    (c) => c.name === container.name,
  );
  if (taken) {
    outcome.findings.push({
      severity: 'warning',
      code: 'APP_SIDECAR_NAME_TAKEN',
      message:
        `${container.name} (the Cloud SQL Auth Proxy) cannot move to initContainers: an init ` +
        `container has that name, and it keeps stopping with the app at t = 0. Nothing changed; ` +
        `rename one of them in the chart`,
      path: workload.containerAt(container.name),
    });
    return;
  }
  outcome.changes.push(
    ...moveToNativeSidecar(
      workload,
      container,
      [
        `${container.name} (the Cloud SQL Auth Proxy) becomes a native sidecar ` +
          `(restartPolicy: Always in initContainers): Kubernetes sends it SIGTERM only once the ` +
          `app's containers have exited (KEP-753), so the app's queries reach the database ` +
          `through its preStop and its last requests. As a regular container it got SIGTERM at ` +
          `t = 0 and stopped proxying. The proxy's own Deployment example runs it so ` +
          `(${DEPLOYMENT_EXAMPLE}).`,
        `${startOrder(container)} Every field is kept as written. ` +
          `Native: sidecarMode ${context.spec.sidecarMode}, and the oldest kubelet, Kubernetes ` +
          `${context.spec.kubernetesVersion}, runs native sidecars.`,
      ].join('\n'),
    ),
  );
}

/** A proxy nothing the versions in play offer keeps up: said, with what would. */
function stopsFirst(
  workload: Workload,
  container: Container,
  proxy: CloudSqlProxy,
  whyClassic: string,
): ProposedFinding {
  const version = proxy.version ? `v${proxy.version}` : 'an image tag that names no version';
  const flag = runsUnderShell(container)
    ? `the proxy's ${MIN_SIGTERM_DELAY_FLAG} would too, but it runs under a shell whose ` +
      `command line kube-graceful does not edit`
    : `the proxy's ${MIN_SIGTERM_DELAY_FLAG} would too, ` +
      `from v${CLOUD_SQL_PROXY.minSigtermDelay.since}`;
  return {
    severity: 'warning',
    code: 'APP_SIDECAR_STOPS_FIRST',
    message:
      `${container.name} (the Cloud SQL Auth Proxy, ${version}) gets SIGTERM with the app at ` +
      `t = 0 and stops proxying while ${formatRef(workload.ref)} still serves: its queries ` +
      `fail. A native sidecar would outlive the app, but ${whyClassic}; ${flag}. Nothing changed`,
    path: workload.containerAt(container.name),
  };
}

/** True when the container's command is a shell: flags appended to its args would not reach the
 * proxy. */
function runsUnderShell(container: Container): boolean {
  const first = String(container.command?.[0] ?? '');
  return /(?:^|\/)(?:sh|bash|dash|ash)$/.test(first);
}
