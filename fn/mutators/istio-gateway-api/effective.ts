/**
 * What the generated Deployment gets today for the settings the drain plan owns: the grace period,
 * istio-proxy's MINIMUM_DRAIN_DURATION and EXIT_ON_ZERO_ACTIVE_CONNECTIONS, and the pod's
 * `proxy.istio.io/config`. istiod renders the kube-gateway template (which sets none of them:
 * kube-gateway.yaml@1.26.8, @1.30.3), then merges the class defaults, then the Gateway's
 * parameters (`render`, deploymentcontroller.go@1.26.8): the later overlay wins key by key, list
 * items by `name`.
 */
import { PROXY_CONFIG_ANNOTATION, PROXY_CONTAINER } from './facts.ts';
import type { GatewayObject } from './objects.ts';
import type { OverlayRead } from './overlayText.ts';
import { dig, namedItem } from './overlayText.ts';

/** Which layer a value comes from. */
export type Layer = 'parameters' | 'class-defaults' | 'gateway-annotations';

/** A value and the layer that sets it. */
export interface Layered<T> {
  readonly value: T;
  readonly layer: Layer;
}

/** An env entry as an overlay writes it. */
interface EnvSetting {
  readonly value?: unknown;
  readonly valueFrom?: unknown;
}

/** The settings in effect, each absent when no layer sets it (istiod's template default
 * applies). */
export interface EffectiveSettings {
  readonly grace?: Layered<unknown>;
  readonly env: Readonly<Record<string, Layered<EnvSetting>>>;
  readonly proxyConfig?: Layered<unknown>;
  /** istio-proxy's readinessProbe fields the overlays set, merged (parameters over class
   * defaults, key by key, as the strategic merge does), over the template's. */
  readonly readinessProbe: Readonly<Record<string, unknown>>;
}

/** The env names the plan owns. */
const OWNED_ENV = ['MINIMUM_DRAIN_DURATION', 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS'] as const;

/**
 * Returns the settings in effect from the class-defaults overlay, the parameters overlay and the
 * annotations the Gateway copies onto the pod template (the kube-gateway template puts them in
 * `spec.template.metadata.annotations`, kube-gateway.yaml@1.26.8, @1.30.3). Unreadable overlays
 * count as absent (the caller reports them).
 */
export function effectiveSettings(
  gateway: GatewayObject,
  classOverlay: OverlayRead,
  parametersOverlay: OverlayRead,
): EffectiveSettings {
  const layers: Array<[Layer, OverlayRead]> = [
    ['parameters', parametersOverlay],
    ['class-defaults', classOverlay],
  ];
  let grace: Layered<unknown> | undefined;
  let proxyConfig: Layered<unknown> | undefined;
  const env: Record<string, Layered<EnvSetting>> = {};
  let readinessProbe: Record<string, unknown> = {};
  for (const [layer, overlay] of layers) {
    if (overlay.state !== 'ok') continue;
    const podSpec = dig(overlay.data, 'spec', 'template', 'spec');
    const ownGrace = dig(podSpec, 'terminationGracePeriodSeconds');
    if (grace === undefined && ownGrace !== undefined && ownGrace !== null)
      grace = { value: ownGrace, layer };
    const ownProxyConfig = dig(
      overlay.data,
      'spec',
      'template',
      'metadata',
      'annotations',
      PROXY_CONFIG_ANNOTATION,
    );
    if (proxyConfig === undefined && ownProxyConfig !== undefined && ownProxyConfig !== null)
      proxyConfig = { value: ownProxyConfig, layer };
    const proxy = namedItem(dig(podSpec, 'containers'), PROXY_CONTAINER);
    // Layers run from the most specific: one read later lies under what is already read.
    const probe = proxy?.item['readinessProbe'];
    if (probe !== null && typeof probe === 'object' && !Array.isArray(probe))
      readinessProbe = { ...(probe as Record<string, unknown>), ...readinessProbe };
    for (const name of OWNED_ENV) {
      const entry = namedItem(proxy?.item['env'], name);
      if (env[name] === undefined && entry !== undefined)
        env[name] = {
          value: { value: entry.item['value'], valueFrom: entry.item['valueFrom'] },
          layer,
        };
    }
  }
  if (proxyConfig === undefined) {
    const infra = gateway.spec?.infrastructure?.annotations;
    const copied = infra ?? gateway.metadata?.annotations;
    const fromGateway = copied?.[PROXY_CONFIG_ANNOTATION];
    if (fromGateway !== undefined && fromGateway !== null)
      proxyConfig = { value: fromGateway, layer: 'gateway-annotations' };
  }
  return {
    ...(grace ? { grace } : {}),
    env,
    ...(proxyConfig ? { proxyConfig } : {}),
    readinessProbe,
  };
}

/** Returns the layer in words for messages. */
export function layerName(
  layer: Layer,
  names: { readonly parameters?: string; readonly classDefaults?: string },
): string {
  if (layer === 'parameters')
    return `the Gateway's parameters ConfigMap ${names.parameters ?? ''}`.trimEnd();
  if (layer === 'class-defaults')
    return `the class-defaults ConfigMap ${names.classDefaults ?? ''}`.trimEnd();
  return "the Gateway's infrastructure annotations (copied onto the pod template)";
}
