/**
 * Recognises the load balancer in front of a Service (DOMAIN §4): AWS NLB, GKE NEG, generic
 * `type: LoadBalancer` or in-cluster only. Where the manifest shows a case §4 has no row for,
 * the longest plausible window is taken (DOMAIN intro: prefer the conservative choice) and
 * `note` says so.
 */
import type { KubeObject } from '../workloads/kubeObject.ts';
import { annotationText as annotation, kubeObjectRef } from './kubeObject.ts';
import { parseAwsTargetGroupAttributes } from './awsTargetGroup.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import { LOAD_BALANCERS, recognitionFor as recognition } from './loadBalancerTable.ts';

const AWS_LB_TYPE = 'service.beta.kubernetes.io/aws-load-balancer-type';
const AWS_NLB_TARGET_TYPE = 'service.beta.kubernetes.io/aws-load-balancer-nlb-target-type';
const AWS_SERVICE_TG_ATTRIBUTES = 'service.beta.kubernetes.io/aws-load-balancer-target-group-attributes';
/** spec.loadBalancerClass the AWS Load Balancer Controller owns (its Service docs). */
const AWS_NLB_CLASS = 'service.k8s.aws/nlb';
const GKE_NEG = 'cloud.google.com/neg';
const GKE_BACKEND_CONFIG = ['cloud.google.com/backend-config', 'beta.cloud.google.com/backend-config'];

/** Optional neighbours from the same stream that refine a Service's drain window. */
export interface ServiceRecognitionContext {
  /** GKE `BackendConfig` resources, whose `connectionDraining` lengthens a NEG's window. */
  backendConfigs?: readonly KubeObject[];
}

/**
 * Recognises the load balancer in front of a Service from its `spec.type`,
 * `spec.loadBalancerClass` and provider annotations (DOMAIN §4).
 *
 * Returns the provider, its drain window, evidence naming the Service (`namespace/name`)
 * and the deciding annotation, a `note` when the window is a conservative assumption, and,
 * for AWS NLBs, the target-group attributes (AWS defaults when the annotation is absent).
 */
export function recognizeServiceLoadBalancer(
  service: KubeObject,
  context: ServiceRecognitionContext = {},
): LoadBalancerRecognition {
  const who = `Service ${kubeObjectRef(service)}`;
  const spec = service.spec ?? {};
  const type = typeof spec.type === 'string' ? spec.type : 'ClusterIP';

  const nlb = recognizeAwsNlb(service, who, spec);
  if (nlb !== undefined) return nlb;

  const neg = annotation(service, GKE_NEG);
  if (neg !== undefined && negEnabled(neg)) {
    return recognizeGkeNeg(service, who, neg, context.backendConfigs ?? []);
  }

  if (type === 'LoadBalancer') {
    return recognition('generic-lb', `${who}: type LoadBalancer with no recognised provider annotation (spec.type: LoadBalancer)`);
  }
  if (type === 'NodePort' && spec.externalTrafficPolicy === 'Local') {
    // DOMAIN §4 gives in-cluster only for externalTrafficPolicy: Cluster. With Local the
    // NodePort is normally behind an external LB that health-checks each node, which this
    // stream does not show: the generic LB window is the conservative choice.
    return recognition('generic-lb', `${who}: NodePort with externalTrafficPolicy Local (spec.externalTrafficPolicy: Local)`, {
      note:
        'DOMAIN §4 has no row for a NodePort with externalTrafficPolicy: Local; assuming an ' +
        `external load balancer health-checks the nodes (generic window ${LOAD_BALANCERS['generic-lb'].drainWindowSeconds} s). ` +
        'Override the drain window if you know the load balancer.',
    });
  }
  return recognition('in-cluster', `${who}: in-cluster traffic only (spec.type: ${type})`);
}

