/**
 * Where a Gateway's settings go: merged into the `data.deployment` overlay of the parameters
 * ConfigMap its `spec.infrastructure.parametersRef` names, or into a new ConfigMap that the Gateway
 * is pointed at (istiod reads a parameters ConfigMap only in the Gateway's namespace:
 * fetchParameters, deploymentcontroller.go@1.26.8).
 */
import { INFRASTRUCTURE_STANDARD_SINCE } from './facts.ts';
import { notMergeable } from './finding.ts';
import type { IstioGatewayApiFinding } from './finding.ts';
import type { GeneratedPod } from './generatedPod.ts';
import { refOf } from './objects.ts';
import type { ConfigMapObject, GatewayObject } from './objects.ts';
import { mergeDeploymentOverlay } from './overlayEdit.ts';
import type { OverlaySettings } from './overlayEdit.ts';
import type { OverlayRead } from './overlayText.ts';
import type { ParametersTarget } from './target.ts';
import type { GatewayApiTiming, IstioGatewayApiOutcome } from './decision.ts';

/** What the outcome carries whatever is written. */
interface Decided {
  readonly findings: IstioGatewayApiFinding[];
  readonly timing: GatewayApiTiming;
  readonly generated: { readonly asWritten: GeneratedPod; readonly patched: GeneratedPod };
}

/** Returns the outcome that writes `settings` where the Gateway's istiod reads them. */
export function placeSettings(
  {
    gateway,
    target,
    parametersOverlay,
  }: {
    readonly gateway: GatewayObject;
    readonly target: Extract<ParametersTarget, { ok: true }>;
    readonly parametersOverlay: OverlayRead;
  },
  settings: OverlaySettings & { readonly reasons: readonly string[] },
  { findings, timing, generated }: Decided,
): IstioGatewayApiOutcome {
  const unchanged = { asWritten: generated.asWritten, patched: generated.asWritten };
  if (
    settings.graceSeconds === undefined &&
    settings.env.length === 0 &&
    settings.proxyConfig === undefined
  ) {
    return { changes: [], findings, timing, generated: unchanged };
  }
  const merged = mergeDeploymentOverlay(
    parametersOverlay.state === 'ok' ? parametersOverlay : undefined,
    settings,
  );
  if (merged === undefined) {
    return {
      changes: [],
      findings: [
        ...findings,
        notMergeable(target.name, 'data.deployment has a containers or env that is not a list'),
      ],
      timing,
      generated: unchanged,
    };
  }
  const reason = settings.reasons.join('\n');
  if (target.configMap !== undefined) {
    return {
      changes: [{ object: 'parameters', path: ['data', 'deployment'], value: merged, reason }],
      findings,
      timing,
      generated,
    };
  }
  const namespace = gateway.metadata?.namespace;
  const configMap: ConfigMapObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: target.name, ...(namespace ? { namespace } : {}) },
    data: { deployment: merged },
  };
  const why =
    `${refOf(gateway)} has no spec.infrastructure.parametersRef: kube-graceful ` +
    `creates ConfigMap ${target.name} in its namespace (istiod reads a ` +
    `parameters ConfigMap ` +
    ('only there: fetchParameters, deploymentcontroller.go@1.26.8) and ' +
      'points the Gateway at it. istiod merges its data.deployment into the ' +
      'Deployment it generates, after the class defaults, so it wins. ' +
      `spec.infrastructure needs the standard Gateway CRD of ${INFRASTRUCTURE_STANDARD_SINCE} ` +
      'or later (or the experimental channel): an older CRD prunes the field silently.');
  return {
    changes: [
      {
        object: 'gateway',
        path: ['spec', 'infrastructure', 'parametersRef'],
        value: { group: '', kind: 'ConfigMap', name: target.name },
        reason: why,
      },
    ],
    create: { configMap, reason: `${why}\n${reason}` },
    findings,
    timing,
    generated,
  };
}
