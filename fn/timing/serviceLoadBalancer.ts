/**
 * Recognises the load balancer in front of a Service
 * (docs/background.md#load-balancers-in-front-of-gateways): AWS NLB, GKE NEG, generic
 * `type: LoadBalancer` or in-cluster only. Where the manifest shows a case §4 has no row for,
 * the longest plausible window is taken (docs/background.md: prefer the conservative choice) and
 * `note` says so.
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { annotationText as annotation, kubeObjectRef } from './kubeObject.ts';
import { parseAwsTargetGroupAttributes } from './awsTargetGroup.ts';
import type { AwsTargetGroupAttributes } from './awsTargetGroup.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import { LOAD_BALANCERS, recognitionFor as recognition } from './loadBalancerTable.ts';
import { specField } from '../core/kubeObject.ts';

const AWS_LB_TYPE = 'service.beta.kubernetes.io/aws-load-balancer-type';
const AWS_NLB_TARGET_TYPE = 'service.beta.kubernetes.io/aws-load-balancer-nlb-target-type';
const AWS_SERVICE_TG_ATTRIBUTES =
  'service.beta.kubernetes.io/aws-load-balancer-target-group-attributes';
/** spec.loadBalancerClass the AWS Load Balancer Controller owns (its Service docs). */
const AWS_NLB_CLASS = 'service.k8s.aws/nlb';
const GKE_NEG = 'cloud.google.com/neg';
const GKE_BACKEND_CONFIG = [
  'cloud.google.com/backend-config',
  'beta.cloud.google.com/backend-config',
];

/** Optional neighbours from the same stream that refine a Service's drain window. */
export interface ServiceRecognitionContext {
  /**
   * GKE `BackendConfig` resources of the stream, whose `connectionDraining` lengthens a NEG's
   * window. Every caller passes the stream's (a Service it builds, as istiod or Envoy Gateway
   * would generate it, names BackendConfigs too), so a BackendConfig is never "not in the stream"
   * when it is.
   */
  readonly backendConfigs: readonly KubeObject[];
}

/**
 * Recognises the load balancer in front of a Service from its `spec.type`,
 * `spec.loadBalancerClass` and provider annotations
 * (docs/background.md#load-balancers-in-front-of-gateways).
 *
 * Returns the provider, its drain window, evidence naming the Service (`namespace/name`)
 * and the deciding annotation, a `note` when the window is a conservative assumption, and,
 * for AWS NLBs, the target-group attributes (AWS defaults when the annotation is absent).
 */
export function recognizeServiceLoadBalancer(
  service: KubeObject,
  context: ServiceRecognitionContext,
): LoadBalancerRecognition {
  const who = `Service ${kubeObjectRef(service)}`;
  return { ...recognizeService(service, who, context), subject: who };
}

function recognizeService(
  service: KubeObject,
  who: string,
  context: ServiceRecognitionContext,
): LoadBalancerRecognition {
  // As parsed: a value of another type there reads as absent or as no match.
  const spec = (service.spec ?? {}) as {
    type?: unknown;
    loadBalancerClass?: unknown;
    externalTrafficPolicy?: unknown;
  };
  const type = typeof spec.type === 'string' ? spec.type : 'ClusterIP';

  const nlb = recognizeAwsNlb(service, who, spec);
  if (nlb !== undefined) return nlb;

  const neg = annotation(service, GKE_NEG);
  if (neg !== undefined && negEnabled(neg)) {
    return recognizeGkeNeg(service, who, neg, context.backendConfigs);
  }

  if (type === 'LoadBalancer') {
    const classic = recognizeAwsClassic(service, who, spec.externalTrafficPolicy === 'Local');
    if (classic !== undefined) return classic;
    return recognition(
      'generic-lb',
      `${who}: type LoadBalancer with no recognised provider annotation (spec.type: LoadBalancer)`,
    );
  }
  if (type === 'NodePort' && spec.externalTrafficPolicy === 'Local') {
    // The in-cluster window holds only for externalTrafficPolicy: Cluster. With Local the
    // NodePort is normally behind an external LB that health-checks each node, which this
    // stream does not show: the generic LB window is the conservative choice.
    return recognition(
      'generic-lb',
      `${who}: NodePort with externalTrafficPolicy Local (spec.externalTrafficPolicy: Local)`,
      {
        note:
          `No known window for a NodePort with externalTrafficPolicy: Local; ` +
          `assuming an external load balancer health-checks the nodes (generic window ` +
          `${LOAD_BALANCERS['generic-lb'].drainWindowSeconds} s). ` +
          `Override the drain window if you know the load balancer.`,
      },
    );
  }
  return recognition('in-cluster', `${who}: in-cluster traffic only (spec.type: ${type})`);
}

