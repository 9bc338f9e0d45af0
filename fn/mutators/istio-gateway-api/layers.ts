/**
 * The overlays istiod merges into the Deployment and Service it generates for a Gateway (issue #32
 * item 4: read apart from the timing): its class defaults (a ConfigMap labelled
 * gateway.istio.io/defaults-for-class) and its parameters ConfigMap, with the findings about
 * them. The parameters' deployment overlay must be readable, since the settings are merged into it.
 */
import type { IstioGatewayApiFinding } from './finding.ts';
import { notMergeable } from './finding.ts';
import { classDefaultsFor, refOf } from './objects.ts';
import type { ConfigMapObject } from './objects.ts';
import { readOverlay } from './overlayText.ts';
import type { OverlayRead } from './overlayText.ts';
import type { KubeObject } from '../../core/kubeObject.ts';

/** The overlays read, or the findings that say why the Gateway cannot be planned. */
type Layers =
  | {
      readonly ok: true;
      readonly findings: readonly IstioGatewayApiFinding[];
      readonly classDefaults: ReturnType<typeof classDefaultsFor>;
      readonly classOverlay: OverlayRead;
      readonly classService: OverlayRead;
      readonly parametersOverlay: Exclude<OverlayRead, { state: 'unreadable' }>;
      readonly parametersService: OverlayRead;
    }
  | { readonly ok: false; readonly findings: readonly IstioGatewayApiFinding[] };

/** Returns the class defaults' and the parameters' overlays, with findings about them. */
export function readLayers(
  inputs: {
    readonly objects: readonly KubeObject[];
    readonly className: string;
    readonly istiodNamespace?: string;
  },
  target: { readonly name: string; readonly configMap?: ConfigMapObject },
): Layers {
  const { objects } = inputs;
  const findings: IstioGatewayApiFinding[] = [];
  const classDefaults = classDefaultsFor(objects, inputs.className, inputs.istiodNamespace);
  if (classDefaults?.ambiguous) {
    findings.push({
      severity: 'info',
      code: 'ISTIO_GATEWAY_API_CLASS_DEFAULTS_AMBIGUOUS',
      object: 'class-defaults',
      message:
        `Several ConfigMaps carry gateway.istio.io/defaults-for-class: ${inputs.className}` +
        `; istiod applies the oldest (controllers.OldestObject, ` +
        `deploymentcontroller.go@1.26.8), which a render cannot tell. ` +
        `Read as ${refOf(classDefaults.configMap)}.`,
    });
  }
  if (classDefaults === undefined) {
    // Class defaults usually come with istiod's own release, not with the Gateway: what they set
    // (a larger grace, NLB annotations) is invisible here, and the Gateway's overlay wins over it.
    const istiodNamespace = inputs.istiodNamespace ? ` (namespace ${inputs.istiodNamespace})` : '';
    findings.push({
      severity: 'info',
      code: 'ISTIO_GATEWAY_API_CLASS_DEFAULTS_NOT_IN_STREAM',
      object: 'gateway',
      message:
        `No ConfigMap labelled gateway.istio.io/defaults-for-class: ${inputs.className} ` +
        `is in the stream${istiodNamespace}; ` +
        ("the plan assumes there is none (the istiod chart's gatewayClasses " +
          'value is empty by default). If there is one, what it sets for the ' +
          'Deployment is ') +
        ('overridden for this Gateway by the values written here, and ' +
          'load-balancer annotations in its service overlay are not counted: ' +
          'render it with the Gateway, or set drain-window.'),
    });
  }
  const classOverlay = readOverlay(classDefaults?.configMap, 'deployment');
  const classService = readOverlay(classDefaults?.configMap, 'service');
  const parametersOverlay = readOverlay(target.configMap, 'deployment');
  const parametersService = readOverlay(target.configMap, 'service');
  for (const [read, object, key] of [
    [classOverlay, 'class-defaults', 'deployment'],
    [classService, 'class-defaults', 'service'],
    [parametersService, 'parameters', 'service'],
  ] as const) {
    if (read.state === 'unreadable') {
      findings.push({
        severity: 'warning',
        code: 'ISTIO_GATEWAY_API_OVERLAY_NOT_MERGEABLE',
        object,
        path: ['data', key],
        message: `${read.problem}: read as absent for this Gateway's plan.`,
      });
    }
  }
  if (parametersOverlay.state === 'unreadable')
    return {
      ok: false,
      findings: [...findings, notMergeable(target.name, parametersOverlay.problem)],
    };
  return {
    ok: true,
    findings,
    classDefaults,
    classOverlay,
    classService,
    parametersOverlay,
    parametersService,
  };
}
