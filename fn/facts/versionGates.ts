/**
 * The versions from which Kubernetes, Istio and Linkerd behave a way kube-graceful relies on, as
 * data: the one home of each threshold. The decisions (fn/workloads, fn/mutators), the written
 * pod's checks (fn/compat/checks.ts) and the compatibility table's text (fn/compat/table.ts) all
 * read them here, so a threshold moved after reading a new release moves everywhere at once. A
 * product only one mutator plans (Contour, Kong, Envoy Gateway…) keeps its gates in that mutator's
 * folder, as `VersionGate`s its decision and its compatibility rows both read.
 *
 * The Kubernetes version compared with a gate is the **oldest kubelet's** (issue #13): render time
 * cannot see the nodes, and kubelets may lag the API server by three minors, so a pod feature is
 * used only where that kubelet has it on by default.
 */
import { atLeast } from '../core/versions.ts';

/** The first version of a product with a behaviour, and where that was read. */
export interface VersionGate {
  /** The product, as the compatibility table names it (`Istio`, `Contour`). */
  readonly product: string;
  /** The first version with the behaviour (`X.Y`). */
  readonly since: string;
  /** Where it was read: upstream file@tag, or the KEP. */
  readonly source: string;
}

/** Returns true when `version` has the gate's behaviour (it is `since` or later). */
export function reached(gate: VersionGate, version: string): boolean {
  return atLeast(version, gate.since);
}

export const KUBERNETES = {
  /** SidecarContainers: alpha (off) 1.28, beta and on by default 1.29, GA 1.33 (KEP-753). */
  nativeSidecars: {
    product: 'Kubernetes',
    since: '1.29',
    source: 'kubernetes pkg/features/kube_features.go@v1.35.0 (SidecarContainers), KEP-753',
  },
  /**
   * `preStop.sleep`, PodLifecycleSleepAction: alpha (off) 1.29, beta and on by default 1.30, GA
   * 1.34 (KEP-3960). A kubelet with the gate off returns without sleeping.
   */
  sleepAction: {
    product: 'Kubernetes',
    since: '1.30',
    source: 'kubernetes pkg/features/kube_features.go@v1.35.0 (PodLifecycleSleepAction), KEP-3960',
  },
  /** `sleep.seconds: 0`, PodLifecycleSleepActionAllowZero: on by default from 1.33 (KEP-4818). */
  sleepZero: {
    product: 'Kubernetes',
    since: '1.33',
    source:
      'kubernetes pkg/features/kube_features.go@v1.35.0 (PodLifecycleSleepActionAllowZero), ' +
      'KEP-4818',
  },
  /**
   * ProxyTerminatingEndpoints: kube-proxy forwards to a terminating endpoint that still passes
   * readiness ("serving") when no ready one is left (for externalTrafficPolicy Local, the node's);
   * alpha (off) 1.22, beta and on by default 1.26 (KEP-1669). Before, a terminating pod gets
   * nothing through kube-proxy.
   */
  proxyTerminatingEndpoints: {
    product: 'Kubernetes',
    since: '1.26',
    source:
      'kubernetes/enhancements keps/sig-network/1669-proxy-terminating-endpoints/kep.yaml ' +
      '(beta v1.26), KEP-1669; kubernetes pkg/proxy/topology.go (CategorizeEndpoints)',
  },
} as const satisfies Record<string, VersionGate>;