function recognizeAwsNlb(
  service: KubeObject,
  who: string,
  spec: { loadBalancerClass?: unknown; externalTrafficPolicy?: unknown },
): LoadBalancerRecognition | undefined {
  const lbType = annotation(service, AWS_LB_TYPE);
  const targetType = annotation(service, AWS_NLB_TARGET_TYPE);
  const awsClass = spec.loadBalancerClass === AWS_NLB_CLASS;

  // The controller's choice of target type, pkg/service/model_build_target_group.go@v2.17.1
  // buildTargetType: `nlb-ip` or target type `ip` → IP; anything else → instance.
  if (targetType === 'ip' || lbType === 'nlb-ip') {
    const { targetGroup, note: portNote } = serviceTargetGroup(service);
    const portNoted = portNote === undefined ? {} : { note: portNote };
    if (lbType === 'nlb-ip') {
      // The legacy value `nlb-ip` means "NLB with IP targets" on its own (AWS Load Balancer
      // Controller v2.1 docs, NLB IP mode); it needs no nlb-target-type annotation.
      return recognition('aws-nlb-ip', `${who}: AWS NLB with IP targets (${AWS_LB_TYPE}: nlb-ip)`, {
        targetGroup,
        targetType: 'ip',
        ...portNoted,
      });
    }
    const claimed = lbType === 'external' || awsClass;
    return recognition(
      'aws-nlb-ip',
      `${who}: AWS NLB with IP targets (${AWS_NLB_TARGET_TYPE}: ip)`,
      {
        targetGroup,
        targetType: 'ip',
        ...portNoted,
        ...(claimed
          ? {}
          : {
              // Since v2.5 the AWS Load Balancer Controller's Service webhook takes type
              // LoadBalancer Services by default, so the target-type annotation alone is
              // enough evidence of an NLB; the NLB window is the conservative reading.
              note:
                `${AWS_NLB_TARGET_TYPE}: ip without ${AWS_LB_TYPE}: ` +
                `external or spec.loadBalancerClass: ${AWS_NLB_CLASS}; ` +
                `assumed an AWS NLB with IP targets.`,
            }),
      },
    );
  }
  if (targetType === 'instance' || lbType === 'external' || lbType === 'nlb' || awsClass) {
    const decidedBy =
      targetType === 'instance'
        ? `${AWS_NLB_TARGET_TYPE}: instance`
        : awsClass && lbType === undefined
          ? `spec.loadBalancerClass: ${AWS_NLB_CLASS}`
          : `${AWS_LB_TYPE}: ${lbType}`;
    // `external` or the class without a target type: the controller's --default-target-type,
    // which is `instance` unless set otherwise (pkg/config/controller_config.go@v2.17.1).
    const defaulted = targetType === undefined && lbType !== 'nlb';
    return recognizeNlbInstanceTargets(service, who, {
      decidedBy,
      local: spec.externalTrafficPolicy === 'Local',
      inTree: lbType === 'nlb',
      defaulted,
    });
  }
  return undefined;
}

