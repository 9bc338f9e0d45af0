/**
 * Which controller takes an Ingress, and whether kube-graceful knows it to be an in-cluster proxy:
 * one whose pods follow the Service's endpoints, so that the in-cluster window holds for the pods
 * behind it (the proxies' own load balancer is planned with the proxies). An Ingress of any other
 * class, or of no class where the input shows no default IngressClass, may be taken by a cloud
 * load balancer sending to the pods directly (GKE takes an Ingress of no class:
 * kubernetes/ingress-gce pkg/utils/utils.go@v1.41.1 IsGCEIngress): not modelled.
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { annotationText as annotation } from './kubeObject.ts';
import { specField } from '../core/kubeObject.ts';

/** The annotation that named an Ingress's class before `spec.ingressClassName`. */
export const LEGACY_INGRESS_CLASS = 'kubernetes.io/ingress.class';
/** Marks the IngressClass that the API server writes into an Ingress created without one. */
const DEFAULT_CLASS = 'ingressclass.kubernetes.io/is-default-class';

/** IngressClass `spec.controller` values of in-cluster proxies, each with where it is defined. */
const IN_CLUSTER_CONTROLLERS: Readonly<Record<string, string>> = {
  // kubernetes/ingress-nginx internal/ingress/controller/ingressclass/ingressclass.go
  // @controller-v1.15.1 (DefaultControllerName)
  'k8s.io/ingress-nginx': 'ingress-nginx',
  // traefik/traefik pkg/provider/kubernetes/ingress/kubernetes.go@v3.7.9
  'traefik.io/ingress-controller': 'Traefik',
  // Kong/kubernetes-ingress-controller internal/store/store.go@v3.5.9
  'ingress-controllers.konghq.com/kong': 'Kong',
  // istio/istio pilot/pkg/config/kube/ingress/virtualservices.go@1.30.3
  'istio.io/ingress-controller': 'Istio',
};

/**
 * Contour takes Ingresses by class name and never reads its IngressClass's controller
 * (projectcontour/contour internal/ingressclass/ingressclass.go@v1.33.6); its charts name one under
 * this prefix (Bitnami's contour chart 21.1.4 writes `projectcontour.io/<namespace>/<release>`).
 */
const CONTOUR_CONTROLLER_PREFIX = 'projectcontour.io/';

/**
 * The class each in-cluster proxy takes when it is given none, so that an Ingress of that name is
 * its even where the input does not hold the IngressClass.
 */
const DEFAULT_CLASS_NAMES: Readonly<Record<string, string>> = {
  // ingressclass.go@controller-v1.15.1 (DefaultAnnotationValue)
  nginx: 'ingress-nginx',
  // kubernetes.go@v3.7.9 (traefikDefaultIngressClass)
  traefik: 'Traefik',
  // internal/ingressclass/ingressclass.go@v1.33.6 (DefaultClassName)
  contour: 'Contour',
  // Kong/kubernetes-ingress-controller internal/annotations/annotations.go@v3.5.9
  // (DefaultIngressClass)
  kong: 'Kong',
  // istio/istio pkg/config/mesh/mesh.go@1.30.3 (the mesh config's default ingressClass)
  istio: 'Istio',
};

/** An Ingress's class as the input shows it. */
export interface IngressClassOf {
  /** The class name: the Ingress's own, else the name of the input's default IngressClass. */
  readonly name?: string;
  /** The `spec.controller` of the input's IngressClass of that name, where there is one. */
  readonly controller?: string;
  /** Where the class was read, as a phrase for evidence: "spec.ingressClassName: nginx". */
  readonly by: string;
  /** The `spec.parameters` of that IngressClass: the controller's own settings for the class. */
  readonly parameters?: {
    readonly apiGroup?: unknown;
    readonly kind?: unknown;
    readonly name?: unknown;
  };
}

/**
 * Returns the class of an Ingress: `spec.ingressClassName`, else the legacy annotation, else the
 * default IngressClass among `ingressClasses` (the API server writes it into an Ingress created
 * without a class), with the controller of the IngressClass of that name where the input has it.
 */
export function ingressClassOf(
  ingress: KubeObject,
  ingressClasses: readonly KubeObject[],
): IngressClassOf {
  const own = specField(ingress, 'ingressClassName');
  const legacy = annotation(ingress, LEGACY_INGRESS_CLASS);
  const named = (name: string) => ingressClasses.find((c) => c.metadata?.name === name);
  const controllerOf = (c: KubeObject | undefined) => {
    const controller = c && specField(c, 'controller');
    const parameters = c && specField(c, 'parameters');
    return {
      ...(typeof controller === 'string' ? { controller } : {}),
      ...(parameters !== null && typeof parameters === 'object' ? { parameters } : {}),
    };
  };
  if (typeof own === 'string' && own !== '')
    return { name: own, ...controllerOf(named(own)), by: `spec.ingressClassName: ${own}` };
  if (legacy !== undefined && legacy !== '')
    return {
      name: legacy,
      ...controllerOf(named(legacy)),
      by: `${LEGACY_INGRESS_CLASS}: ${legacy}`,
    };
  const fallback = ingressClasses.find((c) => annotation(c, DEFAULT_CLASS) === 'true');
  if (fallback === undefined) return { by: 'no class' };
  // An IngressClass is cluster-scoped: named by its name alone, even where the input writes a
  // namespace on it (the API server clears it: k8s.io/apiserver pkg/registry/rest/meta.go
  // EnsureObjectNamespaceMatchesRequestNamespace, "cluster-scoped, clear namespace").
  const name = fallback.metadata?.name ?? '';
  return { name, ...controllerOf(fallback), by: `no class, so the default IngressClass ${name}` };
}

/**
 * Returns the in-cluster proxy that takes an Ingress of this class, from its IngressClass's
 * controller where the input has one, else from the class name a proxy takes by default; undefined
 * when neither is known.
 */
export function inClusterIngressController(ingressClass: IngressClassOf): string | undefined {
  const { name, controller } = ingressClass;
  if (controller !== undefined) {
    if (controller.startsWith(CONTOUR_CONTROLLER_PREFIX)) return 'Contour';
    return Object.hasOwn(IN_CLUSTER_CONTROLLERS, controller)
      ? IN_CLUSTER_CONTROLLERS[controller]
      : undefined;
  }
  return name !== undefined && Object.hasOwn(DEFAULT_CLASS_NAMES, name)
    ? DEFAULT_CLASS_NAMES[name]
    : undefined;
}
