/**
 * Recognises the load balancer an Ingress provisions
 * (docs/background.md#load-balancers-in-front-of-gateways): AWS ALB or Azure
 * Application Gateway, and which Services the Ingress routes to.
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { annotationText as annotation, kubeObjectRef } from './kubeObject.ts';
import { parseAwsTargetGroupAttributes } from './awsTargetGroup.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import { LOAD_BALANCERS, recognitionFor as recognition } from './loadBalancerTable.ts';
import { shortestDraining } from './serviceLoadBalancer.ts';
import { specField } from '../core/kubeObject.ts';
import { AGC_CLASS, azureAgc } from './azureAgc.ts';

const ALB_TARGET_TYPE = 'alb.ingress.kubernetes.io/target-type';
const ALB_TG_ATTRIBUTES = 'alb.ingress.kubernetes.io/target-group-attributes';
const AGIC_PREFIX = 'appgw.ingress.kubernetes.io/';
const AGIC_CLASS = 'azure-application-gateway';
const AGIC_LEGACY_CLASS = 'azure/application-gateway';
const LEGACY_INGRESS_CLASS = 'kubernetes.io/ingress.class';
const GKE_NEG = 'cloud.google.com/neg';

/**
 * Recognises the load balancer an Ingress provisions: AWS ALB (`alb.ingress.kubernetes.io/*`)
 * or Azure Application Gateway (`appgw.ingress.kubernetes.io/*`, class
 * `azure-application-gateway`).
 *
 * Returns the recognition with evidence naming the Ingress and the deciding annotation or
 * field, or `undefined` when the Ingress belongs to neither (its controller, e.g.
 * ingress-nginx, is then a workload with its own Service).
 */
export function recognizeIngressLoadBalancer(
  ingress: KubeObject,
  backends: IngressBackends = { services: [], backendConfigs: [] },
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
  if (legacyClass === AGIC_LEGACY_CLASS) {
    return recognition(
      'azure-appgw',
      `${who}: Azure Application Gateway (${LEGACY_INGRESS_CLASS}: ${AGIC_LEGACY_CLASS})`,
    );
  }

  if (className === AGC_CLASS || legacyClass === AGC_CLASS) {
    const by = className === AGC_CLASS ? 'spec.ingressClassName' : LEGACY_INGRESS_CLASS;
    return azureAgc(who, `${who} (${by}: ${AGC_CLASS})`);
  }

  const targetType = annotation(ingress, ALB_TARGET_TYPE);
  const tgValue = annotation(ingress, ALB_TG_ATTRIBUTES);
  const targetGroup = parseAwsTargetGroupAttributes(tgValue ?? '');
  if (targetType === 'ip') {
    return recognition('aws-alb-ip', `${who}: AWS ALB with IP targets (${ALB_TARGET_TYPE}: ip)`, {
      targetGroup,
      targetType: 'ip',
    });
  }
  const albBy =
    targetType !== undefined
      ? `${ALB_TARGET_TYPE}: ${targetType}`
      : className === 'alb'
        ? 'spec.ingressClassName: alb'
        : legacyClass === 'alb'
          ? `${LEGACY_INGRESS_CLASS}: alb`
          : undefined;
  if (albBy !== undefined) {
    // Instance targets (the controller's default) have no measured window; the IP-target
    // window is the longer reading, so it is the conservative choice. The target group holds
    // nodes, which a pod's deletion does not deregister: no target-group timing applies to it.
    return recognition('aws-alb-ip', `${who}: AWS ALB with instance targets (${albBy})`, {
      targetType: 'instance',
      note:
        `No measured window for an ALB with instance targets; ` +
        `using the IP-target window (${LOAD_BALANCERS['aws-alb-ip'].drainWindowSeconds} s) ` +
        `as the conservative choice.`,
    });
  }
  return undefined;
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