export const ISTIO = {
  /** TERMINATION_DRAIN_DURATION_SECONDS is read no more (last registered @1.9.9). */
  terminationDrainSecondsRemoved: {
    product: 'Istio',
    since: '1.10',
    source: 'istio pilot/pkg/features/pilot.go@1.9.9 (absent @1.10.6)',
  },
  /** EXIT_ON_ZERO_ACTIVE_CONNECTIONS and MINIMUM_DRAIN_DURATION exist. */
  exitOnZero: {
    product: 'Istio',
    since: '1.12',
    source: 'istio pilot/cmd/pilot-agent/options/options.go@1.12.9 (absent @1.11.8)',
  },
  /**
   * parentShutdownDuration is reserved: validation reads only drainDuration
   * (pkg/config/validation/validation.go@1.17.0 ValidateDrainDuration) and pilot-agent no longer
   * passes --parent-shutdown-time-s to Envoy (pkg/envoy/proxy.go@1.17.0).
   */
  parentShutdownIgnored: {
    product: 'Istio',
    since: '1.17',
    source: 'istio pkg/config/validation/validation.go@1.16.7 (last reader), @1.17.0',
  },
  /**
   * The per-pod `sidecar.istio.io/nativeSidecar` annotation, which takes precedence over istiod's
   * mesh-wide ENABLE_NATIVE_SIDECARS (1.19–1.23 have only the latter, which a pod cannot pin).
   */
  nativeAnnotation: {
    product: 'Istio',
    since: '1.24',
    source: 'istio pkg/kube/inject/inject.go@1.24.0 (absent @1.23.6)',
  },
  /**
   * ENABLE_NATIVE_SIDECARS defaults to auto: native when every node's kubelet is at least
   * `nativeAutoKubelet` (DetectNativeSidecar). Before, the setting is experimental.
   */
  nativeAuto: {
    product: 'Istio',
    since: '1.27',
    source: 'istio pilot/pkg/features/pilot.go@1.27.0, pkg/kube/inject/webhook.go@1.27.0',
  },
  /** The kubelet version every node must have for Istio's auto mode to choose native. */
  nativeAutoKubelet: {
    product: 'Kubernetes',
    since: '1.33',
    source: 'istio pkg/kube/inject/webhook.go@1.27.0 DetectNativeSidecar (minVersion 33)',
  },
  /** POST /quitquitquit exits without draining (s.disableDrain()). */
  quitSkipsDrain: {
    product: 'Istio',
    since: '1.26',
    source: 'istio pilot/cmd/pilot-agent/status/server.go@1.26.8 handleQuit, istio/istio#55424',
  },
} as const satisfies Record<string, VersionGate>;

/**
 * The Cloud SQL Auth Proxy v2, a sidecar of Jobs (job-sidecar-quit ends it) and of apps
 * (app-graceful keeps it up while the app serves).
 */
export const CLOUD_SQL_PROXY = {
  /** `--quitquitquit`: the admin server takes POST /quitquitquit and the proxy exits 0. */
  quitQuitQuit: {
    product: 'Cloud SQL Auth Proxy',
    since: '2.1.0',
    source: 'GoogleCloudPlatform/cloud-sql-proxy cmd/root.go, cmd/errors.go@v2.25.3',
  },
  /** `--min-sigterm-delay`: new connections accepted for that long after SIGTERM. */
  minSigtermDelay: {
    product: 'Cloud SQL Auth Proxy',
    since: '2.12.0',
    source: 'GoogleCloudPlatform/cloud-sql-proxy cmd/root.go@v2.12.0',
  },
} as const satisfies Record<string, VersionGate>;

export const KUMA = {
  /**
   * The control plane's `experimental.sidecarContainers` (KUMA_EXPERIMENTAL_SIDECAR_CONTAINERS):
   * kuma-sidecar injected as a native sidecar; absent at 2.6.0.
   */
  sidecarContainers: {
    product: 'Kuma',
    since: '2.7.0',
    source: 'kumahq/kuma pkg/config/app/kuma-cp/config.go@2.7.0',
  },
} as const satisfies Record<string, VersionGate>;

export const LINKERD = {
  /** linkerd-proxy's POST /shutdown on the admin port. */
  shutdownEndpoint: {
    product: 'Linkerd',
    since: '2.10',
    source:
      'https://github.com/linkerd/linkerd2/releases/tag/stable-2.10.0 ' +
      '("a new /shutdown admin endpoint")',
  },
  /** /shutdown refused unless `config.linkerd.io/proxy-admin-shutdown: enabled`. */
  adminShutdownOptIn: {
    product: 'Linkerd',
    since: '2.16',
    source:
      'linkerd2 charts/linkerd-control-plane/values.yaml@version-2.16 (enableShutdownEndpoint: ' +
      'false), pkg/k8s/labels.go@version-2.16',
  },
  /** `config.alpha.linkerd.io/proxy-enable-native-sidecar`, experimental in the chart. */
  nativeAlpha: {
    product: 'Linkerd',
    since: '2.15',
    source: 'linkerd2 pkg/k8s/labels.go@version-2.15',
  },
  /** `config.beta.linkerd.io/` added, the chart calls native sidecars beta. */
  nativeBeta: {
    product: 'Linkerd',
    since: '2.19',
    source: 'linkerd2 pkg/k8s/labels.go@version-2.19',
  },
  /** `config.linkerd.io/` added (the older two still read), and native is the chart's default. */
  nativeDefault: {
    product: 'Linkerd',
    since: '2.20',
    source:
      'linkerd2 pkg/k8s/labels.go@version-2.20, ' +
      'charts/linkerd-control-plane/values.yaml@version-2.20 (nativeSidecar: true)',
  },
} as const satisfies Record<string, VersionGate>;
