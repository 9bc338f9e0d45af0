/**
 * An Ingress the AWS Load Balancer Controller takes: an ALB, whose targets are the pods (IP
 * targets) or the nodes (instance targets, the controller's default). Which one, and the target
 * group's attributes, are read as the controller reads them for each Service behind the Ingress
 * (kubernetes-sigs/aws-load-balancer-controller pkg/ingress/model_build_target_group.go@v2.17.1
 * buildTargetGroupSpec): the Service's annotation before the Ingress's (pkg/algorithm/maps.go
 * MergeStringMap keeps the first), and the target type of the IngressClassParams its IngressClass
 * names over both (buildTargetGroupTargetType).
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { specField } from '../core/kubeObject.ts';
import { annotationText as annotation, kubeObjectRef } from './kubeObject.ts';
import { parseAwsTargetGroupAttributes } from './awsTargetGroup.ts';
import type { IngressClassOf } from './ingressControllers.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import { LOAD_BALANCERS, recognitionFor as recognition } from './loadBalancerTable.ts';

const ALB_TARGET_TYPE = 'alb.ingress.kubernetes.io/target-type';
const ALB_TG_ATTRIBUTES = 'alb.ingress.kubernetes.io/target-group-attributes';
// pkg/ingress/class_loader.go@v2.17.1 (IngressClassControllerALB)
const ALB_CONTROLLER = 'ingress.k8s.aws/alb';
const PARAMS_GROUP = 'elbv2.k8s.aws';

/** The stream's objects the ALB's target groups are read from. */
export interface AlbBackends {
  /** The Services the Ingress routes to that select the pods being planned. */
  readonly services: readonly KubeObject[];
  /** The stream's `elbv2.k8s.aws` IngressClassParams, which an IngressClass may name. */
  readonly ingressClassParams: readonly KubeObject[];
}

/**
 * Returns the ALB an Ingress provisions, where its class is the controller's (`alb`, or an
 * IngressClass naming `ingress.k8s.aws/alb`) or it carries the target-type annotation; undefined
 * otherwise. IP targets where any Service behind it gets them, with that Service's target group.
 */
export function recognizeAlbIngress(
  ingress: KubeObject,
  who: string,
  ingressClass: IngressClassOf,
  backends: AlbBackends,
): LoadBalancerRecognition | undefined {
  const albClass =
    ingressClass.controller === undefined
      ? ingressClass.name === 'alb'
      : ingressClass.controller === ALB_CONTROLLER;
  const ownType = annotation(ingress, ALB_TARGET_TYPE);
  if (!albClass && ownType === undefined) return undefined;
  const params = albClass ? classParams(ingressClass, backends.ingressClassParams) : undefined;
  const fallbacks = backends.services.length > 0 ? backends.services : [undefined];
  const reads = fallbacks.map((service) => ({
    service,
    ...targetTypeOf(ingress, service, params),
  }));
  const ip = reads.find((r) => r.type === 'ip');
  if (ip !== undefined) {
    const attributes = albAnnotation(ALB_TG_ATTRIBUTES, ingress, ip.service);
    return recognition('aws-alb-ip', `${who}: AWS ALB with IP targets (${ip.by})`, {
      targetGroup: parseAwsTargetGroupAttributes(attributes?.value ?? ''),
      targetType: 'ip',
      ...(attributes?.onService === undefined
        ? {}
        : { targetGroupAttributesIn: `the ${ALB_TG_ATTRIBUTES} of ${attributes.onService}` }),
    });
  }
  const by = reads.find((r) => r.by !== undefined)?.by ?? ingressClass.by;
  // Instance targets (the controller's default) have no measured window; the IP-target window is
  // the longer reading, so it is the conservative choice. The target group holds nodes, which a
  // pod's deletion does not deregister: no target-group timing applies to it.
  return recognition('aws-alb-ip', `${who}: AWS ALB with instance targets (${by})`, {
    targetType: 'instance',
    note:
      `No measured window for an ALB with instance targets; ` +
      `using the IP-target window (${LOAD_BALANCERS['aws-alb-ip'].drainWindowSeconds} s) ` +
      `as the conservative choice.`,
  });
}

/** A value as the controller reads it, and where it was read, as a phrase for evidence. */
interface Read {
  readonly value: string;
  readonly by: string;
  /** The Service it was read on ("Service ns/name"), where not on the Ingress. */
  readonly onService?: string;
}

function targetTypeOf(
  ingress: KubeObject,
  service: KubeObject | undefined,
  params: KubeObject | undefined,
): { type?: string; by?: string } {
  const fromParams = params && specField(params, 'targetType');
  if (typeof fromParams === 'string' && fromParams !== '')
    return {
      type: fromParams,
      by: `IngressClassParams ${params?.metadata?.name ?? ''} targetType: ${fromParams}`,
    };
  const read = albAnnotation(ALB_TARGET_TYPE, ingress, service);
  return read === undefined ? {} : { type: read.value, by: read.by };
}

function albAnnotation(
  key: string,
  ingress: KubeObject,
  service: KubeObject | undefined,
): Read | undefined {
  const fromService = service && annotation(service, key);
  if (fromService !== undefined) {
    const onService = `Service ${kubeObjectRef(service!)}`;
    return { value: fromService, by: `${onService} ${key}: ${fromService}`, onService };
  }
  const fromIngress = annotation(ingress, key);
  return fromIngress === undefined
    ? undefined
    : { value: fromIngress, by: `${key}: ${fromIngress}` };
}

/** The IngressClassParams that the IngressClass names in `spec.parameters`, if in the input. */
function classParams(
  ingressClass: IngressClassOf,
  all: readonly KubeObject[],
): KubeObject | undefined {
  const ref = ingressClass.parameters;
  if (ref?.kind !== 'IngressClassParams' || ref.apiGroup !== PARAMS_GROUP) return undefined;
  return all.find((p) => p.metadata?.name === ref.name);
}
