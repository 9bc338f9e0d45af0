/**
 * The facts istio-gateway-api relies on, as rows of the compatibility table: how istiod deploys a
 * Gateway API gateway and how its infrastructure settings reach the generated pod.
 */
import type { Constraint } from '../../compat/constraint.ts';
import { TEMPLATE_GRACE_DROPPED } from './ambientGateways.ts';
import { OVERLAYS } from './facts.ts';

export const ISTIO_GATEWAY_API_COMPATIBILITY: readonly Constraint[] = [
  {
    id: 'k8s-configmap-name-length',
    product: 'Kubernetes',
    setting: 'a ConfigMap name (kube-graceful adds `<gateway>-kube-graceful`)',
    versions: 'every version',
    breaks: 'the API server rejects a name over 253 characters (a DNS-1123 subdomain)',
    sources: [
      'kubernetes pkg/apis/core/validation/validation.go ' +
        '(ValidateConfigMapName = NameIsDNSSubdomain)',
      'k8s.io/apimachinery pkg/util/validation/validation.go@v0.28.0, @v0.34.0 ' +
        '(DNS1123SubdomainMaxLength = 253)',
    ],
    enforcedBy:
      'the istio-gateway-api decision writes nothing when the name would be longer ' +
      '(ISTIO_GATEWAY_API_CONFIGMAP_NAME_TOO_LONG; ' +
      'test/mutators/istio-gateway-api/plan.test.ts)',
  },
  {
    id: 'gateway-api-infrastructure-crd',
    product: 'Istio',
    setting: "a Gateway's `spec.infrastructure.parametersRef` (written when the Gateway has none)",
    versions: 'standard-channel Gateway CRD from Gateway API v1.2.0; experimental channel before',
    breaks:
      'an older standard CRD prunes the unknown field without a word: istiod never reads the ' +
      'parameters ConfigMap, and the generated gateway keeps the short defaults',
    sources: [
      'kubernetes-sigs/gateway-api config/crd/standard/gateway.networking.k8s.io_gateways.yaml' +
        '@v1.2.0 (infrastructure, parametersRef); apis/v1/gateway_types.go@v1.0.0 and @v1.1.0 ' +
        '(`<gateway:experimental>`)',
    ],
    enforcedBy:
      'said in the change that writes it (fn/mutators/istio-gateway-api/plan.ts; the ' +
      'istio-gateway-api-* golden reports)',
  },
  {
    id: 'istio-gateway-api-parameters',
    product: 'Istio',
    setting:
      'Gateway API `Gateway` `spec.infrastructure.parametersRef` to a ConfigMap (same ' +
      'namespace), whose `data.deployment` is merged into the generated Deployment',
    versions: `${OVERLAYS.since}+`,
    breaks:
      'before 1.26 istiod ignores it: ' +
      "the generated Deployment keeps a 30 s grace period and Istio's drain defaults, " +
      'and nothing in the Gateway can change them; ' +
      'a parametersRef that is not a core ConfigMap (any version) makes istiod deploy nothing',
    sources: [
      'istio pilot/pkg/config/kube/gateway/deploymentcontroller.go@1.26.0, @1.26.8, ' +
        '@1.28.10 (render, fetchParameters); absent @1.25.5',
      'istio pilot/pkg/config/kube/gatewaycommon/deploymentcontroller.go@1.30.3',
    ],
    enforcedBy:
      'the istio-gateway-api decision writes nothing below 1.26 and says so ' +
      '(ISTIO_GATEWAY_API_OVERLAYS_UNSUPPORTED; ' +
      'test/mutators/istio-gateway-api/plan.test.ts, ' +
      'test/golden/istio-gateway-api-1.25-unsupported)',
  },
  {
    id: 'istio-gateway-api-class-defaults',
    product: 'Istio',
    setting:
      'class-defaults ConfigMap (label `gateway.istio.io/defaults-for-class: <class>`, ' +
      "in istiod's namespace; the istiod chart's `gatewayClasses` value renders it)",
    versions: `${OVERLAYS.since}+`,
    breaks:
      "applied before the Gateway's own parameters, so a key both set is the Gateway's; " +
      "the oldest wins when several match; outside istiod's namespace it is ignored",
    sources: [
      'istio pilot/pkg/config/kube/gateway/deploymentcontroller.go@1.26.8 (render: ' +
        'class defaults, then parametersRef; controllers.OldestObject)',
      'istio manifests/charts/istio-control/istio-discovery/templates/' +
        'gateway-class-configmap.yaml@1.26.8, @1.30.3',
    ],
    enforcedBy:
      'the istio-gateway-api decision reads the class defaults under the ' +
      "Gateway's parameters (fn/mutators/istio-gateway-api/effective.ts; " +
      'test/mutators/istio-gateway-api/plan.test.ts, ' +
      'test/golden/istio-gateway-api-1.30.3-tuned-class-defaults)',
  },
  {
    id: 'istio-gateway-api-overlay-merge',
    product: 'Istio',
    setting: 'how `data.deployment` / `data.service` overlays are applied',
    versions: `${OVERLAYS.since}+`,
    breaks:
      "a strategic merge patch with the Deployment's and Service's own strategy (containers " +
      'and env by `name`, maps key by key, scalars replace); a key other than deployment, ' +
      'service, serviceAccount, horizontalPodAutoscaler, ' +
      'podDisruptionBudget fails the whole render; ' +
      'a pod annotation in the overlay replaces the one the Gateway copies',
    sources: [
      'istio pilot/pkg/config/kube/gateway/deploymentcontroller.go@1.26.8 (applyOverlay, ' +
        'strategicMergePatchYAML, supportedOverlays)',
      'istio pilot/pkg/config/kube/gatewaycommon/testdata/deployment/customizations.yaml@1.30.3',
    ],
    enforcedBy:
      'the istio-gateway-api overlay edit adds entries by name ' +
      '(fn/mutators/istio-gateway-api/overlayEdit.ts; ' +
      'test/mutators/istio-gateway-api/facts.test.ts, plan.test.ts, ' +
      'test/golden/istio-gateway-api-1.30.3-parameters-merge)',
  },
  {
    id: 'istio-waypoint-template-grace',
    product: 'Istio',
    setting:
      'waypoints (`istio-waypoint`) and ambient east-west gateways (`istio-east-west`, 1.27+) ' +
      "are deployed from istiod's `waypoint` template: `terminationGracePeriodSeconds: 2`",
    versions:
      `1.22–1.27 (2 s); ${TEMPLATE_GRACE_DROPPED.since}+ leaves the Kubernetes default, ` + '30 s',
    breaks:
      'a request longer than the grace period is cut; an east-west gateway sits behind a ' +
      'load balancer that keeps sending after the pod is gone',
    sources: [
      'istio manifests/charts/istio-control/istio-discovery/files/waypoint.yaml@1.22.8, ' +
        '@1.27.9 and @1.28.10',
      'istio pilot/pkg/config/kube/gateway/deploymentcontroller.go@1.27.9 (getClassInfos, ' +
        'applyOverlay)',
    ],
    enforcedBy:
      'not planned: istio-gateway-api says so on each such Gateway with the overlay to set by ' +
      'hand (fn/mutators/istio-gateway-api/ambientGateways.ts; ' +
      'test/mutators/istio-gateway-api/ambient-gateways.test.ts)',
  },
  {
    id: 'istio-gateway-api-infrastructure-annotations',
    product: 'Istio',
    setting: '`spec.infrastructure.annotations` of a Gateway (else its own metadata annotations)',
    versions:
      "1.21+ (before: the Gateway's own annotations); " +
      "the fallback to the Gateway's own annotations can be turned off from 1.27 " +
      '(`PILOT_ENABLE_GATEWAY_API_COPY_LABELS_ANNOTATIONS`, default true)',
    breaks:
      'copied onto the generated Service, Deployment and pod template: ' +
      'load-balancer annotations there decide the drain window; ' +
      '`gateway.networking.k8s.io/` keys are dropped',
    sources: [
      'istio pilot/pkg/config/kube/gateway/deploymentcontroller.go@1.21.0, ' +
        '@1.28.10 (extractInfrastructureMetadata)',
      'istio pilot/pkg/features/experimental.go@1.27.0',
      'istio manifests/charts/istio-control/istio-discovery/files/kube-gateway.yaml@1.30.3',
    ],
    enforcedBy:
      'the istio-gateway-api decision reads W from the Service istiod would ' +
      'generate (fn/mutators/istio-gateway-api/service.ts; ' +
      'test/mutators/istio-gateway-api/plan.test.ts, ' +
      'test/golden/istio-gateway-api-1.30.3-nlb, -1.28.10-nlb-class-defaults)',
  },
  {
    id: 'istio-gateway-api-generated-pod',
    product: 'Istio',
    setting: 'the Deployment istiod generates from the `kube-gateway` template',
    versions: '1.22.8, 1.24.6, 1.26.8, 1.28.10, 1.30.3 (the releases read)',
    breaks:
      "no terminationGracePeriodSeconds (Kubernetes' 30 s), no drain env, " +
      'not injected (`sidecar.istio.io/inject: "false"`, ' +
      'istio-proxy rendered by the template), ' +
      "the pod's annotations mounted at /etc/istio/pod: " +
      'so env must go on istio-proxy by the overlay, ' +
      'and `proxy.istio.io/config` in the pod annotations reaches pilot-agent',
    sources: [
      'istio manifests/charts/istio-control/istio-discovery/files/kube-gateway.yaml@1.22.8, ' +
        '@1.24.6, @1.26.8, @1.28.10, @1.30.3',
      'istio pilot/cmd/pilot-agent/config/config.go@1.26.8 (getMeshConfig: ' +
        'annotation over PROXY_CONFIG)',
    ],
    enforcedBy:
      'test/mutators/istio-gateway-api/facts.test.ts on the rendered istiod chart and ' +
      "Istio's deployment-controller goldens",
  },
];
