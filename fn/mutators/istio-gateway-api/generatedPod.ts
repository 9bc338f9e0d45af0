/**
 * The part of the pod istiod generates for a Gateway that its shutdown depends on, as the overlays
 * in effect make it and as the settings written make it: what `explain` reads, with the same
 * readers as for a gateway chart's pod (fn/explanation/podSettings.ts). The kube-gateway template
 * itself sets none of these fields and no preStop (kube-gateway.yaml@1.26.8, @1.30.3), so what is
 * not in an overlay is absent here too, and Kubernetes' or Istio's default applies.
 */
import type { Container, PodTemplate } from '../../core/kubeObject.ts';
import type { EffectiveSettings } from './effective.ts';
import { PROXY_CONFIG_ANNOTATION, PROXY_CONTAINER } from './facts.ts';
import type { OverlaySettings } from './overlayEdit.ts';

/** Returns the generated pod's template as `effective` makes it, with `written` merged over it. */
export function generatedPod(effective: EffectiveSettings, written?: OverlaySettings): PodTemplate {
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
      ? { metadata: { annotations: { [PROXY_CONFIG_ANNOTATION]: String(proxyConfig) } } }
      : {}),
    spec: {
      ...(grace !== undefined ? { terminationGracePeriodSeconds: grace as number } : {}),
      containers: [{ name: PROXY_CONTAINER, env: [...env.values()] }],
    },
  } as PodTemplate;
}
