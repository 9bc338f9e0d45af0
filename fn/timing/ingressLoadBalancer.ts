/**
 * Recognises the load balancer an Ingress provisions
 * (docs/background.md#load-balancers-in-front-of-gateways): AWS ALB or Azure
 * Application Gateway, an in-cluster controller, or one not modelled; and which Services the
 * Ingress routes to.
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { annotationText as annotation, kubeObjectRef } from './kubeObject.ts';
import { recognizeAlbIngress } from './albIngress.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import { recognitionFor as recognition } from './loadBalancerTable.ts';
import { shortestDraining } from './serviceLoadBalancer.ts';
import { specField } from '../core/kubeObject.ts';
import { azureAgc, isAzureAgc } from './azureAgc.ts';
import {
  LEGACY_INGRESS_CLASS,
  inClusterIngressController,
  ingressClassOf,
} from './ingressControllers.ts';
import { unmodelledIngress } from './unmodelledIngress.ts';

const AGIC_PREFIX = 'appgw.ingress.kubernetes.io/';
// Azure/application-gateway-kubernetes-ingress pkg/environment/environment.go@1.9.8: the
// IngressClass its chart makes (DefaultIngressClassResourceName), and the controller name, which
// is also the legacy class annotation's value (DefaultIngressClassController; the controller name
// is taken from the class when one is set).
const AGIC_CLASS = 'azure-application-gateway';
const AGIC_CONTROLLER = 'azure/application-gateway';
const GKE_NEG = 'cloud.google.com/neg';

/**
 * Recognises the load balancer an Ingress provisions: AWS ALB (`alb.ingress.kubernetes.io/*`)
 * or Azure Application Gateway (`appgw.ingress.kubernetes.io/*`, class
 * `azure-application-gateway`).
 *
 * Returns the recognition with evidence naming the Ingress and the deciding annotation or
 * field; `undefined` when an in-cluster controller kube-graceful knows takes it (e.g.
 * ingress-nginx: a workload with its own Service, so the pods' in-cluster window holds); the
 * window marked not modelled for any other controller.
 */
export function recognizeIngressLoadBalancer(
  ingress: KubeObject,
  backends: IngressBackends = {
    services: [],
    backendConfigs: [],
    ingressClasses: [],
    ingressClassParams: [],
  },
): LoadBalancerRecognition | undefined {
  const who = `Ingress ${kubeObjectRef(ingress)}`;
  const recognized = recognizeIngress(ingress, who, backends);
  return recognized && { ...recognized, subject: who };
}

/** The stream's objects behind an Ingress that refine what its load balancer does. */
export interface IngressBackends {
  /** The Services it routes to that select the pods being planned. */
  readonly services: readonly KubeObject[];
  /** The stream's GKE BackendConfigs, which those Services may name. */
  readonly backendConfigs: readonly KubeObject[];
  /** The stream's IngressClasses: which controller takes a class, and the default class. */
  readonly ingressClasses: readonly KubeObject[];
  /** The stream's AWS IngressClassParams, which an ALB's IngressClass may name. */
  readonly ingressClassParams: readonly KubeObject[];
}

function recognizeIngress(
  ingress: KubeObject,
  who: string,
  backends: IngressBackends,
): LoadBalancerRecognition | undefined {
  const className = specField(ingress, 'ingressClassName');
  const legacyClass = annotation(ingress, LEGACY_INGRESS_CLASS);
  if (legacyClass !== undefined && GKE_CLASSES.includes(legacyClass))
    return recognizeGkeIngress(who, legacyClass, backends);

  // AGIC is checked first: its window (90 s) is the longer, so an Ingress carrying both
  // controllers' annotations gets the conservative one.
  const agicKey = Object.keys(ingress.metadata?.annotations ?? {}).find((k) =>
    k.startsWith(AGIC_PREFIX),
  );
  if (agicKey !== undefined) {
    return recognition(
      'azure-appgw',
      `${who}: Azure Application Gateway (${agicKey}: ${annotation(ingress, agicKey)})`,
    );
  }
  if (className === AGIC_CLASS) {
    return recognition(
      'azure-appgw',
      `${who}: Azure Application Gateway (spec.ingressClassName: ${AGIC_CLASS})`,
    );
  }
  if (legacyClass === AGIC_CONTROLLER) {
    return recognition(
      'azure-appgw',
      `${who}: Azure Application Gateway (${LEGACY_INGRESS_CLASS}: ${AGIC_CONTROLLER})`,
    );
  }

  const ingressClass = ingressClassOf(ingress, backends.ingressClasses);
  if (ingressClass.controller === AGIC_CONTROLLER) {
    return recognition(
      'azure-appgw',
      `${who}: Azure Application Gateway (${ingressClass.by}, controller ${AGIC_CONTROLLER})`,
    );
  }
  if (isAzureAgc(ingressClass.name, ingressClass.controller))
    return azureAgc(who, `${who} (${ingressClass.by})`);

  return (
    recognizeAlbIngress(ingress, who, ingressClass, backends) ??
    (inClusterIngressController(ingressClass) === undefined
      ? unmodelledIngress(who, ingressClass)
      : undefined)
  );
}