/**
 * The target group attributes of a Service's NLB with IP targets. Each Service port gets a target
 * group of its own, whose attributes are the Service-wide annotation with the port's own
 * `…-target-group-attributes.<port>` laid over it, entry by entry, an empty value keeping the base
 * one (pkg/service/model_build_target_group.go@v2.14.0 … @v2.17.1
 * buildPortSpecificTargetGroupAttributes; none before v2.14.0, where the port annotation is
 * ignored). When the ports' groups differ, the one with the shortest deregistration delay is
 * planned with (the one that cuts requests first), and a note says so.
 */
function serviceTargetGroup(service: KubeObject): {
  targetGroup: AwsTargetGroupAttributes;
  note?: string;
} {
  const base = annotation(service, AWS_SERVICE_TG_ATTRIBUTES) ?? '';
  const ports = specField(service, 'ports');
  const numbers = (Array.isArray(ports) ? ports : [])
    .map((p) => (p !== null && typeof p === 'object' ? (p as { port?: unknown }).port : undefined))
    .filter((n): n is number => typeof n === 'number');
  const perPort = numbers
    .map((port) => ({ port, own: annotation(service, `${AWS_SERVICE_TG_ATTRIBUTES}.${port}`) }))
    .filter((p): p is { port: number; own: string } => p.own !== undefined)
    .map(({ port, own }) => ({
      port,
      targetGroup: parseAwsTargetGroupAttributes(merged(base, own)),
    }));
  const whole = parseAwsTargetGroupAttributes(base);
  if (perPort.length === 0) return { targetGroup: whole };
  const groups = [
    ...perPort,
    ...(perPort.length < numbers.length ? [{ port: undefined, targetGroup: whole }] : []),
  ];
  const delay = (g: AwsTargetGroupAttributes) =>
    g.deregistrationDelaySeconds ?? Number.POSITIVE_INFINITY;
  const shortest = groups.reduce((a, b) => (delay(b.targetGroup) < delay(a.targetGroup) ? b : a));
  const differ = groups.some(
    (g) =>
      g.targetGroup.deregistrationDelaySeconds !==
        shortest.targetGroup.deregistrationDelaySeconds ||
      g.targetGroup.connectionTermination !== shortest.targetGroup.connectionTermination,
  );
  if (!differ) return { targetGroup: shortest.targetGroup };
  const which = shortest.port === undefined ? 'the ports without one' : `port ${shortest.port}`;
  return {
    targetGroup: shortest.targetGroup,
    note:
      `${AWS_SERVICE_TG_ATTRIBUTES}.<port> (AWS Load Balancer Controller v2.14+) gives the ` +
      `ports' target groups different attributes; planned with ${which}'s, the shortest ` +
      'deregistration delay.',
  };
}

/** The base attributes with a port's own laid over them, entry by entry (an empty value keeps the
 * base one). */
function merged(base: string, own: string): string {
  const entries = new Map<string, string>();
  for (const text of [base, own])
    for (const raw of text.split(',')) {
      const entry = raw.trim();
      if (entry === '') continue;
      const equals = entry.indexOf('=');
      const key = equals < 0 ? entry : entry.slice(0, equals).trim();
      const value = equals < 0 ? '' : entry.slice(equals + 1).trim();
      if (text === own && value === '' && entries.has(key)) continue;
      entries.set(key, entry);
    }
  return [...entries.values()].join(',');
}

/**
 * The node health check an AWS load balancer with instance targets runs for
 * externalTrafficPolicy Local: HTTP /healthz on the healthCheckNodePort, which kube-proxy fails
 * once the node has no ready endpoint. Both AWS controllers read the same
 * `…-healthcheck-interval` and `…-healthcheck-unhealthy-threshold` annotations over their own
 * defaults.
 */
interface NodeHealthCheck {
  /** Who builds the load balancer, for the evidence sentence. */
  readonly controller: string;
  readonly intervalSeconds: number;
  readonly unhealthyThreshold: number;
}

