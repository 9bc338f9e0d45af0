/**
 * Consul's dataplane in a Job (issue #30 item 2). consul-k8s's connect injector adds a
 * `consul-dataplane` container to a pod annotated `consul.hashicorp.com/connect-inject`
 * (strconv.ParseBool: control-plane/connect-inject/webhook/mesh_webhook.go@v1.9.11 shouldInject;
 * container name `sidecarContainer`). It runs until told to stop, so the Job's pod never
 * completes. consul-dataplane always serves a graceful-shutdown endpoint on its lifecycle port,
 * 20600 unless `consul.hashicorp.com/sidecar-proxy-lifecycle-graceful-port` says otherwise
 * (constants.go@v1.9.11 DefaultGracefulPort, lifecycle_configuration.go GracefulPort), at
 * `/graceful_shutdown` (consul-dataplane pkg/consuldp/lifecycle.go@v1.9.9
 * startLifecycleManager, defaultLifecycleShutdownPath): a POST makes it wait its shutdown grace
 * period, then quit Envoy, and the dataplane exits 0 (consul_dataplane.go@v1.9.9 Run). The
 * endpoint is there from consul-k8s v1.2.3 (absent @v1.2.0). The wrapper makes that call.
 *
 * From consul-k8s v1.9.0, `consul.hashicorp.com/enable-consul-dataplane-as-sidecar` makes the
 * dataplane a native sidecar (consul_dataplane_sidecar.go@v1.9.11, restartPolicy Always; absent
 * @v1.8.0): the Job then completes on a kubelet that runs native sidecars. The consul-k8s version
 * is not in the stream, so kube-graceful does not write it; it takes a pod that sets it as its
 * choice. The injector's cluster-wide defaults (Helm values of the consul chart: the lifecycle
 * port and path, the native default) are not in a Job's stream either: the defaults are assumed,
 * and a pod that names another path or several services is left alone with a warning.
 */
import { parseGoBool } from '../../core/goBool.ts';
import { annotationsOf } from '../../core/kubeObject.ts';
import type { PodTemplate } from '../../core/kubeObject.ts';
import { consulQuitEndpoint } from './wrapper.ts';
import type { SidecarQuit } from './sidecarQuit.ts';

export const CONSUL_INJECT = 'consul.hashicorp.com/connect-inject';
export const CONSUL_NATIVE = 'consul.hashicorp.com/enable-consul-dataplane-as-sidecar';
const CONSUL_GRACEFUL_PORT = 'consul.hashicorp.com/sidecar-proxy-lifecycle-graceful-port';
const CONSUL_SHUTDOWN_PATH = 'consul.hashicorp.com/sidecar-proxy-lifecycle-graceful-shutdown-path';
const CONSUL_SERVICE = 'consul.hashicorp.com/connect-service';

const CONSUL_SHUTDOWN_GRACE =
  'consul.hashicorp.com/sidecar-proxy-lifecycle-shutdown-grace-period-seconds';

/**
 * The consul chart's default shutdown grace period, used where the injector's proxy lifecycle is
 * on, its default (charts/consul/values.yaml@v1.9.11 connectInject.sidecarProxy.lifecycle
 * defaultEnabled, defaultShutdownGracePeriodSeconds); with it off consul-dataplane's own 0
 * applies (cmd/consul-dataplane/config.go@v1.9.9).
 */
const CHART_SHUTDOWN_GRACE_SECONDS = 30;

/**
 * How long consul-dataplane waits after the graceful-shutdown call before it quits Envoy and
 * exits (pkg/consuldp/lifecycle.go@v1.9.9 gracefulShutdown): the pod's annotation (ParseUint,
 * lifecycle_configuration.go@v1.9.11 ShutdownGracePeriodSeconds), else the chart's default.
 */
export function consulShutdownGrace(template: PodTemplate): { seconds: number; source: string } {
  const text = annotationsOf(template.metadata)[CONSUL_SHUTDOWN_GRACE];
  if (text !== undefined && /^\d+$/.test(text))
    return { seconds: Number(text), source: `${CONSUL_SHUTDOWN_GRACE}: "${text}"` };
  return {
    seconds: CHART_SHUTDOWN_GRACE_SECONDS,
    source: "the consul chart's default, with the injector's proxy lifecycle on (its default)",
  };
}

/** The container the injector adds (mesh_webhook.go@v1.9.11 sidecarContainer). */
export const CONSUL_DATAPLANE = 'consul-dataplane';

/** What the pod template asks of the Consul connect injector. */
export interface ConsulSidecar {
  /** The injector adds consul-dataplane. */
  readonly injected: boolean;
  /** The pod asks for it as a native sidecar (consul-k8s v1.9.0+). */
  readonly native: boolean;
  /** How the wrapper ends it, or why it cannot. */
  readonly quit?: SidecarQuit | { readonly problem: string };
}

/** Returns what the pod template asks of the Consul connect injector. */
export function consulSidecarOf(template: PodTemplate): ConsulSidecar {
  const annotations = annotationsOf(template.metadata);
  const injected = parseGoBool(annotations[CONSUL_INJECT]) === true;
  const native = parseGoBool(annotations[CONSUL_NATIVE]) === true;
  if (!injected || native) return { injected, native };
  return { injected, native, quit: consulQuit(annotations) };
}

function consulQuit(
  annotations: Readonly<Record<string, string>>,
): SidecarQuit | { readonly problem: string } {
  const path = annotations[CONSUL_SHUTDOWN_PATH];
  if (path !== undefined && path !== '' && path !== '/graceful_shutdown')
    return {
      problem:
        `${CONSUL_SHUTDOWN_PATH}: ${JSON.stringify(path)} moves the graceful-shutdown endpoint ` +
        `only where the injector's proxy lifecycle is on (a Helm default this input does not ` +
        `show), so which path consul-dataplane serves is not known`,
    };
  if ((annotations[CONSUL_SERVICE] ?? '').includes(','))
    return {
      problem:
        `${CONSUL_SERVICE} names several services: the injector adds one dataplane per ` +
        `service, each on its own port (consul_dataplane_sidecar.go@v1.9.11), which ` +
        `kube-graceful does not model`,
    };
  const portText = annotations[CONSUL_GRACEFUL_PORT];
  const port = portText === undefined || portText === '' ? undefined : Number(portText);
  if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535))
    return { problem: `${CONSUL_GRACEFUL_PORT}: ${JSON.stringify(portText)} is not a port` };
  return { name: CONSUL_DATAPLANE, endpoint: consulQuitEndpoint(port), changes: [] };
}
