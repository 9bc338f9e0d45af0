/**
 * Every upstream constraint kube-graceful relies on, in one typed list: the setting, the versions
 * it holds for, what breaks outside them, and the upstream file@tag it was read from. Each row
 * whose breach shows in a written manifest carries a check (./checks.ts); docs/compatibility.md is
 * generated from this list (`npm run docs:compat`) and a test fails when it is stale.
 */
import * as check from './checks.ts';
import type { CheckedPod } from './pod.ts';

type Product = 'Kubernetes' | 'Istio' | 'Linkerd';

/** One upstream constraint. */
export interface Constraint {
  /** Stable id, used by tests and in docs anchors. */
  readonly id: string;
  readonly product: Product;
  /** The setting or behaviour the constraint is about. */
  readonly setting: string;
  /** The versions the constraint holds for, in words (`< 1.17`, `1.12+`). */
  readonly versions: string;
  /** What goes wrong when a manifest ignores it. */
  readonly breaks: string;
  /** Where it was read: upstream file@tag (or issue/KEP URL). */
  readonly sources: readonly string[];
  /** Returns why the written pod breaks the constraint, or undefined; absent when output cannot show it. */
  readonly check?: (pod: CheckedPod) => string | undefined;
  /** When there is no check: where it is enforced instead. */
  readonly enforcedBy?: string;
}

