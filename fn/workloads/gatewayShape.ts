/**
 * Recognises Istio gateways by structure, never by name or labels (labels are user-settable:
 * `istio: ingressgateway` is only the chart default; docs/background.md#istio).
 */
import { annotationsOf } from '../core/kubeObject.ts';
import type { Container, PodTemplate } from '../core/kubeObject.ts';
import { ISTIO_PROXY } from './meshProxies.ts';

/** How the gateway's proxy gets its settings. */
export type GatewayShape =
  /**
   * `manifests/charts/gateway`: injected with the gateway template; `proxyMetadata` becomes env at
   * injection.
   */
  | 'injected'
  /**
   * The legacy `gateways/istio-ingress` chart: not injected, the proxyv2 image runs `proxy router`
   * itself.
   */
  | 'legacy';

/** Returns the gateway shape of a pod template, or undefined when it is not an Istio gateway. */
export function gatewayShape(template: PodTemplate): GatewayShape | undefined {
  const containers = template.spec?.containers ?? [];
  const templates = annotationsOf(template.metadata)['inject.istio.io/templates'] ?? '';
  const proxy = containers.find((c) => c.name === ISTIO_PROXY);
  if (
    proxy &&
    templates
      .split(',')
      .map((t) => t.trim())
      .includes('gateway')
  )
    return 'injected';
  return containers.some(isLegacyGatewayProxy) ? 'legacy' : undefined;
}

/**
 * Returns true for the legacy chart's proxy container: a `…/proxyv2` image running `proxy router`.
 */
export function isLegacyGatewayProxy(container: Container): boolean {
  const args = container.args ?? [];
  return (
    /\/proxyv2(?::|@|$)/.test(container.image ?? '') &&
    args.includes('proxy') &&
    args.includes('router')
  );
}
