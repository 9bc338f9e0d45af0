/**
 * The upstream constraints no single mutator owns, in one typed list: Kubernetes, the meshes, the
 * load balancers and node lifecycles, Helm, the sidecars of Jobs. Each row gives the setting, the
 * versions it holds for, what breaks outside them, and the upstream file@tag it was read from;
 * each whose breach shows in a written manifest carries a check (./checks.ts). A mutator's own
 * rows are in its folder (`compatibility.ts`); fn/mutators/compatibility.ts joins both into the
 * table, from which docs/compatibility.md is generated (`npm run docs:compat`; a test fails when
 * it is stale).
 */
import * as check from './checks.ts';
import type { Constraint } from './constraint.ts';
import { CLOUD_SQL_PROXY, ISTIO, KUBERNETES, KUMA, LINKERD } from '../facts/versionGates.ts';

export const PLATFORM_CONSTRAINTS: readonly Constraint[] = [
  // Kubernetes: the version the tool is told is the oldest kubelet's (nodes lag the API server).
  {
    id: 'k8s-native-sidecars',
    product: 'Kubernetes',
    setting:
      'native sidecars (`initContainers[].restartPolicy: Always`, ' +
      'or a mesh annotation that makes one)',
    versions: `on by default from ${KUBERNETES.nativeSidecars.since} (alpha 1.28, GA 1.33)`,
    breaks:
      'an older kubelet runs the sidecar as an init container that never ends: ' +
      'the pod never starts',
    sources: [
      'kubernetes pkg/features/kube_features.go@v1.34.0 (SidecarContainers: 1.28 alpha, ' +
        '1.29 beta on, 1.33 GA)',
      'KEP-753',
    ],
    check: check.nativeSidecarNeedsKubernetes,
  },
  {
    id: 'k8s-prestop-sleep-action',
    product: 'Kubernetes',
    setting: '`lifecycle.preStop.sleep`',
    versions: `on by default from ${KUBERNETES.sleepAction.since} (alpha 1.29, GA 1.34)`,
    breaks:
      'with the gate off the kubelet returns at once without sleeping, ' +
      'and the API server drops the field',
    sources: [
      'kubernetes pkg/features/kube_features.go@v1.34.0 (PodLifecycleSleepAction)',
      'KEP-3960',
    ],
    check: check.sleepActionNeedsKubernetes,
  },
  {
    id: 'k8s-prestop-sleep-zero',
    product: 'Kubernetes',
    setting: '`lifecycle.preStop.sleep.seconds: 0`',
    versions: `allowed from ${KUBERNETES.sleepZero.since} (alpha 1.32)`,
    breaks: 'the API server rejects the pod ("must be greater than 0")',
    sources: [
      'kubernetes pkg/features/kube_features.go@v1.34.0 (PodLifecycleSleepActionAllowZero)',
      'KEP-4818 (keps/sig-node/4818-allow-zero-value-sleep-action)',
    ],
    check: check.sleepZeroNeedsKubernetes,
  },
  {
    id: 'k8s-prestop-sleep-within-grace',
    product: 'Kubernetes',
    setting: '`preStop.sleep.seconds` ≤ `terminationGracePeriodSeconds`',
    versions: 'every version with the sleep action',
    breaks: 'the API server rejects the pod ("must be … less than terminationGracePeriodSeconds")',
    sources: [
      'kubernetes pkg/apis/core/validation/validation.go validateSleepAction (quoted in KEP-4818)',
    ],
    check: check.sleepWithinGrace,
  },
  {
    id: 'k8s-mutating-admission-after-render',
    product: 'Kubernetes',
    setting:
      'a mutating admission policy that names `terminationGracePeriodSeconds` or `lifecycle` ' +
      "(the Kyverno library's `mutate-large-termination-gps` writes 50 s over any grace above it)",
    versions: 'every version (policies run when the pods are admitted, after rendering)',
    breaks:
      'the grace period and hooks written at render time are rewritten in the cluster; ' +
      'a preStop sleep longer than the grace left is rejected',
    sources: [
      'https://github.com/kyverno/policies/blob/b9c4317ce02256dc66118e08bb3e9345e7bfce5c/' +
        'other/mutate-large-termination-gps/mutate-large-termination-gps.yaml (ClusterPolicy; ' +
        'its MutatingPolicy twin under other-mpol/)',
    ],
    enforcedBy:
      'an ADMISSION_UNDOES_PLAN error when such a policy is in the stream ' +
      '(fn/engine/admissionCheck.ts; test/engine/admission-policies.test.ts)',
  },
  {
    id: 'k8s-local-serving-terminating',
    product: 'Kubernetes',
    setting:
      'with `externalTrafficPolicy: Local`, a node forwards to its terminating pods only while ' +
      'they pass readiness ("serving"), and its health check node port fails as soon as none is ' +
      'ready',
    versions:
      `${KUBERNETES.proxyTerminatingEndpoints.since}+ (ProxyTerminatingEndpoints on by ` +
      'default); before, terminating pods get nothing',
    breaks:
      'behind a load balancer whose targets are the nodes, a pod that fails readiness while the ' +
      'load balancer still sends has those connections dropped',
    sources: [
      KUBERNETES.proxyTerminatingEndpoints.source,
      'kubernetes pkg/proxy/endpointschangetracker.go (LocalReadyEndpoints: ready endpoints only ' +
        'for the health check)',
    ],
    enforcedBy:
      "contour-drain raises Contour's --drain-delay to W there (fn/mutators/contour/decide.ts " +
      'coveringDelays), gateway-drain takes sleep mode (fn/mutators/gateway/index.ts ' +
      'modeForNodeTargets), envoy-gateway sets healthCheckFailureDelay = W on v1.9.0+ ' +
      '(fn/mutators/envoy-gateway/readiness.ts), istio-gateway-api and ingress-nginx-drain ' +
      "draw their probe's hold and warn where it falls short " +
      '(fn/mutators/shared/nodeLocalReadiness.ts), and explain draws each ' +
      '(test/mutators/*/node-local.test.ts, test/mutators/contour/wired.test.ts, ' +
      'test/mutators/gateway/gateway-drain.test.ts); elsewhere explain says the outcome is ' +
      'unknown (fn/timing/loadBalancerTable.ts unknownDrainWindow)',
  },
  // Istio
  {
    id: 'istio-drain-below-parent-shutdown',
    product: 'Istio',
    setting: '`drainDuration` < `parentShutdownDuration` (default 60 s)',
    versions: `< ${ISTIO.parentShutdownIgnored.since}`,
    breaks: 'the injector denies the pod and pilot-agent refuses the config',
    sources: ['istio pkg/config/validation/validation.go@1.16.7 ValidateParentAndDrain'],
    check: check.drainBelowParentShutdown,
  },
  {
    id: 'istio-parent-shutdown-ignored',
    product: 'Istio',
    setting: '`parentShutdownDuration`',
    versions: `read only < ${ISTIO.parentShutdownIgnored.since}`,
    breaks: 'from 1.17 nothing reads it: a written value is a setting that does nothing',
    sources: [
      'istio pkg/ and pilot/@1.17.8: no reader of parentShutdownDuration left ' +
        '(validation.go@1.16.7 was the last)',
    ],
    check: check.parentShutdownOnlyBefore117,
  },
  {
    id: 'istio-exit-on-zero',
    product: 'Istio',
    setting: '`EXIT_ON_ZERO_ACTIVE_CONNECTIONS`, `MINIMUM_DRAIN_DURATION`',
    versions: `${ISTIO.exitOnZero.since}+`,
    breaks: 'older pilot-agents ignore them: the proxy leaves after terminationDrainDuration (5 s)',
    sources: ['istio pilot/cmd/pilot-agent/options/options.go@1.12.9 (absent @1.11.8)'],
    check: check.exitOnZeroNeedsIstio,
  },
  {
    id: 'istio-minimum-drain-go-duration',
    product: 'Istio',
    setting: '`MINIMUM_DRAIN_DURATION` is a Go duration (`"30s"`)',
    versions: `${ISTIO.exitOnZero.since}+`,
    breaks: 'a bare number fails to parse and the 5 s default is used',
    sources: ['istio pilot/cmd/pilot-agent/options/options.go@1.12.9 (env.RegisterDurationVar)'],
    check: check.minimumDrainIsGoDuration,
  },
  {
    id: 'istio-termination-drain-seconds-removed',
    product: 'Istio',
    setting: '`TERMINATION_DRAIN_DURATION_SECONDS` env',
    versions: `read only < ${ISTIO.terminationDrainSecondsRemoved.since}`,
    breaks: 'ignored from 1.10: the proxy leaves after 5 s',
    sources: [
      'istio pilot/pkg/features/pilot.go@1.9.9 (last tag that registers it; absent @1.10.6)',
    ],
    check: check.noTerminationDrainSeconds,
  },
  {
    id: 'istio-proxy-metadata-at-injection',
    product: 'Istio',
    setting: '`proxyMetadata` in `proxy.istio.io/config`',
    versions: 'every version',
    breaks:
      'becomes istio-proxy env only when the injector renders the pod; ' +
      'on a pod injected at render time (`istioctl kube-inject`) it does nothing: ' +
      'set the env on istio-proxy',
    sources: [
      'istio manifests/charts/istio-control/istio-discovery/files/' +
        'injection-template.yaml@1.28.10 (range .ProxyConfig.ProxyMetadata → env)',
    ],
    check: check.proxyMetadataNeedsInjection,
  },
  {
    id: 'istio-proxy-config-precedence',
    product: 'Istio',
    setting: '`PROXY_CONFIG` env and `proxy.istio.io/config` annotation',
    versions: 'every version',
    breaks:
      'pilot-agent applies the mesh config, then PROXY_CONFIG, ' +
      'then the annotation (read from the downward-API file): ' +
      'a field in the annotation wins over PROXY_CONFIG',
    sources: ['istio pilot/cmd/pilot-agent/config/config.go@1.28.10 getMeshConfig'],
    enforcedBy: 'the checks read ProxyConfig in that order (fn/compat/pod.ts proxyConfig)',
  },
  {
    id: 'istio-native-annotation',
    product: 'Istio',
    setting: '`sidecar.istio.io/nativeSidecar` pod annotation',
    versions: `${ISTIO.nativeAnnotation.since}+`,
    breaks: 'older injecters ignore it: the sidecar stays classic',
    sources: [
      'istio pkg/kube/inject/inject.go@1.24.6 (annotation takes precedence over the global ' +
        'flag); absent @1.23.6',
    ],
    check: check.istioNativeAnnotationNeedsIstio,
  },
  {
    id: 'istio-auto-native',
    product: 'Istio',
    setting: 'native sidecar by default for apps and gateways (`sidecar-mode auto`)',
    versions:
      `Istio ${ISTIO.nativeAuto.since}+ ` + `with every kubelet ≥ ${ISTIO.nativeAutoKubelet.since}`,
    breaks:
      'pinning native where the mesh would not choose it runs a mode both meshes call ' +
      'experimental (Istio 1.24–1.26) on kubelets Istio itself does not trust',
    sources: [
      'istio pkg/kube/inject/webhook.go@1.27.9 DetectNativeSidecar (minVersion 33, every node)',
      'issue #13 item 2',
    ],
    check: check.istioAutoNativeOnlyWhereIstioWould,
  },
  {
    id: 'istio-quitquitquit-drain',
    product: 'Istio',
    setting: '`POST :15020/quitquitquit`',
    versions:
      `exits without draining from ${ISTIO.quitSkipsDrain.since}; ` +
      'before, it drains first (1.12–1.20: ' +
      'SIGTERM to itself; 1.21–1.25: cancels the agent)',
    breaks:
      'before 1.26 a Job completes only after terminationDrainDuration (or ' +
      'MINIMUM_DRAIN_DURATION with exit-on-zero)',
    sources: [
      'istio pilot/cmd/pilot-agent/status/server.go@1.26.8 handleQuit (s.disableDrain()); ' +
        '@1.25.5 and @1.21.6 s.shutdown() without it; @1.20.8 notifyExit (SIGTERM to self)',
      'istio/istio#55424',
    ],
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
    setting:
      'sidecar injection in `kube-system`, `kube-public`, `kube-node-lease`, `local-path-storage`',
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
    breaks:
      "an exec preStop replaces Istio's native drain hook (`pilot-agent request POST " +
      'drain`); a sleep preStop merges into a hook with two handlers, ' +
      'which the API server rejects',
    sources: [
      'istio manifests/charts/istio-control/istio-discovery/files/' +
        'injection-template.yaml@1.28.10 (native preStop)',
    ],
    check: check.noLifecycleOnSidecarProxy,
  },
  {
    id: 'istio-ambient-no-sidecar',
    product: 'Istio',
    setting:
      'ambient mode (`istio.io/dataplane-mode: ambient` on the namespace or pod; ' +
      'pod `none` opts out; a sidecar wins)',
    versions: '1.24+ (ambient GA)',
    breaks:
      'no istio-proxy in the pod: sidecar settings do nothing; ' +
      'ztunnel (and a waypoint) carry the traffic',
    sources: ['istio cni/pkg/util/podutil.go@1.24.6 PodRedirectionEnabled'],
    check: check.noSidecarSettingsInAmbient,
  },
  {
    id: 'istio-agent-readiness-at-sigterm',
    product: 'Istio',
    setting:
      "pilot-agent's readiness (`/healthz/ready`) fails from SIGTERM on; the kube-gateway " +
      'template probes it every 15 s, failure threshold 4',
    versions: '1.22–1.30',
    breaks:
      'behind node targets with `externalTrafficPolicy: Local` the node stops forwarding to a ' +
      'terminating gateway pod 45 s after SIGTERM at the earliest, before a longer W ends',
    sources: [
      'istio pilot/cmd/pilot-agent/status/ready/probe.go@1.22.8 and @1.30.3 (isEnvoyReady)',
      'istio pilot/cmd/pilot-agent/app/cmd.go@1.26.8 (WaitSignalFunc cancels the context)',
      'istio manifests/charts/istio-control/istio-discovery/files/kube-gateway.yaml@1.22.8 and ' +
        '@1.30.3 (readinessProbe)',
    ],
    enforcedBy:
      'istio-gateway-api: explain draws it and ISTIO_GATEWAY_API_NODE_LOCAL names the threshold ' +
      '(fn/mutators/istio-gateway-api/nodeLocal.ts; ' +
      'test/mutators/istio-gateway-api/node-local.test.ts)',
  },
  // Linkerd
  {
    id: 'linkerd-native-annotation-name',
    product: 'Linkerd',
    setting: '`proxy-enable-native-sidecar` annotation prefix',
    versions:
      `\`config.alpha.linkerd.io/\` ${LINKERD.nativeAlpha.since}–2.18; ` +
      `${LINKERD.nativeBeta.since} adds \`config.beta.linkerd.io/\`; ` +
      `${LINKERD.nativeDefault.since} adds \`config.linkerd.io/\``,
    breaks: 'a prefix the version does not read is ignored: the sidecar stays classic',
    sources: ['linkerd2 pkg/k8s/labels.go@version-2.15, @version-2.19, @version-2.20'],
    check: check.linkerdNativeAnnotationRead,
  },
  {
    id: 'linkerd-auto-native',
    product: 'Linkerd',
    setting: 'native sidecar by default for apps (`sidecar-mode auto`)',
    versions:
      `Linkerd ${LINKERD.nativeDefault.since}+ (\`proxy.nativeSidecar: true\`), ` +
      `on Kubernetes ${KUBERNETES.nativeSidecars.since}+`,
    breaks:
      'pinning native where Linkerd would not choose it runs a mode Linkerd calls alpha/beta ' +
      'before 2.20',
    sources: [
      'linkerd2 charts/linkerd-control-plane/values.yaml@version-2.20 (nativeSidecar: true; ' +
        'false @version-2.19, "a beta feature")',
      'issue #13 item 2',
    ],
    check: check.linkerdAutoNativeOnlyWhereLinkerdWould,
  },
  {
    id: 'linkerd-native-and-wait',
    product: 'Linkerd',
    setting: 'native sidecar with `proxy-wait-before-exit-seconds`',
    versions: `${LINKERD.nativeAlpha.since}+`,
    breaks:
      'the injector fails ("proxy.nativeSidecar and waitBeforeExitSeconds cannot be used ' +
      'simultaneously")',
    sources: ['linkerd2 charts/partials/templates/_proxy.tpl@version-2.18'],
    check: check.linkerdNativeWithoutWait,
  },
  {
    id: 'linkerd-wait-below-grace',
    product: 'Linkerd',
    setting:
      '`config.alpha.linkerd.io/proxy-wait-before-exit-seconds` < `terminationGracePeriodSeconds`',
    versions: 'every version (the annotation is a preStop sleep on linkerd-proxy)',
    breaks: 'the sleep is cut at the grace deadline: linkerd-proxy is killed together with the app',
    sources: [
      'linkerd2 charts/partials/templates/_proxy.tpl@version-2.18 (waitBeforeExitSeconds → ' +
        'preStop sleep)',
      'Kubernetes: preStop counts against the grace period',
    ],
    check: check.linkerdWaitBelowGrace,
  },
  {
    id: 'linkerd-admin-shutdown',
    product: 'Linkerd',
    setting: '`POST :4191/shutdown` needs `config.linkerd.io/proxy-admin-shutdown: enabled`',
    versions: `off by default from ${LINKERD.adminShutdownOptIn.since}`,
    breaks: 'the quit call is refused and the Job never completes',
    sources: [
      'linkerd2 charts/linkerd-control-plane/values.yaml@version-2.16 ' +
        '(enableShutdownEndpoint: false)',
      'linkerd2 pkg/k8s/labels.go@version-2.16 (ProxyAdminShutdownAnnotation)',
    ],
    check: check.linkerdShutdownEnabled,
  },
  {
    id: 'linkerd-shutdown-grace-period',
    product: 'Linkerd',
    setting:
      '`config.linkerd.io/shutdown-grace-period` (LINKERD2_PROXY_SHUTDOWN_GRACE_PERIOD): how ' +
      'long linkerd-proxy waits for open connections after its SIGTERM before it closes them; ' +
      '120 s when unset',
    versions: `${LINKERD.nativeAlpha.since} … 2.20 (the annotation); the proxy's default`,
    breaks:
      'a proxy that gets SIGTERM while its pod still serves cuts what is open after the cap, ' +
      'whatever the grace period',
    sources: [
      'linkerd2 pkg/k8s/labels.go@version-2.15, @version-2.20 ' +
        '(ProxyShutdownGracePeriodAnnotation), pkg/inject/inject.go@version-2.18',
      'linkerd2-proxy linkerd/app/src/env.rs@00ce7f5 (DEFAULT_SHUTDOWN_GRACE_PERIOD: 2 min)',
    ],
    enforcedBy:
      'never binds in the plans kube-graceful writes: a classic proxy gets SIGTERM only after ' +
      'proxy-wait-before-exit-seconds = S + R, when the workload is done, and a native one after ' +
      'the app has exited (fn/mutators/app/linkerdSidecar.ts; ' +
      'test/mutators/traefik/mesh.test.ts, G = 205 s past the 120 s)',
  },
  // AWS Load Balancer Controller: how it builds an NLB's target groups from a Service
  {
    id: 'lbc-port-target-group-attributes',
    product: 'AWS Load Balancer Controller',
    setting:
      '`service.beta.kubernetes.io/aws-load-balancer-target-group-attributes.<port>` laid over ' +
      "the Service-wide attributes, entry by entry, for that port's target group",
    versions: 'v2.14.0+ (ignored before)',
    breaks:
      'a port whose own deregistration delay is shorter than the drain cuts requests in flight ' +
      'while the Service-wide value says it would not',
    sources: [
      'kubernetes-sigs/aws-load-balancer-controller pkg/service/model_build_target_group.go' +
        '@v2.14.0 … @v2.17.1 (buildPortSpecificTargetGroupAttributes; absent @v2.13.0)',
    ],
    enforcedBy:
      'the NLB recognition plans with the shortest delay across the ports ' +
      '(fn/timing/serviceLoadBalancer.ts serviceTargetGroup; ' +
      'test/timing/port-target-group.test.ts)',
  },
  {
    id: 'lbc-service-webhook',
    product: 'AWS Load Balancer Controller',
    setting:
      'the Service webhook sets `spec.loadBalancerClass: service.k8s.aws/nlb` on every new ' +
      '`type: LoadBalancer` Service without a class (`enableServiceMutatorWebhook`, default true)',
    versions: 'v2.5.0+ (absent @v2.4.7)',
    breaks:
      'a Service that shows only Classic ELB annotations gets an NLB with instance targets ' +
      'instead; its node health check fails after 2 checks, not 6',
    sources: [
      'kubernetes-sigs/aws-load-balancer-controller webhooks/core/service_mutator.go@v2.17.1',
      'kubernetes-sigs/aws-load-balancer-controller helm/aws-load-balancer-controller/' +
        'values.yaml@v2.5.0 … @v2.17.1',
    ],
    enforcedBy:
      'the Classic ELB recognition plans with the longer of the two windows and says so ' +
      '(fn/timing/serviceLoadBalancer.ts recognizeAwsClassic; test/timing/loadBalancers.test.ts)',
  },
  {
    id: 'lbc-gateway-target-groups',
    product: 'AWS Load Balancer Controller',
    setting:
      'Gateway API: a GatewayClass with `controllerName: gateway.k8s.aws/alb` (ALB) or ' +
      "`gateway.k8s.aws/nlb` (NLB) sends to each route's Service pods; the Service's " +
      '`TargetGroupConfiguration` gives `targetType` (default: `--default-target-type`, ' +
      '`instance`), `healthCheckConfig` (NLB instance targets with Local: 10 s × 2) and ' +
      '`targetGroupAttributes` (none by default); the most specific `routeConfigurations` entry ' +
      'is laid over `defaultConfiguration`',
    versions:
      'v2.13.0+ (routeConfigurations read from v2.14.0; the configuration is ' +
      '`gateway.k8s.aws/v1` from v3.5.0, `v1beta1` before)',
    breaks:
      'a ClusterIP Service behind an AWS Gateway is no in-cluster case: the ALB or NLB keeps ' +
      "sending for its window, and a group's deregistration delay shorter than the drain cuts " +
      'requests in flight',
    sources: [
      'kubernetes-sigs/aws-load-balancer-controller pkg/gateway/constants/' +
        'controller_constants.go@v2.17.1',
      'kubernetes-sigs/aws-load-balancer-controller pkg/gateway/model/' +
        'model_build_target_group.go@v2.13.0 … @v2.17.1',
      'kubernetes-sigs/aws-load-balancer-controller pkg/gateway/tg_config_constructor.go' +
        '@v2.14.0 … @v3.5.0 (absent @v2.13.0)',
      'kubernetes-sigs/aws-load-balancer-controller pkg/gateway/routeutils/backend.go@v2.17.1 ' +
        '(LookUpTargetGroupConfiguration)',
    ],
    enforcedBy:
      'the AWS Gateway recognition (fn/timing/awsGateway.ts; test/timing/aws-lbc-crds.test.ts ' +
      'and the app-aws-lbc-* golden cases)',
  },
  {
    id: 'lbc-gateway-default-target-group',
    product: 'AWS Load Balancer Controller',
    setting:
      "a LoadBalancerConfiguration's `defaultTargetGroupConfiguration` (a configuration without " +
      '`targetReference` in its namespace) for every Service behind the Gateway; the ' +
      "GatewayClass's and the Gateway's merge by the class's `mergingMode` " +
      "(`prefer-gateway-class` by default), and the Service's own configuration wins field by " +
      'field',
    versions: 'v3.2.0+ (absent @v3.1.0)',
    breaks:
      "a Gateway-wide target type or deregistration delay changes every Service's window " +
      'without a configuration next to the Service',
    sources: [
      'kubernetes-sigs/aws-load-balancer-controller controllers/gateway/config_resolver.go' +
        '@v3.2.0 (resolveAndMergeDefaultTGCs, lookUpDefaultTGCByName)',
      'kubernetes-sigs/aws-load-balancer-controller pkg/gateway/routeutils/backend_service.go' +
        '@v3.2.0 (MergeProps: Service over Gateway default)',
      'kubernetes-sigs/aws-load-balancer-controller apis/gateway/v1beta1/' +
        'loadbalancerconfig_types.go@v3.2.0',
    ],
    enforcedBy:
      'fn/mutators/shared/routedLoadBalancers.ts defaultOf and fn/timing/awsGateway.ts ' +
      'gatewayDefaultOf (test/timing/aws-lbc-crds.test.ts)',
  },
  {
    id: 'lbc-target-group-binding',
    product: 'AWS Load Balancer Controller',
    setting:
      '`TargetGroupBinding`: a target group made outside the cluster kept in step with a ' +
      "Service's endpoints (`serviceRef`); `targetType` and `targetGroupProtocol` are " +
      "inferred from AWS when unset; the group's health check and deregistration delay are its " +
      'own attributes',
    versions:
      'v2.0.0+ (elbv2.k8s.aws/v1beta1; `targetGroupName` from v2.12.0, `targetGroupProtocol` ' +
      'from v2.14.0)',
    breaks:
      "the Service's pods receive the group's traffic for its window whatever the Service's " +
      "type; the stream cannot show the group's deregistration delay, so no verdict is " +
      'claimed until the window is given',
    sources: [
      'kubernetes-sigs/aws-load-balancer-controller apis/elbv2/v1beta1/' +
        'targetgroupbinding_types.go@v2.17.1',
      'kubernetes-sigs/aws-load-balancer-controller docs/guide/targetgroupbinding/' +
        'targetgroupbinding.md@v2.17.1',
    ],
    enforcedBy:
      'the TargetGroupBinding recognition, unknown in explain until --drain-window ' +
      '(fn/timing/targetGroupBinding.ts; test/timing/aws-lbc-crds.test.ts)',
  },
  // AWS cloud provider (in-tree and kubernetes/cloud-provider-aws): the Classic ELB it builds for
  // a LoadBalancer Service that asks for no NLB
  {
    id: 'aws-clb-node-health-check',
    product: 'AWS cloud provider',
    setting:
      'Classic ELB node health check for `externalTrafficPolicy: Local` (HTTP on the ' +
      'healthCheckNodePort): interval 10 s, unhealthy threshold 6, the ' +
      '`service.beta.kubernetes.io/aws-load-balancer-healthcheck-*` annotations over them',
    versions: 'v1.28.0 … v1.36.1',
    breaks:
      'the ELB keeps sending to a node for interval × unhealthy threshold (60 s by default) ' +
      'after its last ready gateway pod there started terminating',
    sources: [
      'kubernetes/cloud-provider-aws pkg/providers/v1/aws_loadbalancer.go@v1.28.0, @v1.36.1 ' +
        '(defaultElbHC*, ensureLoadBalancerHealthCheck)',
      'kubernetes/cloud-provider-aws pkg/providers/v1/aws.go@v1.36.1 (EnsureLoadBalancer: ' +
        'the healthCheckNodePort for Local)',
    ],
    enforcedBy:
      'the Classic ELB recognition (fn/timing/serviceLoadBalancer.ts recognizeAwsClassic; ' +
      'test/timing/loadBalancers.test.ts, the contour-1.33.6-default golden)',
  },
  // GKE Ingress (kubernetes/ingress-gce): which Ingresses and Services get NEGs, and what a
  // BackendConfig's connection draining does
  {
    id: 'gke-ingress-classes',
    product: 'GKE Ingress',
    setting:
      '`kubernetes.io/ingress.class: gce`, `gce-internal` or `gce-regional-external` (the ' +
      'annotation only: the controller has no class for `spec.ingressClassName`); NEGs required ' +
      'for a ClusterIP Service and for the internal and regional classes',
    versions: 'v1.41.1',
    breaks:
      'a gce Ingress in front of a ClusterIP Service is a NEG-backed load balancer: planning it ' +
      'as in-cluster traffic (≈ 5 s) cuts the ≈ 30 s the load balancer still sends',
    sources: [
      'kubernetes/ingress-gce pkg/annotations/ingress.go@v1.41.1, pkg/utils/utils.go@v1.41.1 ' +
        '(IsGCEIngress), pkg/controller/translator/translator.go@v1.41.1 (maybeEnableNEG)',
    ],
    enforcedBy:
      'the Ingress recognition (fn/timing/ingressLoadBalancer.ts recognizeGkeIngress; ' +
      'test/timing/loadBalancers.test.ts)',
  },
  {
    id: 'gke-connection-draining',
    product: 'GKE Ingress',
    setting:
      "BackendConfig `connectionDraining.drainingTimeoutSec`: the backend service's connection " +
      'draining, time for requests in flight on a removed endpoint; 0 (off) without one',
    versions: 'v1.41.1',
    breaks:
      'shorter than the longest request, the load balancer closes connections still in flight ' +
      "after the endpoint's removal; it does not keep new connections coming (not part of W)",
    sources: [
      'kubernetes/ingress-gce pkg/backends/features/draining.go@v1.41.1',
      'kubernetes/ingress-gce vendor/google.golang.org/api/compute/v1/compute-gen.go@v1.41.1 ' +
        '(ConnectionDraining: "a duration timeout for existing requests on a removed backend")',
    ],
    enforcedBy:
      'LB_DEREGISTRATION_TOO_SHORT and the lb-cut window of explain (fn/timing/' +
      'connectionClosing.ts; test/mutators/gateway/gateway-drain.test.ts)',
  },
  // Gateway API: which Gateways are in-cluster proxies (the in-cluster window holds behind them)
  {
    id: 'gateway-api-in-cluster-controllers',
    product: 'Kubernetes',
    setting:
      'a route from a Gateway whose GatewayClass names `istio.io/gateway-controller`, ' +
      '`gateway.envoyproxy.io/gatewayclass-controller`, `traefik.io/gateway-controller` or ' +
      "`projectcontour.io/gateway-controller` (or of Istio's built-in class `istio`) reaches the " +
      "pods from proxies in the cluster; any other Gateway's window is not modelled",
    versions: 'Istio 1.22.8+, Envoy Gateway v1.9.0, Traefik v3.7.9, Contour v1.33.6',
    breaks:
      'a Gateway of a cloud implementation sends to the pods directly for longer than the ' +
      'in-cluster window: claiming ✓ for it would be a guess',
    sources: [
      'istio/istio pilot/pkg/features/pilot.go@1.22.8 … @1.30.3 ' +
        '(PILOT_GATEWAY_API_CONTROLLER_NAME, PILOT_GATEWAY_API_DEFAULT_GATEWAYCLASS_NAME)',
      'envoyproxy/gateway api/v1alpha1/envoygateway_types.go@v1.9.0 (GatewayControllerName)',
      'traefik/traefik pkg/provider/kubernetes/gateway/kubernetes.go@v3.7.9 (controllerName)',
      'projectcontour/contour cmd/contour/gatewayprovisioner.go@v1.33.6',
    ],
    enforcedBy:
      'fn/timing/gatewayControllers.ts and fn/timing/unmodelledGateway.ts: explain says unknown ' +
      'for any other Gateway (test/timing/unmodelled-gateway.test.ts)',
  },
  // GKE Gateway controller (closed source): its classes, and the policy that sets draining
  {
    id: 'gke-gateway-neg',
    product: 'GKE Gateway',
    setting:
      'a Gateway of a single-cluster L7 class (`gke-l7-global-external-managed`, ' +
      '`gke-l7-regional-external-managed`, `gke-l7-rilb`, `gke-l7-gxlb`) or of a GatewayClass ' +
      "with `controllerName: networking.gke.io/gateway` sends to each route's Service pods " +
      'through NEGs; a BackendConfig does not apply to it',
    versions: 'GKE 1.24+ (Standard), 1.26+ (Autopilot)',
    breaks:
      'a ClusterIP Service behind a GKE Gateway is a NEG-backed load balancer: planning it as ' +
      'in-cluster traffic (≈ 5 s) cuts the ≈ 30 s the load balancer still sends',
    sources: [
      'GKE docs, https://cloud.google.com/kubernetes-engine/docs/how-to/' +
        'configure-gateway-resources (VPC-native clusters only; no BackendConfig for a Gateway)',
      'GoogleCloudPlatform/gke-networking-recipes gateway/docs/store-autoscale.yaml@cce1618 ' +
        '(gke-l7-gxlb)',
    ],
    enforcedBy:
      'the GKE Gateway recognition (fn/timing/gkeGateway.ts; test/timing/gke-gateway.test.ts ' +
      'and the app-gke-gateway-store-autoscale golden case)',
  },
  {
    id: 'gke-gateway-connection-draining',
    product: 'GKE Gateway',
    setting:
      '`GCPBackendPolicy` `spec.default.connectionDraining.drainingTimeoutSec` for the Service ' +
      'its `targetRef` names (same namespace); 0 s (off) when omitted',
    versions: 'networking.gke.io/v1',
    breaks:
      'shorter than the longest request, the load balancer closes connections still in flight ' +
      "after the endpoint's removal",
    sources: [
      'GoogleCloudPlatform/gke-networking-recipes gateway-api/config/servicepolicies/crd/' +
        'standard/gcpbackendpolicies.yaml@d644f78 ("If the field is omitted, a default value ' +
        '(0s) will be used"), https://github.com/GoogleCloudPlatform/gke-networking-recipes',
    ],
    enforcedBy:
      'LB_DEREGISTRATION_TOO_SHORT and the lb-cut window of explain (fn/timing/gkeGateway.ts; ' +
      'test/timing/gke-gateway.test.ts)',
  },
  // Azure Application Gateway for Containers (closed source): recognised, its window not modelled
  {
    id: 'azure-agc-not-modelled',
    product: 'Azure Application Gateway for Containers',
    setting:
      'a Gateway of class `azure-alb-external` (or of a GatewayClass with `controllerName: ' +
      'alb.networking.azure.io/alb-controller`), or an Ingress of class `azure-alb-external`: ' +
      "the ALB Controller's managed load balancer sends to the pods' IPs",
    versions: 'alb.networking.azure.io/v1 (ALB Controller)',
    breaks:
      'how soon it stops sending to a terminating pod is not documented in a form kube-graceful ' +
      'reads: an Ingress of this class planned as if an in-cluster controller stood in front ' +
      'got a ✓ it had not earned',
    sources: [
      'MicrosoftDocs/azure-docs articles/application-gateway/for-containers/' +
        'quickstart-deploy-application-gateway-for-containers-alb-controller-addon.md ' +
        '(GatewayClass azure-alb-external, controllerName alb.networking.azure.io/alb-controller)',
      'MicrosoftDocs/azure-docs articles/application-gateway/for-containers/' +
        'how-to-traffic-splitting-gateway-api.md@0a8a1a9, how-to-header-rewrite-ingress-api.md',
    ],
    enforcedBy:
      'explain says unknown for its pods until --drain-window gives the window ' +
      '(fn/timing/azureAgc.ts; test/timing/azure-agc.test.ts)',
  },
  // AWS Load Balancer Controller, Ingress: where an ALB's target type is read
  {
    id: 'aws-alb-ingress-target-type',
    product: 'AWS Load Balancer Controller',
    setting:
      "an ALB Ingress's target type per Service: the IngressClassParams `targetType` its " +
      'IngressClass names, else `alb.ingress.kubernetes.io/target-type` on the Service, else on ' +
      "the Ingress, else `instance`; `target-group-attributes` likewise the Service's first",
    versions: 'v2.17.1',
    breaks:
      "IP targets read as instance targets lose the target group's deregistration delay: a " +
      'delay that cuts requests in flight, or outlives the grace period, goes unseen',
    sources: [
      'kubernetes-sigs/aws-load-balancer-controller pkg/ingress/model_build_target_group.go' +
        '@v2.17.1 (buildTargetGroupSpec, buildTargetGroupTargetType)',
      'kubernetes-sigs/aws-load-balancer-controller pkg/algorithm/maps.go@v2.17.1 ' +
        "(MergeStringMap keeps the first map's value)",
      'kubernetes-sigs/aws-load-balancer-controller apis/elbv2/v1beta1/' +
        'ingressclassparams_types.go@v2.17.1 (TargetType)',
    ],
    enforcedBy: 'fn/timing/albIngress.ts (test/timing/ingress-classes.test.ts)',
  },
  // Ingress: which controllers are in-cluster proxies (the in-cluster window holds behind them)
  {
    id: 'ingress-in-cluster-controllers',
    product: 'Kubernetes',
    setting:
      'an Ingress whose IngressClass names `k8s.io/ingress-nginx`, ' +
      '`traefik.io/ingress-controller`, `ingress-controllers.konghq.com/kong`, ' +
      '`istio.io/ingress-controller` or a `projectcontour.io/` controller, or (its IngressClass ' +
      'not in the input) of a class those take by default (`nginx`, `traefik`, `kong`, `istio`, ' +
      '`contour`), reaches the pods from proxies in the cluster; an IngressClass naming ' +
      '`ingress.k8s.aws/alb` is an ALB, one naming `azure/application-gateway` an Azure ' +
      'Application Gateway; an Ingress of any other class, or of none without a default ' +
      'IngressClass in the input, is not modelled',
    versions:
      'ingress-nginx controller-v1.15.1, Traefik v3.7.9, Kong Ingress Controller v3.5.9, ' +
      'Istio 1.30.3, Contour v1.33.6, AWS Load Balancer Controller v2.17.1, AGIC 1.9.8',
    breaks:
      'an Ingress of a cloud controller sends to the pods directly for longer than the ' +
      'in-cluster window (GKE takes an Ingress of no class): claiming ✓ for it would be a guess',
    sources: [
      'kubernetes/ingress-nginx internal/ingress/controller/ingressclass/ingressclass.go' +
        '@controller-v1.15.1 (DefaultControllerName, DefaultAnnotationValue)',
      'traefik/traefik pkg/provider/kubernetes/ingress/kubernetes.go@v3.7.9 ' +
        '(traefikDefaultIngressClass, traefikDefaultIngressClassController)',
      'Kong/kubernetes-ingress-controller internal/store/store.go@v3.5.9 ' +
        '(IngressClassKongController), internal/annotations/annotations.go@v3.5.9 ' +
        '(DefaultIngressClass)',
      'istio/istio pilot/pkg/config/kube/ingress/virtualservices.go@1.30.3 ' +
        '(IstioIngressController), pkg/config/mesh/mesh.go@1.30.3 (ingressClass)',
      'projectcontour/contour internal/ingressclass/ingressclass.go@v1.33.6 (DefaultClassName; ' +
        'matched by name, the controller never read)',
      'kubernetes-sigs/aws-load-balancer-controller pkg/ingress/class_loader.go@v2.17.1 ' +
        '(IngressClassControllerALB)',
      'kubernetes/ingress-gce pkg/utils/utils.go@v1.41.1 (IsGCEIngress: an Ingress of no class)',
      'Azure/application-gateway-kubernetes-ingress pkg/environment/environment.go@1.9.8 ' +
        '(DefaultIngressClassController)',
    ],
    enforcedBy:
      'fn/timing/ingressControllers.ts and fn/timing/unmodelledIngress.ts: explain says unknown ' +
      'for any other Ingress (test/timing/ingress-classes.test.ts)',
  },
  // Karpenter and Spot: how long a node waits for its pods when it goes away
  {
    id: 'karpenter-nodepool-termination-grace-period',
    product: 'Karpenter',
    setting:
      'NodePool `spec.template.spec.terminationGracePeriod` (`^([0-9]+(s|m|h))+$`): pods are ' +
      'deleted early so that their grace periods end by the node deadline; a Spot NodePool ' +
      '(`karpenter.sh/capacity-type In [spot]`) gets the two-minute interruption notice',
    versions: 'v1.0.0+ (karpenter.sh/v1)',
    breaks:
      'a grace period longer than the budget is cut at the node deadline: requests still in ' +
      'flight then are lost',
    sources: [
      'kubernetes-sigs/karpenter pkg/apis/v1/nodepool.go@v1.0.0 … @v1.14.1 ' +
        '(TerminationGracePeriod)',
      'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/' +
        'spot-instance-termination-notices.html (two-minute Spot interruption notice)',
    ],
    enforcedBy:
      'NODE_SHUTDOWN_BUDGET of the timing model and the node shutdown budget row of explain ' +
      '(fn/timing/nodeShutdown.ts; test/timing/node-shutdown.test.ts)',
  },
  // Spot capacity: what a node of interruptible capacity gives its pods when it is reclaimed
  {
    id: 'spot-capacity-node-labels',
    product: 'Spot capacity',
    setting:
      'a pod whose nodeSelector asks for interruptible capacity: `karpenter.sh/capacity-type: ' +
      'spot`, `eks.amazonaws.com/capacityType: SPOT` (AWS, 120 s), `cloud.google.com/gke-spot` ' +
      'or `cloud.google.com/gke-preemptible: "true"` (GKE, 15 s for non-system Pods of the 30 s ' +
      'shutdown); the presets aws-spot and gke-spot',
    versions:
      'Karpenter v1.0.0+; GKE preemptible VMs from 1.22.8-gke.200 (25 s before); Autopilot Spot ' +
      'Pods up to 25 s; GKE Standard configurable up to 120 s from 1.35.0-gke.1171000',
    breaks:
      'a grace period longer than the node waits is cut when the node goes away: requests still ' +
      'in flight then are lost',
    sources: [
      'kubernetes-sigs/karpenter pkg/apis/v1/labels.go@v1.0.0 (CapacityTypeLabelKey, ' +
        'CapacityTypeSpot)',
      'https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html ' +
        '(eks.amazonaws.com/capacityType)',
      'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/' +
        'spot-instance-termination-notices.html (two-minute Spot interruption notice)',
      'https://cloud.google.com/kubernetes-engine/docs/concepts/spot-vms (Termination and ' +
        'graceful shutdown of Spot VMs)',
      'https://cloud.google.com/kubernetes-engine/docs/how-to/preemptible-vms (Termination and ' +
        'graceful shutdown of preemptible VMs)',
    ],
    enforcedBy:
      'NODE_SHUTDOWN_BUDGET of the timing model and the node shutdown budget row of explain ' +
      '(fn/timing/nodeShutdown.ts; test/timing/node-shutdown.test.ts)',
  },
  // Helm: how a post-renderer's output is taken back
  {
    id: 'helm4-postrender-filename',
    product: 'Helm',
    setting:
      'the `postrenderer.helm.sh/postrender-filename` annotation Helm 4 puts on every document ' +
      'it hands a post-renderer',
    versions: 'Helm 4',
    breaks:
      'Helm regroups the output by it and strips it; a document without it (one a ' +
      'post-renderer adds) is filed as `generated-by-postrender-N.yaml`',
    sources: ['helm pkg/action/action.go@v4.0.0 (annotateAndMerge, splitAndDeannotate)'],
    enforcedBy:
      "an added object carries its target's annotation (fn/engine/alongside.ts; " +
      'test/integration/added-objects.test.ts with the real Helm 4)',
  },
  // Cloud SQL Auth Proxy: a sidecar charts declare in their Jobs
  {
    id: 'cloud-sql-proxy-job-sidecar',
    product: 'Cloud SQL Auth Proxy',
    setting:
      'the proxy as a regular container of a Job (images gcr.io/cloud-sql-connectors/' +
      'cloud-sql-proxy, v1 gcr.io/cloudsql-docker/gce-proxy)',
    versions: 'v1, v2',
    breaks:
      'it serves until it is signalled: the Job never completes. As a native sidecar ' +
      '(Kubernetes 1.29+) it is stopped after the main containers, and its exit code (143 on ' +
      'SIGTERM without --exit-zero-on-sigterm, from v2.6.0) does not count',
    sources: [
      'GoogleCloudPlatform/cloud-sql-proxy examples/k8s-sidecar/job_with_sidecar.yaml@v2.25.3',
      'GoogleCloudPlatform/cloud-sql-proxy cmd/root.go@v2.25.3, cmd/errors.go@v2.25.3 ' +
        `(errSigTerm 143; --quitquitquit from v${CLOUD_SQL_PROXY.quitQuitQuit.since}, GET as ` +
        'well from v2.7.0)',
      'GoogleCloudPlatform/cloud-sql-proxy README.md@v1.33.16 (gce-proxy images)',
    ],
    enforcedBy:
      'job-sidecar-quit moves it to initContainers with restartPolicy: Always where the oldest ' +
      'kubelet has native sidecars; else the wrapper POSTs /quitquitquit ' +
      `(v${CLOUD_SQL_PROXY.quitQuitQuit.since}+, ` +
      '--quitquitquit added), else JOB_SIDECAR_NOT_STOPPED ' +
      '(test/mutators/job/declared-sidecars.test.ts)',
  },
  {
    id: 'cloud-sql-proxy-app-sidecar',
    product: 'Cloud SQL Auth Proxy',
    setting: 'the proxy as a regular container beside an app (Deployment, StatefulSet, …)',
    versions: `v1, v2 (--min-sigterm-delay from v${CLOUD_SQL_PROXY.minSigtermDelay.since})`,
    breaks:
      'it gets SIGTERM with the app at t = 0 and, by default, exits at once (v2 ' +
      '--max-sigterm-delay 0, v1 -term_timeout 0; with a wait it exits at the first moment with ' +
      'no open connection), while the app still serves and queries through it',
    sources: [
      `${CLOUD_SQL_PROXY.minSigtermDelay.source} (--min-sigterm-delay: accepts ` +
        'new connections for that long after SIGTERM)',
      'GoogleCloudPlatform/cloud-sql-proxy internal/proxy/proxy.go@v2.25.3 (Client.Close)',
      'GoogleCloudPlatform/cloud-sql-proxy proxy/proxy/client.go@v1.33.16 (Client.Shutdown)',
      'GoogleCloudPlatform/cloud-sql-proxy examples/k8s-sidecar/' +
        'proxy_with_workload_identity.yaml@v2.15.0 (a Deployment runs it as a native sidecar)',
    ],
    enforcedBy:
      'app-graceful moves it to initContainers with restartPolicy: Always where the oldest ' +
      'kubelet has native sidecars; else appends --min-sigterm-delay = S + R ' +
      `(v${CLOUD_SQL_PROXY.minSigtermDelay.since}+); else ` +
      'APP_SIDECAR_STOPS_FIRST (test/mutators/app/cloud-sql-proxy.test.ts)',
  },
  {
    id: 'telemetry-job-sidecars',
    product: 'Kubernetes',
    setting:
      'an OpenTelemetry Collector (otel/opentelemetry-collector[-k8s|-contrib]), Fluent Bit ' +
      '(fluent/fluent-bit) or a Datadog Agent (…/datadoghq/agent, …/datadog/agent, ' +
      'registry.datadoghq.com/agent) as a regular container of a Job',
    versions: 'every version',
    breaks:
      'each runs until it is signalled: the Job never completes; kube-graceful knows no quit ' +
      'endpoint of theirs, so only a native sidecar (1.29+) ends them',
    sources: [
      'open-telemetry/opentelemetry-helm-charts charts/opentelemetry-collector/UPGRADING.md' +
        '@opentelemetry-collector-0.170.0 (images)',
      'fluent/fluent-bit dockerfiles/README.md@v4.2.8 (image)',
      'DataDog/helm-charts charts/datadog/values.yaml@datadog-3.240.0 (registries)',
    ],
    enforcedBy:
      'job-sidecar-quit moves them to initContainers with restartPolicy: Always, else ' +
      'JOB_SIDECAR_NOT_STOPPED (test/mutators/job/declared-sidecars.test.ts)',
  },
  // Vault Agent Injector: a sidecar injected at admission
  {
    id: 'vault-agent-pre-populate-only',
    product: 'Vault Agent Injector',
    setting:
      '`vault.hashicorp.com/agent-inject: "true"` on a Job\'s pod without ' +
      '`vault.hashicorp.com/agent-pre-populate-only: "true"`',
    versions: 'vault-k8s v0.1.0 – v1.7.6 (no native-sidecar option)',
    breaks:
      'the injector adds a vault-agent sidecar that runs until it is signalled: the Job never ' +
      'completes. With pre-populate-only only the init container is added',
    sources: [
      'hashicorp/vault-k8s agent-inject/agent/annotations.go@v1.7.6 ' +
        '(AnnotationAgentPrePopulateOnly: "no sidecar container will be injected"), @v0.1.0',
      'hashicorp/vault-k8s agent-inject/agent/agent.go@v1.7.6 (ShouldInject: ParseBool), ' +
        'agent-inject/agent/container_sidecar.go@v1.7.6 (Name: "vault-agent")',
    ],
    enforcedBy:
      'job-sidecar-quit sets pre-populate-only "true" where the pod does not pin it, else ' +
      'JOB_VAULT_AGENT_KEPT (test/mutators/job/vault-agent.test.ts)',
  },
  // Dapr: its sidecar in a Job (fn/mutators/job/dapr.ts)
  {
    id: 'dapr-shutdown-api',
    product: 'Dapr',
    setting:
      "`POST /v1.0/shutdown` on daprd's HTTP port 3500 (no annotation changes the port) shuts " +
      'daprd down gracefully: how a Job with Dapr completes',
    versions: 'v1.12.0 … v1.18.3',
    breaks: 'without the call daprd runs on after the program and the Job never completes',
    sources: [
      'dapr/dapr pkg/http/api_shutdown.go@v1.12.0, pkg/api/http/shutdown.go@v1.18.3, ' +
        'pkg/api/universal/shutdown.go@v1.18.3',
      'dapr/dapr pkg/injector/patcher/sidecar.go@v1.18.3 (SidecarHTTPPort default 3500, ' +
        'no annotation)',
      'dapr/docs daprdocs/content/en/operations/hosting/kubernetes/kubernetes-job.md',
    ],
    enforcedBy:
      "job-sidecar-quit's wrapper (fn/mutators/job/dapr.ts, wrapper.ts daprQuitEndpoint; " +
      'test/mutators/job/wrapper.test.ts under sh, the job-dapr-* goldens)',
  },
  {
    id: 'dapr-native-sidecar',
    product: 'Dapr',
    setting: '`dapr.io/enable-native-sidecar` makes daprd a native sidecar',
    versions: 'v1.18.0+ (absent @v1.17.0)',
    breaks:
      'written for an older injector, the annotation is ignored and the Job hangs: kube-graceful ' +
      'never writes it, and takes a pod that sets it as its choice',
    sources: ['dapr/dapr pkg/injector/patcher/sidecar_container.go@v1.18.0, sidecar.go@v1.18.0'],
    enforcedBy: 'JOB_DAPR_NATIVE (fn/mutators/job/index.ts daprOf; test/mutators/job/dapr.test.ts)',
  },
  {
    id: 'consul-dataplane-graceful-shutdown',
    product: 'Consul',
    setting:
      "`POST /graceful_shutdown` on consul-dataplane's lifecycle port (20600, or the pod's " +
      '`consul.hashicorp.com/sidecar-proxy-lifecycle-graceful-port`) quits Envoy after the ' +
      'shutdown grace period; the dataplane then exits 0',
    versions: 'consul-k8s v1.2.3 … v1.9.11 (absent @v1.2.0); consul-dataplane v1.9.9 (read)',
    breaks: 'without the call the dataplane runs on after the program and the Job never completes',
    sources: [
      'hashicorp/consul-k8s control-plane/connect-inject/constants/constants.go@v1.2.3 and ' +
        '@v1.9.11 (DefaultGracefulPort, DefaultGracefulShutdownPath)',
      'hashicorp/consul-k8s control-plane/connect-inject/webhook/mesh_webhook.go@v1.9.11 ' +
        '(shouldInject: ParseBool; sidecarContainer consul-dataplane)',
      'hashicorp/consul-dataplane pkg/consuldp/lifecycle.go@v1.9.9, consul_dataplane.go@v1.9.9',
    ],
    enforcedBy:
      "job-sidecar-quit's wrapper (fn/mutators/job/consul.ts, wrapper.ts consulQuitEndpoint; " +
      'test/mutators/job/consul.test.ts, wrapper.test.ts under sh)',
  },
  {
    id: 'consul-dataplane-native-sidecar',
    product: 'Consul',
    setting:
      '`consul.hashicorp.com/enable-consul-dataplane-as-sidecar` makes consul-dataplane a ' +
      'native sidecar',
    versions: 'consul-k8s v1.9.0+ (absent @v1.8.0)',
    breaks:
      'written for an older injector, the annotation is ignored and the Job hangs: kube-graceful ' +
      'never writes it, and takes a pod that sets it as its choice',
    sources: [
      'hashicorp/consul-k8s control-plane/connect-inject/webhook/consul_dataplane_sidecar.go' +
        '@v1.9.11, lifecycle/lifecycle_configuration.go@v1.9.0',
    ],
    enforcedBy:
      'JOB_CONSUL_NATIVE (fn/mutators/job/index.ts injectedOf; test/mutators/job/consul.test.ts)',
  },
  {
    id: 'kuma-sidecar-in-jobs',
    product: 'Kuma',
    setting:
      '`kuma.io/sidecar-injection` (true, yes, enabled) on the pod labels adds `kuma-sidecar`; ' +
      "it is a native sidecar only with the control plane's `experimental.sidecarContainers`",
    versions:
      `sidecarContainers ${KUMA.sidecarContainers.since}+ (absent @2.6.0); ` +
      'injection read at 2.12.3',
    breaks:
      'a classic kuma-sidecar runs on after the program and the Job never completes; ' +
      'kube-graceful does not end it (Envoy quit over TLS on a bootstrap-assigned port)',
    sources: [
      'kumahq/kuma pkg/plugins/runtime/k8s/webhooks/injector/precheck.go@2.12.3',
      `${KUMA.sidecarContainers.source} (SidecarContainers)`,
      'kumahq/kuma pkg/envoy/admin/client.go@2.12.3 (PostQuit over https)',
    ],
    enforcedBy:
      'JOB_KUMA_NOT_STOPPED (fn/mutators/job/kuma.ts, index.ts injectedOf; ' +
      'test/mutators/job/kuma.test.ts)',
  },
];