/**
 * NLB: AWS Load Balancer Controller pkg/service/model_builder.go@v2.17.1
 * (defaultHealthCheck*ForInstanceModeLocal: interval 10 s, unhealthy threshold 2); in-tree
 * kubernetes/cloud-provider-aws pkg/providers/v1/aws.go@v1.36.1 (buildNLBHealthCheckConfiguration:
 * the same).
 */
const NLB_LOCAL_HEALTH_CHECK = { intervalSeconds: 10, unhealthyThreshold: 2 } as const;

/**
 * Classic ELB: kubernetes/cloud-provider-aws pkg/providers/v1/aws_loadbalancer.go@v1.36.1
 * (defaultElbHCInterval 10, defaultElbHCUnhealthyThreshold 6, read over by
 * ensureLoadBalancerHealthCheck, which pkg/providers/v1/aws.go@v1.36.1 EnsureLoadBalancer points
 * at the healthCheckNodePort for externalTrafficPolicy Local).
 */
const CLB_HEALTH_CHECK: NodeHealthCheck = {
  controller: 'in-tree cloud provider (Classic ELB)',
  intervalSeconds: 10,
  unhealthyThreshold: 6,
};

/**
 * Instance targets: the load balancer's targets are nodes, reached through the Service's NodePort,
 * so deleting a pod deregisters nothing and a deregistration delay never applies to it. What keeps
 * sending to the pod is kube-proxy until it sees the endpoint go (≈ the in-cluster window), and
 * with externalTrafficPolicy Local also the load balancer itself, until its health check on the
 * node's healthCheckNodePort has failed `unhealthy threshold` times, `interval` apart.
 */
function recognizeNodeTargets(
  service: KubeObject,
  target: {
    readonly provider: 'aws-nlb-instance' | 'aws-clb';
    /** `Service ns/name: AWS NLB with instance targets (the deciding annotation)`. */
    readonly what: string;
    readonly local: boolean;
    readonly healthCheck: NodeHealthCheck;
    readonly notes: readonly string[];
  },
): LoadBalancerRecognition {
  const propagation = LOAD_BALANCERS['in-cluster'].drainWindowSeconds;
  const notes = [...target.notes];
  const base = `${target.what}; targets are nodes, so a pod's deletion deregisters nothing`;
  const extra = () => ({
    targetType: 'instance' as const,
    ...(notes.length ? { note: notes.join(' ') } : {}),
  });
  if (!target.local) {
    return recognition(
      target.provider,
      `${base}; externalTrafficPolicy Cluster: ` +
        `only kube-proxy's endpoint update (≈ ${propagation} s)`,
      { drainWindowSeconds: propagation, ...extra() },
    );
  }
  const { healthCheck } = target;
  const interval = healthCheckNumber(service, AWS_HC_INTERVAL, healthCheck.intervalSeconds, notes);
  const threshold = healthCheckNumber(
    service,
    AWS_HC_UNHEALTHY_THRESHOLD,
    healthCheck.unhealthyThreshold,
    notes,
  );
  const says = (value: { seconds: number; from: string }) => `${value.seconds} (${value.from})`;
  const seconds = propagation + interval.seconds * threshold.seconds;
  const lb = target.provider === 'aws-clb' ? 'ELB' : 'NLB';
  return recognition(
    target.provider,
    `${base}; externalTrafficPolicy Local: ` +
      `the ${lb} stops sending to the node after its health check fails: ` +
      `W = propagation + interval × unhealthy threshold = ${propagation} + ${says(interval)} × ` +
      `${says(threshold)} = ${seconds} s (defaults of the ${healthCheck.controller} for Local)`,
    { drainWindowSeconds: seconds, nodeLocal: true, ...extra() },
  );
}

