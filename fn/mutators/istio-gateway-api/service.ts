/**
 * The Service istiod generates for a Gateway, as far as the load balancer in front of it goes, and
 * so the drain window W: its annotations and type come from the Gateway and the overlays, and the
 * project's load-balancer recognition (fn/timing/serviceLoadBalancer.ts) reads it as it would a
 * rendered Service.
 */
import { recognizeServiceLoadBalancer } from '../../timing/serviceLoadBalancer.ts';
import type { LoadBalancerRecognition } from '../../timing/loadBalancerTable.ts';
import type { KubeObject } from '../../core/kubeObject.ts';
import { SERVICE_TYPE_ANNOTATION, TEMPLATE_OMITTED_ANNOTATIONS } from './facts.ts';
import type { GatewayObject } from './objects.ts';
import type { OverlayRead } from './overlayText.ts';
import { dig } from './overlayText.ts';
import type { ServiceRecognitionContext } from '../../timing/serviceLoadBalancer.ts';

/** The generated Service (name, namespace, type, annotations) and what it says about W. */
export interface GeneratedService {
  readonly service: KubeObject;
  readonly recognition: LoadBalancerRecognition;
}

/**
 * Returns the Service istiod would generate for `gateway` with the overlays applied in istiod's
 * order (class defaults, then the Gateway's parameters: `render`, deploymentcontroller.go@1.26.8),
 * and the load balancer recognised from it.
 *
 * - annotations: `spec.infrastructure.annotations` when set, else the Gateway's own annotations
 *   (`extractInfrastructureMetadata`, deploymentcontroller.go@1.26.8, @1.28.10; copied only while
 *   `PILOT_ENABLE_GATEWAY_API_COPY_LABELS_ANNOTATIONS` keeps its default true from 1.27), less the
 *   template's omitted keys and `gateway.networking.k8s.io/` keys; then each overlay's
 *   `metadata.annotations`, key by key.
 * - type: `networking.istio.io/service-type` on the Gateway, else LoadBalancer (the `istio`
 *   class's `defaultServiceType`); then an overlay's `spec.type`.
 */
export function generatedService(
  gateway: GatewayObject,
  className: string,
  overlays: readonly OverlayRead[],
  context: ServiceRecognitionContext,
): GeneratedService {
  const annotations: Record<string, string> = {};
  // `spec.infrastructure.annotations` replace the Gateway's own metadata annotations as what is
  // copied onto the generated Service, Deployment and pod template from 1.21
  // (`gwInfra.Annotations`, deploymentcontroller.go@1.21.0; `extractInfrastructureMetadata`,
  // @1.22.8 to @1.28.10). Without them the Gateway's own annotations are copied, unless istiod runs
  // with `PILOT_ENABLE_GATEWAY_API_COPY_LABELS_ANNOTATIONS=false` (from 1.27, default true:
  // pilot/pkg/features/experimental.go@1.27.0, @1.30.3). Keys under `gateway.networking.k8s.io/`
  // are dropped (`translateInfraMeta`).
  const infra = gateway.spec?.infrastructure?.annotations;
  const copied = infra ?? gateway.metadata?.annotations ?? {};
  for (const [key, value] of Object.entries(copied)) {
    if (key.startsWith('gateway.networking.k8s.io/') || TEMPLATE_OMITTED_ANNOTATIONS.includes(key))
      continue;
    annotations[key] = String(value);
  }
  const typeAnnotation = gateway.metadata?.annotations?.[SERVICE_TYPE_ANNOTATION];
  let type =
    typeof typeAnnotation === 'string' && typeAnnotation !== '' ? typeAnnotation : 'LoadBalancer';
  // The Service fields the load-balancer recognition reads, as an overlay may set them.
  const spec: Record<string, unknown> = {};
  for (const overlay of overlays) {
    if (overlay.state !== 'ok') continue;
    const extra = dig(overlay.data, 'metadata', 'annotations');
    if (extra !== null && typeof extra === 'object') {
      for (const [key, value] of Object.entries(extra)) annotations[key] = String(value);
    }
    const overlayType = dig(overlay.data, 'spec', 'type');
    if (typeof overlayType === 'string') type = overlayType;
    for (const key of ['loadBalancerClass', 'externalTrafficPolicy'] as const) {
      const value = dig(overlay.data, 'spec', key);
      if (typeof value === 'string') spec[key] = value;
    }
  }
  // kube-gateway.yaml names the Service like the Deployment: `<gateway>-<class>` unless
  // gateway.istio.io/name-override says otherwise (`getDefaultName`,
  // pilot/pkg/config/kube/gateway/conversion.go@1.26.8).
  const override = gateway.metadata?.annotations?.['gateway.istio.io/name-override'];
  const name =
    typeof override === 'string' && override !== ''
      ? override
      : `${gateway.metadata?.name ?? '(unnamed)'}-${className}`;
  const service: KubeObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name,
      ...(gateway.metadata?.namespace ? { namespace: gateway.metadata.namespace } : {}),
      annotations,
    },
    spec: { ...spec, type },
  };
  return { service, recognition: recognizeServiceLoadBalancer(service, context) };
}
