/**
 * Where a Gateway's settings go (issue #32 item 4: target resolution, apart from timing): the
 * parameters ConfigMap its `spec.infrastructure.parametersRef` names, or one kube-graceful creates
 * next to it; or why nothing can be written for it, as the one finding that says so.
 */
import { istioReached, istioVersionLabel, OVERLAYS } from './facts.ts';
import type { MinorVersion } from './facts.ts';
import type { IstioGatewayApiFinding } from './finding.ts';
import { findConfigMap, parametersRefOf, refOf } from './objects.ts';
import type { ConfigMapObject, GatewayObject } from './objects.ts';
import type { KubeObject } from '../../core/kubeObject.ts';

/** The parameters ConfigMap to write, or the finding that says why there is none. */
export type ParametersTarget =
  | {
      readonly ok: true;
      /** The ConfigMap's name: the one referenced, or the one to create. */
      readonly name: string;
      /** The referenced ConfigMap as the stream has it; absent when kube-graceful creates one. */
      readonly configMap?: ConfigMapObject;
    }
  | { readonly ok: false; readonly refusal: IstioGatewayApiFinding };

function refused(refusal: IstioGatewayApiFinding): ParametersTarget {
  return { ok: false, refusal };
}

/** Returns the name of the ConfigMap kube-graceful creates for a Gateway without parameters. */
function generatedConfigMapName(gatewayName: string): string {
  return `${gatewayName}-kube-graceful`;
}

/**
 * The longest name the API server takes for a ConfigMap: a DNS-1123 subdomain
 * (ValidateConfigMapName = NameIsDNSSubdomain, pkg/apis/core/validation/validation.go in
 * Kubernetes; DNS1123SubdomainMaxLength = 253, pkg/util/validation/validation.go@v0.34.0 of
 * k8s.io/apimachinery, the same @v0.28.0). A Gateway's name is one too, so only the length can
 * fail.
 */
const CONFIGMAP_NAME_MAX_LENGTH = 253;

/** Returns where the Gateway's settings go, or why nothing can be written for it. */
export function parametersTarget(
  gateway: GatewayObject,
  objects: readonly KubeObject[],
  istioVersion: MinorVersion & { readonly source: string },
): ParametersTarget {
  const gatewayRef = refOf(gateway);
  const version = istioVersionLabel(istioVersion);
  if (!istioReached(OVERLAYS, istioVersion)) {
    return refused({
      severity: 'warning',
      code: 'ISTIO_GATEWAY_API_OVERLAYS_UNSUPPORTED',
      object: 'gateway',
      message:
        `${gatewayRef}: istiod generates this Gateway's Deployment with a 30 s ` +
        `grace period and Istio's drain defaults, and before Istio 1.26 ` +
        (`nothing in the Gateway can change them ` +
          `(spec.infrastructure.parametersRef and class-defaults ConfigMaps are ` +
          `read from 1.26: `) +
        (`pilot/pkg/config/kube/gateway/deploymentcontroller.go@1.26.0, absent ` +
          `@1.25.5); ${version}. Nothing written. Upgrade istiod to 1.26 or ` +
          `later, `) +
        ('or deploy the gateway with the gateway Helm chart ' +
          '(manifests/charts/gateway), whose Deployment is in the rendered ' +
          'stream for kube-graceful to patch.'),
    });
  }

  // Where the settings go: the parameters ConfigMap, which istiod applies last.
  const ref = parametersRefOf(gateway);
  if (ref.kind === 'other') {
    return refused({
      severity: 'warning',
      code: 'ISTIO_GATEWAY_API_PARAMETERS_NOT_CONFIGMAP',
      object: 'gateway',
      path: ['spec', 'infrastructure', 'parametersRef'],
      message:
        `${gatewayRef}: spec.infrastructure.parametersRef names ${ref.group || 'core'}` +
        `/${ref.refKind || '(no kind)'}, but istiod accepts only a core ` +
        `ConfigMap ` +
        (`and deploys nothing for this Gateway otherwise ("unknown ` +
          `infrastructure parameters type": fetchParameters, ` +
          `deploymentcontroller.go@1.26.8). Nothing written.`),
    });
  }
  return ref.kind === 'configMap'
    ? referencedTarget(gateway, objects, ref.name)
    : createdTarget(gateway, objects);
}

/** The parameters ConfigMap the Gateway names, where the stream has it. */
function referencedTarget(
  gateway: GatewayObject,
  objects: readonly KubeObject[],
  name: string,
): ParametersTarget {
  const gatewayRef = refOf(gateway);
  const configMap = findConfigMap(objects, gateway.metadata?.namespace, name);
  if (configMap === undefined) {
    return refused({
      severity: 'warning',
      code: 'ISTIO_GATEWAY_API_PARAMETERS_NOT_IN_STREAM',
      object: 'gateway',
      path: ['spec', 'infrastructure', 'parametersRef', 'name'],
      message:
        `${gatewayRef}: its parameters ConfigMap ${name} is not in the ` +
        `stream, so its deployment overlay cannot be merged (pointing the ` +
        `Gateway ` +
        ('elsewhere would drop it). Nothing written. Render the ConfigMap ' +
          'together with the Gateway, or add the settings named by ' +
          '`kube-graceful explain` to it by hand.'),
    });
  }
  return { ok: true, name, configMap };
}

/** The ConfigMap kube-graceful creates for a Gateway without parameters, where it can. */
function createdTarget(gateway: GatewayObject, objects: readonly KubeObject[]): ParametersTarget {
  const gatewayRef = refOf(gateway);
  const namespace = gateway.metadata?.namespace;
  const gatewayName = gateway.metadata?.name ?? '(unnamed)';
  const parametersName = generatedConfigMapName(gatewayName);
  if (parametersName.length > CONFIGMAP_NAME_MAX_LENGTH) {
    return refused({
      severity: 'warning',
      code: 'ISTIO_GATEWAY_API_CONFIGMAP_NAME_TOO_LONG',
      object: 'gateway',
      message:
        `${gatewayRef}: kube-graceful would create ConfigMap <name>-kube-graceful ` +
        `for its settings, but that is ${parametersName.length} characters and the ` +
        `API server refuses a ConfigMap name over ${CONFIGMAP_NAME_MAX_LENGTH} ` +
        `(a DNS-1123 subdomain). Nothing written; create a parameters ConfigMap ` +
        `with a shorter name and set spec.infrastructure.parametersRef to it.`,
    });
  }
  if (findConfigMap(objects, namespace, parametersName) !== undefined) {
    return refused({
      severity: 'warning',
      code: 'ISTIO_GATEWAY_API_CONFIGMAP_NAME_TAKEN',
      object: 'gateway',
      message:
        `${gatewayRef}: kube-graceful would create ConfigMap ${parametersName} ` +
        `for its settings, but a ConfigMap of that name is already in the ` +
        `stream and the Gateway does not reference it. Nothing written; set ` +
        `spec.infrastructure.parametersRef to it or rename it.`,
    });
  }
  return { ok: true, name: parametersName };
}