/** Why a Service's NLB has instance targets, and what else its Service says. */
interface NlbInstanceDecision {
  /** The annotation or field that decided it, as the notes quote it. */
  readonly decidedBy: string;
  /** externalTrafficPolicy: Local. */
  readonly local: boolean;
  /** Built by the in-tree cloud provider (`type: nlb`), not the controller. */
  readonly inTree: boolean;
  /** No target type said: the controller's --default-target-type decides. */
  readonly defaulted: boolean;
}

/**
 * An NLB with instance targets, built by the AWS Load Balancer Controller or (`type: nlb`) the
 * in-tree cloud provider.
 */
function recognizeNlbInstanceTargets(
  service: KubeObject,
  who: string,
  { decidedBy, local, inTree, defaulted }: NlbInstanceDecision,
): LoadBalancerRecognition {
  const notes: string[] = [];
  if (defaulted) {
    notes.push(
      `${decidedBy} without ${AWS_NLB_TARGET_TYPE}: ` +
        `the AWS Load Balancer Controller then uses its --default-target-type, ` +
        `instance unless the controller was started with another ` +
        `(pkg/config/controller_config.go@v2.17.1); assumed instance targets. ` +
        `Set ${AWS_NLB_TARGET_TYPE} on the Service to make it certain.`,
    );
  }
  return recognizeNodeTargets(service, {
    provider: 'aws-nlb-instance',
    what: `${who}: AWS NLB with instance targets (${decidedBy})`,
    local,
    healthCheck: {
      controller: inTree ? 'in-tree cloud provider' : 'AWS Load Balancer Controller',
      ...NLB_LOCAL_HEALTH_CHECK,
    },
    notes,
  });
}

/** The prefix of the annotations AWS's Service load balancers read (both controllers). */
const AWS_ANNOTATION_PREFIX = 'service.beta.kubernetes.io/aws-load-balancer-';

/**
 * A `type: LoadBalancer` Service with AWS annotations but none that asks for an NLB: the in-tree
 * cloud provider builds a Classic ELB for it (its default), with the nodes as targets. Where the
 * AWS Load Balancer Controller runs with its Service webhook (on by default:
 * helm/aws-load-balancer-controller/values.yaml@v2.13.0 … @v2.17.1 enableServiceMutatorWebhook;
 * webhooks/core/service_mutator.go@v2.17.1 sets `spec.loadBalancerClass` on every new
 * LoadBalancer Service without one), it becomes an NLB with instance targets instead, whose node
 * health check fails sooner (2 checks, not 6): the Classic ELB's window is the longer, so it is
 * the one planned with.
 */
function recognizeAwsClassic(
  service: KubeObject,
  who: string,
  local: boolean,
): LoadBalancerRecognition | undefined {
  // As parsed: annotations of another type than a map hold no key.
  const annotations: unknown = service.metadata?.annotations;
  const keys =
    annotations !== null && typeof annotations === 'object' ? Object.keys(annotations) : [];
  const first = keys.filter((key) => key.startsWith(AWS_ANNOTATION_PREFIX)).sort()[0];
  if (first === undefined) return undefined;
  return recognizeNodeTargets(service, {
    provider: 'aws-clb',
    what:
      `${who}: AWS Classic ELB with instance targets ` +
      `(${first} without ${AWS_LB_TYPE}: the in-tree cloud provider's default)`,
    local,
    healthCheck: CLB_HEALTH_CHECK,
    notes: local
      ? [
          `Where the AWS Load Balancer Controller's Service webhook runs (its default), the ` +
            `Service becomes an NLB with instance targets, whose node health check fails after ` +
            `${NLB_LOCAL_HEALTH_CHECK.unhealthyThreshold} checks, not ` +
            `${CLB_HEALTH_CHECK.unhealthyThreshold}: the Classic ELB's longer window is planned ` +
            `with. Set ${AWS_LB_TYPE} to make it certain.`,
        ]
      : [],
  });
}