export const CONSTRAINTS: readonly Constraint[] = [
  // Kubernetes: the version the tool is told is the oldest kubelet's (nodes lag the API server).
  {
    id: 'k8s-native-sidecars',
    product: 'Kubernetes',
    setting: 'native sidecars (`initContainers[].restartPolicy: Always`, or a mesh annotation that makes one)',
    versions: 'on by default from 1.29 (alpha 1.28, GA 1.33)',
    breaks: 'an older kubelet runs the sidecar as an init container that never ends: the pod never starts',
    sources: ['kubernetes pkg/features/kube_features.go@v1.34.0 (SidecarContainers: 1.28 alpha, 1.29 beta on, 1.33 GA)', 'KEP-753'],
    check: check.nativeSidecarNeedsKubernetes,
  },
  {
    id: 'k8s-prestop-sleep-action',
    product: 'Kubernetes',
    setting: '`lifecycle.preStop.sleep`',
    versions: 'on by default from 1.30 (alpha 1.29, GA 1.34)',
    breaks: 'with the gate off the kubelet returns at once without sleeping, and the API server drops the field',
    sources: ['kubernetes pkg/features/kube_features.go@v1.34.0 (PodLifecycleSleepAction)', 'KEP-3960'],
    check: check.sleepActionNeedsKubernetes,
  },
  {
    id: 'k8s-prestop-sleep-zero',
    product: 'Kubernetes',
    setting: '`lifecycle.preStop.sleep.seconds: 0`',
    versions: 'allowed from 1.33 (alpha 1.32)',
    breaks: 'the API server rejects the pod ("must be greater than 0")',
    sources: ['kubernetes pkg/features/kube_features.go@v1.34.0 (PodLifecycleSleepActionAllowZero)', 'KEP-4818 (keps/sig-node/4818-allow-zero-value-sleep-action)'],
    check: check.sleepZeroNeedsKubernetes,
  },
  {
    id: 'k8s-prestop-sleep-within-grace',
    product: 'Kubernetes',
    setting: '`preStop.sleep.seconds` ≤ `terminationGracePeriodSeconds`',
    versions: 'every version with the sleep action',
    breaks: 'the API server rejects the pod ("must be … less than terminationGracePeriodSeconds")',
    sources: ['kubernetes pkg/apis/core/validation/validation.go validateSleepAction (quoted in KEP-4818)'],
    check: check.sleepWithinGrace,
  },
  // Istio
  {
    id: 'istio-drain-below-parent-shutdown',
    product: 'Istio',
    setting: '`drainDuration` < `parentShutdownDuration` (default 60 s)',
    versions: '< 1.17',
    breaks: 'the injector denies the pod and pilot-agent refuses the config',
    sources: ['istio pkg/config/validation/validation.go@1.16.7 ValidateParentAndDrain'],
    check: check.drainBelowParentShutdown,
  },
  {
    id: 'istio-parent-shutdown-ignored',
    product: 'Istio',
    setting: '`parentShutdownDuration`',
    versions: 'read only < 1.17',
    breaks: 'from 1.17 nothing reads it: a written value is a setting that does nothing',
    sources: ['istio pkg/ and pilot/@1.17.8: no reader of parentShutdownDuration left (validation.go@1.16.7 was the last)'],
    check: check.parentShutdownOnlyBefore117,
  },
  {
    id: 'istio-exit-on-zero',
    product: 'Istio',
    setting: '`EXIT_ON_ZERO_ACTIVE_CONNECTIONS`, `MINIMUM_DRAIN_DURATION`',
    versions: '1.12+',
    breaks: 'older pilot-agents ignore them: the proxy leaves after terminationDrainDuration (5 s)',
    sources: ['istio pilot/cmd/pilot-agent/options/options.go@1.12.9 (absent @1.11.8)'],
    check: check.exitOnZeroNeedsIstio,
  },
  {
    id: 'istio-minimum-drain-go-duration',
    product: 'Istio',
    setting: '`MINIMUM_DRAIN_DURATION` is a Go duration (`"30s"`)',
    versions: '1.12+',
    breaks: 'a bare number fails to parse and the 5 s default is used',
    sources: ['istio pilot/cmd/pilot-agent/options/options.go@1.12.9 (env.RegisterDurationVar)'],
    check: check.minimumDrainIsGoDuration,
  },
  {
    id: 'istio-termination-drain-seconds-removed',
    product: 'Istio',
    setting: '`TERMINATION_DRAIN_DURATION_SECONDS` env',
    versions: 'read only < 1.10',
    breaks: 'ignored from 1.10: the proxy leaves after 5 s',
    sources: ['istio pilot/pkg/features/pilot.go@1.9.9 (last tag that registers it; absent @1.10.6)'],
    check: check.noTerminationDrainSeconds,
  },
  {
    id: 'istio-proxy-metadata-at-injection',
    product: 'Istio',
    setting: '`proxyMetadata` in `proxy.istio.io/config`',
    versions: 'every version',
    breaks: 'becomes istio-proxy env only when the injector renders the pod; on a pod injected at render time (`istioctl kube-inject`) it does nothing: set the env on istio-proxy',
    sources: ['istio manifests/charts/istio-control/istio-discovery/files/injection-template.yaml@1.28.10 (range .ProxyConfig.ProxyMetadata → env)'],
    check: check.proxyMetadataNeedsInjection,
  },
  {
    id: 'istio-proxy-config-precedence',
    product: 'Istio',
    setting: '`PROXY_CONFIG` env and `proxy.istio.io/config` annotation',
    versions: 'every version',
    breaks: 'pilot-agent applies the mesh config, then PROXY_CONFIG, then the annotation (read from the downward-API file): a field in the annotation wins over PROXY_CONFIG',
    sources: ['istio pilot/cmd/pilot-agent/config/config.go@1.28.10 getMeshConfig'],
    enforcedBy: 'the checks read ProxyConfig in that order (fn/compat/pod.ts proxyConfig)',
  },
  {
    id: 'istio-native-annotation',
    product: 'Istio',
    setting: '`sidecar.istio.io/nativeSidecar` pod annotation',
    versions: '1.24+',
    breaks: 'older injecters ignore it: the sidecar stays classic',
    sources: ['istio pkg/kube/inject/inject.go@1.24.6 (annotation takes precedence over the global flag); absent @1.23.6'],
    check: check.istioNativeAnnotationNeedsIstio,
  },
  {
    id: 'istio-auto-native',
    product: 'Istio',
    setting: 'native sidecar by default for apps and gateways (`sidecar-mode auto`)',
    versions: 'Istio 1.27+ with every kubelet ≥ 1.33',
    breaks: 'pinning native where the mesh would not choose it runs a mode both meshes call experimental (Istio 1.24–1.26) on kubelets Istio itself does not trust',
    sources: ['istio pkg/kube/inject/webhook.go@1.27.9 DetectNativeSidecar (minVersion 33, every node)', 'issue #13 item 2'],
    check: check.istioAutoNativeOnlyWhereIstioWould,
  },
  {
    id: 'istio-quitquitquit-drain',
    product: 'Istio',
    setting: '`POST :15020/quitquitquit`',
    versions: 'exits without draining from 1.26; before, it drains first (1.12–1.20: SIGTERM to itself; 1.21–1.25: cancels the agent)',
    breaks: 'before 1.26 a Job completes only after terminationDrainDuration (or MINIMUM_DRAIN_DURATION with exit-on-zero)',
    sources: ['istio pilot/cmd/pilot-agent/status/server.go@1.26.8 handleQuit (s.disableDrain()); @1.25.5 and @1.21.6 s.shutdown() without it; @1.20.8 notifyExit (SIGTERM to self)', 'istio/istio#55424'],
    enforcedBy: "the matrix test's timeline agreement (test/compat/matrix.test.ts)",
  },
  {
    id: 'istio-no-quit-native',
    product: 'Istio',
    setting: 'quitquitquit on a native sidecar',
    versions: 'every version',
    breaks: 'a native sidecar that exits is restarted by the kubelet (restartPolicy: Always)',
    sources: ['KEP-753 (sidecar containers restart)'],
    check: check.noQuitOnNativeSidecar,
  },
  {
    id: 'istio-ignored-namespaces',
    product: 'Istio',
    setting: 'sidecar injection in `kube-system`, `kube-public`, `kube-node-lease`, `local-path-storage`',
    versions: 'every version',
    breaks: 'Istio never injects there: Istio settings on those pods do nothing',
    sources: ['istio pkg/kube/inject/initializer.go@1.24.6 IgnoredNamespaces'],
    check: check.noIstioSettingsInIgnoredNamespaces,
  },
  {
    id: 'istio-no-lifecycle-on-sidecar',
    product: 'Istio',
    setting: '`lifecycle` on istio-proxy in sidecar pods',
    versions: 'every version',
    breaks: 'an exec preStop replaces Istio\'s native drain hook (`pilot-agent request POST drain`); a sleep preStop merges into a hook with two handlers, which the API server rejects',
    sources: ['istio manifests/charts/istio-control/istio-discovery/files/injection-template.yaml@1.28.10 (native preStop)'],
    check: check.noLifecycleOnSidecarProxy,
  },
  {
    id: 'istio-ambient-no-sidecar',
    product: 'Istio',
    setting: 'ambient mode (`istio.io/dataplane-mode: ambient` on the namespace or pod; pod `none` opts out; a sidecar wins)',
    versions: '1.24+ (ambient GA)',
    breaks: 'no istio-proxy in the pod: sidecar settings do nothing; ztunnel (and a waypoint) carry the traffic',
    sources: ['istio cni/pkg/util/podutil.go@1.24.6 PodRedirectionEnabled'],
    check: check.noSidecarSettingsInAmbient,
  },
  // Linkerd
  {
    id: 'linkerd-native-annotation-name',
    product: 'Linkerd',
    setting: '`proxy-enable-native-sidecar` annotation prefix',
    versions: '`config.alpha.linkerd.io/` 2.15–2.18; 2.19 adds `config.beta.linkerd.io/`; 2.20 adds `config.linkerd.io/`',
    breaks: 'a prefix the version does not read is ignored: the sidecar stays classic',
    sources: ['linkerd2 pkg/k8s/labels.go@version-2.15, @version-2.19, @version-2.20'],
    check: check.linkerdNativeAnnotationRead,
  },
  {
    id: 'linkerd-auto-native',
    product: 'Linkerd',
    setting: 'native sidecar by default for apps (`sidecar-mode auto`)',
    versions: 'Linkerd 2.20+ (`proxy.nativeSidecar: true`), on Kubernetes 1.29+',
    breaks: 'pinning native where Linkerd would not choose it runs a mode Linkerd calls alpha/beta before 2.20',
    sources: ['linkerd2 charts/linkerd-control-plane/values.yaml@version-2.20 (nativeSidecar: true; false @version-2.19, "a beta feature")', 'issue #13 item 2'],
    check: check.linkerdAutoNativeOnlyWhereLinkerdWould,
  },
  {
    id: 'linkerd-native-and-wait',
    product: 'Linkerd',
    setting: 'native sidecar with `proxy-wait-before-exit-seconds`',
    versions: '2.15+',
    breaks: 'the injector fails ("proxy.nativeSidecar and waitBeforeExitSeconds cannot be used simultaneously")',
    sources: ['linkerd2 charts/partials/templates/_proxy.tpl@version-2.18'],
    check: check.linkerdNativeWithoutWait,
  },
  {
    id: 'linkerd-wait-below-grace',
    product: 'Linkerd',
    setting: '`config.alpha.linkerd.io/proxy-wait-before-exit-seconds` < `terminationGracePeriodSeconds`',
    versions: 'every version (the annotation is a preStop sleep on linkerd-proxy)',
    breaks: 'the sleep is cut at the grace deadline: linkerd-proxy is killed together with the app',
    sources: ['linkerd2 charts/partials/templates/_proxy.tpl@version-2.18 (waitBeforeExitSeconds → preStop sleep)', 'Kubernetes: preStop counts against the grace period'],
    check: check.linkerdWaitBelowGrace,
  },
  {
    id: 'linkerd-admin-shutdown',
    product: 'Linkerd',
    setting: '`POST :4191/shutdown` needs `config.linkerd.io/proxy-admin-shutdown: enabled`',
    versions: 'off by default from 2.16',
    breaks: 'the quit call is refused and the Job never completes',
    sources: ['linkerd2 charts/linkerd-control-plane/values.yaml@version-2.16 (enableShutdownEndpoint: false)', 'linkerd2 pkg/k8s/labels.go@version-2.16 (ProxyAdminShutdownAnnotation)'],
    check: check.linkerdShutdownEnabled,
  },
];