/**
 * The classes GKE's Ingress controller takes, read from the annotation only (it has no IngressClass
 * for `spec.ingressClassName`): kubernetes/ingress-gce pkg/annotations/ingress.go@v1.41.1,
 * pkg/utils/utils.go@v1.41.1 IsGCEIngress. An Ingress with no class at all is GKE's too, but only
 * on GKE, which the stream does not show.
 */
const GKE_CLASSES: readonly string[] = ['gce', 'gce-internal', 'gce-regional-external'];

/**
 * A GKE Ingress: its load balancer reaches the pods through NEGs where the Service enables them,
 * and must for a ClusterIP Service, `gce-internal` and `gce-regional-external`
 * (pkg/controller/translator/translator.go@v1.41.1 maybeEnableNEG); GKE adds the NEG annotation
 * itself on VPC-native clusters. Otherwise (a NodePort Service on a cluster without that default)
 * it uses instance groups, the nodes as targets, whose window is shorter: NEG is planned with and a
 * note says so. Connection draining comes from the Service's BackendConfig, as for a NEG Service.
 */
function recognizeGkeIngress(
  who: string,
  className: string,
  backends: IngressBackends,
): LoadBalancerRecognition {
  const negRequired =
    className !== 'gce' ||
    backends.services.every((s) => {
      const type = specField(s, 'type');
      return type === undefined || type === 'ClusterIP';
    });
  const drainings = backends.services.map((s) => shortestDraining(s, backends.backendConfigs));
  const draining = drainings
    .map((d) => d.draining)
    .reduce<{ seconds: number; backendConfig?: string } | undefined>(
      (a, b) => (a === undefined || b.seconds < a.seconds ? b : a),
      undefined,
    );
  const missing = drainings.flatMap((d) => d.missing);
  const notes = [
    ...(negRequired
      ? []
      : [
          `A gce Ingress in front of a NodePort Service without ${GKE_NEG}: GKE uses NEGs where ` +
            `the cluster is VPC-native (its default), else instance groups, whose window is ` +
            `shorter; NEG is planned with. Set ${GKE_NEG} on the Service to make it certain.`,
        ]),
    ...(missing.length > 0
      ? [
          `BackendConfig ${missing.join(', ')} is not in the stream, so its connectionDraining ` +
            `is unknown; planned as if it set none (draining off).`,
        ]
      : []),
  ];
  return recognition(
    'gke-neg',
    `${who}: GKE Ingress, container-native load balancing (${LEGACY_INGRESS_CLASS}: ` +
      `${className}${negRequired ? '' : ', NEG assumed'})`,
    {
      connectionDraining: draining ?? { seconds: 0 },
      ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
    },
  );
}

/**
 * Returns the names of the Services an Ingress routes to (default backend and every rule
 * path, networking.k8s.io/v1 and the older v1beta1 shape), without duplicates, so a caller
 * can follow Ingress → Service → pods.
 */
export function ingressBackendServiceNames(ingress: KubeObject): string[] {
  const names = new Set<string>();
  const add = (backend: unknown): void => {
    if (backend === null || typeof backend !== 'object') return;
    const b = backend as { service?: { name?: unknown }; serviceName?: unknown };
    if (typeof b.service?.name === 'string') names.add(b.service.name);
    if (typeof b.serviceName === 'string') names.add(b.serviceName);
  };
  add(specField(ingress, 'defaultBackend'));
  add(specField(ingress, 'backend'));
  // Each level as parsed: a value of another type there reads as absent.
  const rules = specField(ingress, 'rules') as Array<{
    http?: { paths?: Array<{ backend?: unknown } | null> | null } | null;
  } | null>;
  for (const rule of Array.isArray(rules) ? rules : []) {
    const paths = rule?.http?.paths;
    for (const path of Array.isArray(paths) ? paths : []) add(path?.backend);
  }
  return [...names];
}