const AWS_HC_INTERVAL = 'service.beta.kubernetes.io/aws-load-balancer-healthcheck-interval';
const AWS_HC_UNHEALTHY_THRESHOLD =
  'service.beta.kubernetes.io/aws-load-balancer-healthcheck-unhealthy-threshold';

/**
 * Reads a whole-number health-check annotation, or the default (said in `notes` when the value is
 * unreadable).
 */
function healthCheckNumber(
  service: KubeObject,
  key: string,
  fallback: number,
  notes: string[],
): { seconds: number; from: string } {
  const raw = annotation(service, key);
  if (raw === undefined) return { seconds: fallback, from: 'default' };
  const value = Number(raw.trim());
  if (/^\d+$/.test(raw.trim()) && Number.isSafeInteger(value) && value > 0)
    return { seconds: value, from: key };
  notes.push(
    `${key}: ${JSON.stringify(raw)} is not a whole number; the controller would refuse it. ` +
      `Counted the default ${fallback}.`,
  );
  return { seconds: fallback, from: 'default' };
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

/**
 * GKE container-native load balancing: the load balancer stops sending new connections once the
 * terminating pod's endpoint is removed from the NEG (≈ the table's window). Requests in flight
 * then get the backend service's connection draining, `drainingTimeoutSec` of the BackendConfig
 * the Service names (kubernetes/ingress-gce pkg/backends/features/draining.go@v1.41.1 copies it to
 * the backend service; the compute API's ConnectionDraining: "a duration timeout for existing
 * requests on a removed backend", vendor/google.golang.org/api/compute/v1/compute-gen.go@v1.41.1),
 * after which the connections still open are closed; without one it is 0, off.
 */
function recognizeGkeNeg(
  service: KubeObject,
  who: string,
  neg: string,
  backendConfigs: readonly KubeObject[],
): LoadBalancerRecognition {
  const evidence = `${who}: GKE container-native load balancing (${GKE_NEG}: ${neg})`;
  const { draining, missing } = shortestDraining(service, backendConfigs);
  return recognition('gke-neg', evidence, {
    connectionDraining: draining,
    ...(missing.length > 0
      ? {
          note:
            `BackendConfig ${missing.join(', ')} is not in the stream, ` +
            `so its connectionDraining is unknown; planned as if it set none (draining off). ` +
            `Override if that BackendConfig sets drainingTimeoutSec.`,
        }
      : {}),
  });
}

/**
 * The shortest `connectionDraining.drainingTimeoutSec` of the BackendConfigs a Service names (each
 * port's backend service drains by its own; the one that closes first cuts requests first, as for
 * AWS ports), 0 without one, and the names not in the stream.
 */
export function shortestDraining(
  service: KubeObject,
  backendConfigs: readonly KubeObject[],
): { draining: { seconds: number; backendConfig?: string }; missing: string[] } {
  const namespace = service.metadata?.namespace;
  let shortest: { seconds: number; backendConfig?: string } | undefined;
  const missing: string[] = [];
  for (const name of backendConfigNames(service)) {
    const config = backendConfigs.find(
      (c) =>
        c.kind === 'BackendConfig' &&
        c.metadata?.name === name &&
        (namespace === undefined ||
          c.metadata?.namespace === undefined ||
          c.metadata.namespace === namespace),
    );
    if (config === undefined) {
      missing.push(name);
      continue;
    }
    const draining = specField(config, 'connectionDraining') as
      { drainingTimeoutSec?: unknown } | null | undefined;
    const seconds = draining?.drainingTimeoutSec;
    const value =
      typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds > 0 ? seconds : 0;
    if (shortest === undefined || value < shortest.seconds)
      shortest = { seconds: value, backendConfig: name };
  }
  return { draining: shortest ?? { seconds: 0 }, missing };
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
      for (const name of Object.values(parsed.ports ?? {}))
        if (typeof name === 'string') names.add(name);
    } catch {
      // unreadable annotation: nothing to add
    }
  }
  return [...names];
}