function recognizeAwsNlb(
  service: KubeObject,
  who: string,
  spec: { loadBalancerClass?: unknown },
): LoadBalancerRecognition | undefined {
  const lbType = annotation(service, AWS_LB_TYPE);
  const targetType = annotation(service, AWS_NLB_TARGET_TYPE);
  const awsClass = spec.loadBalancerClass === AWS_NLB_CLASS;
  const tgValue = annotation(service, AWS_SERVICE_TG_ATTRIBUTES);
  const targetGroup = parseAwsTargetGroupAttributes(tgValue ?? '');

  if (targetType === 'ip') {
    const claimed = lbType === 'external' || lbType === 'nlb-ip' || awsClass;
    return recognition('aws-nlb-ip', `${who}: AWS NLB with IP targets (${AWS_NLB_TARGET_TYPE}: ip)`, {
      targetGroup,
      ...(claimed
        ? {}
        : {
            // Since v2.5 the AWS Load Balancer Controller's Service webhook takes type
            // LoadBalancer Services by default, so the target-type annotation alone is
            // enough evidence of an NLB; the NLB window is the conservative reading.
            note:
              `${AWS_NLB_TARGET_TYPE}: ip without ${AWS_LB_TYPE}: external or ` +
              `spec.loadBalancerClass: ${AWS_NLB_CLASS}; assumed an AWS NLB with IP targets.`,
          }),
    });
  }
  if (lbType === 'nlb-ip') {
    // The legacy value `nlb-ip` means "NLB with IP targets" on its own (AWS Load Balancer
    // Controller v2.1 docs, NLB IP mode); it needs no nlb-target-type annotation.
    return recognition('aws-nlb-ip', `${who}: AWS NLB with IP targets (${AWS_LB_TYPE}: nlb-ip)`, { targetGroup });
  }
  if (lbType === 'external' || lbType === 'nlb' || awsClass) {
    // Instance targets (the controller's default target type, and the in-tree `nlb`): DOMAIN
    // §4 has no row. The IP-target window is the longest AWS figure, so it is the
    // conservative choice.
    const decidedBy = awsClass && lbType === undefined
      ? `spec.loadBalancerClass: ${AWS_NLB_CLASS}`
      : `${AWS_LB_TYPE}: ${lbType}`;
    return recognition('aws-nlb-ip', `${who}: AWS NLB with instance targets (${decidedBy})`, {
      targetGroup,
      note:
        'DOMAIN §4 has no row for an NLB with instance targets; using the IP-target window ' +
        `(${LOAD_BALANCERS['aws-nlb-ip'].drainWindowSeconds} s) as the conservative choice. ` +
        'Override the drain window if you have measured yours.',
    });
  }
  return undefined;
}

/**
 * `cloud.google.com/neg` holds JSON such as `{"ingress": true}` or `{"exposed_ports": …}`.
 * Only an explicit `{"ingress": false}` with no exposed ports turns NEGs off; unreadable
 * JSON counts as enabled because the NEG window is the longer one.
 */
function negEnabled(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed !== null && typeof parsed === 'object') {
      const neg = parsed as { ingress?: unknown; exposed_ports?: unknown };
      const ports = neg.exposed_ports;
      const hasPorts = ports !== null && typeof ports === 'object' && Object.keys(ports).length > 0;
      return neg.ingress !== false || hasPorts;
    }
  } catch {
    // fall through: treated as enabled
  }
  return true;
}

function recognizeGkeNeg(
  service: KubeObject,
  who: string,
  neg: string,
  backendConfigs: readonly KubeObject[],
): LoadBalancerRecognition {
  const base = `${who}: GKE container-native load balancing (${GKE_NEG}: ${neg})`;
  const names = backendConfigNames(service);
  if (names.length === 0) return recognition('gke-neg', base);

  const namespace = service.metadata?.namespace;
  let longest: { name: string; seconds: number } | undefined;
  const missing: string[] = [];
  for (const name of names) {
    const config = backendConfigs.find(
      (c) =>
        c.kind === 'BackendConfig' &&
        c.metadata?.name === name &&
        (namespace === undefined || c.metadata?.namespace === undefined || c.metadata.namespace === namespace),
    );
    if (config === undefined) {
      missing.push(name);
      continue;
    }
    const seconds: unknown = config.spec?.connectionDraining?.drainingTimeoutSec;
    const value = typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds > 0 ? seconds : 0;
    if (longest === undefined || value > longest.seconds) longest = { name, seconds: value };
  }
  const base30 = LOAD_BALANCERS['gke-neg'].drainWindowSeconds;
  const drainWindowSeconds = base30 + (longest?.seconds ?? 0);
  const evidence = longest !== undefined && longest.seconds > 0
    ? `${base} + connection draining ${longest.seconds} s (BackendConfig ${longest.name} connectionDraining.drainingTimeoutSec)`
    : base;
  return recognition('gke-neg', evidence, {
    drainWindowSeconds,
    ...(missing.length > 0
      ? {
          note:
            `BackendConfig ${missing.join(', ')} is not in the stream, so its connectionDraining ` +
            `is unknown; the drain window counts none. Override it if that BackendConfig sets drainingTimeoutSec.`,
        }
      : {}),
  });
}

/** Names in `cloud.google.com/backend-config: {"default": "x", "ports": {"80": "y"}}`. */
function backendConfigNames(service: KubeObject): string[] {
  const names = new Set<string>();
  for (const key of GKE_BACKEND_CONFIG) {
    const value = annotation(service, key);
    if (value === undefined) continue;
    try {
      const parsed = JSON.parse(value) as { default?: unknown; ports?: Record<string, unknown> };
      if (typeof parsed.default === 'string') names.add(parsed.default);
      for (const name of Object.values(parsed.ports ?? {})) if (typeof name === 'string') names.add(name);
    } catch {
      // unreadable annotation: nothing to add
    }
  }
  return [...names];
}
