/**
 * The part of the pod istiod generates for a Gateway that its shutdown depends on, as the overlays
 * in effect make it and as the settings written make it: what `explain` reads, with the same
 * readers as for a gateway chart's pod (fn/explanation/podSettings.ts). The kube-gateway template
 * itself sets none of these fields and no preStop (kube-gateway.yaml@1.26.8, @1.30.3), so what is
 * not in an overlay is absent here too, and Kubernetes' or Istio's default applies.
 */
import type { Container, PodTemplate } from '../../core/kubeObject.ts';
import { scalarText } from '../../core/scalarText.ts';
import { layerName } from './effective.ts';
import type { EffectiveSettings, Layer } from './effective.ts';
import { KUBE_GATEWAY_READINESS_PROBE, PROXY_CONFIG_ANNOTATION, PROXY_CONTAINER } from './facts.ts';
import type { OverlaySettings } from './overlayEdit.ts';

/** The generated pod's settings, and where each that is set comes from (for explain's rows). */
export interface GeneratedPod {
  readonly template: PodTemplate;
  /** By setting (`terminationGracePeriodSeconds`, an env name, the annotation): which ConfigMap. */
  readonly sources: Readonly<Record<string, string>>;
}

/**
 * Returns the generated pod as `effective` makes it, with `written` merged over it; `names` name
 * the layers' ConfigMaps for the sources.
 */
export function generatedPod(
  effective: EffectiveSettings,
  names: { readonly parameters: string; readonly classDefaults: string },
  written?: OverlaySettings,
): GeneratedPod {
  const sources: Record<string, string> = {};
  const from = (layer: Layer) => layerName(layer, names);
  const ours = `ConfigMap ${names.parameters} data.deployment`;
  if (effective.grace) sources['terminationGracePeriodSeconds'] = from(effective.grace.layer);
  if (effective.proxyConfig) sources[PROXY_CONFIG_ANNOTATION] = from(effective.proxyConfig.layer);
  for (const [name, { layer }] of Object.entries(effective.env)) sources[name] = from(layer);
  if (written?.graceSeconds !== undefined) sources['terminationGracePeriodSeconds'] = ours;
  if (written?.proxyConfig !== undefined) sources[PROXY_CONFIG_ANNOTATION] = ours;
  for (const { name } of written?.env ?? []) sources[name] = ours;
  return { template: template(effective, written), sources };
}

/** The template part of generatedPod. */
function template(effective: EffectiveSettings, written?: OverlaySettings): PodTemplate {
  const env = new Map<string, NonNullable<Container['env']>[number]>();
  for (const [name, { value }] of Object.entries(effective.env))
    env.set(name, {
      name,
      ...(value.valueFrom !== undefined ? { valueFrom: value.valueFrom } : {}),
      ...(value.value !== undefined ? { value: value.value } : {}),
    } as NonNullable<Container['env']>[number]);
  for (const { name, value } of written?.env ?? []) env.set(name, { name, value });
  const grace = written?.graceSeconds ?? effective.grace?.value;
  const proxyConfig = written?.proxyConfig ?? effective.proxyConfig?.value;
  return {
    ...(proxyConfig !== undefined
      ? { metadata: { annotations: { [PROXY_CONFIG_ANNOTATION]: scalarText(proxyConfig) } } }
      : {}),
    spec: {
      ...(grace !== undefined ? { terminationGracePeriodSeconds: grace as number } : {}),
      containers: [
        {
          name: PROXY_CONTAINER,
          env: [...env.values()],
          readinessProbe: { ...KUBE_GATEWAY_READINESS_PROBE, ...effective.readinessProbe },
        },
      ],
    },
  };
}
