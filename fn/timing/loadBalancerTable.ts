/**
 * docs/background.md#load-balancers-in-front-of-gateways's load-balancer table as data: each
 * provider's drain window W (how long it keeps sending new connections after a pod starts
 * terminating), whether the figure is an estimate, and its source; plus the shape every recognizer
 * returns.
 */
import type { Unknown } from '../core/unknown.ts';
import type { AwsTargetGroupAttributes } from './awsTargetGroup.ts';
import { sourceText } from '../core/source.ts';
import type { Source } from '../core/source.ts';
import { KUBERNETES, reached } from '../facts/versionGates.ts';

/** What an AWS target group registers: pod IPs, or nodes (instances) reached through a NodePort. */
type AwsTargetType = 'ip' | 'instance';

/**
 * The load-balancer kinds docs/background.md#load-balancers-in-front-of-gateways has a drain window
 * for.
 */
export type LoadBalancerProvider =
  | 'aws-nlb-ip'
  | 'aws-nlb-instance'
  | 'aws-clb'
  | 'aws-alb-ip'
  | 'gke-neg'
  | 'azure-appgw'
  | 'generic-lb'
  | 'in-cluster';

/**
 * One row of docs/background.md#load-balancers-in-front-of-gateways: the drain window W of a
 * provider and where the figure comes from.
 */
export interface LoadBalancerFacts {
  label: string;
  /** Seconds after the pod starts terminating during which new connections may still arrive. */
  drainWindowSeconds: number;
  /**
   * True where docs/background.md#load-balancers-in-front-of-gateways marks the figure as an
   * estimate (≈, or no source).
   */
  estimate: boolean;
  basis: string;
  source?: string;
  /**
   * True where the row is no recognition but a guess (a Service that shows only `type:
   * LoadBalancer`): the window is not modelled, so a timeline drawn with it has an unknown outcome.
   */
  guess?: true;
}

/**
 * docs/background.md#load-balancers-in-front-of-gateways's table: the drain window W per provider,
 * with its basis and source.
 */
export const LOAD_BALANCERS: Readonly<Record<LoadBalancerProvider, LoadBalancerFacts>> = {
  'aws-nlb-ip': {
    label: 'AWS NLB, IP targets',
    // Community measurements put it at 120–180 s; 180 is the top of that range and the value
    // the seed thread's working configuration used, so the conservative end is the default.
    drainWindowSeconds: 180,
    estimate: false,
    basis:
      'community measurements 120–180 s between deregistration starting and the NLB sending ' +
      'no new connections; the seed thread worked with 180 s',
    source: 'kubernetes-sigs/aws-load-balancer-controller#1719, #2366, #3270',
  },
  'aws-nlb-instance': {
    label: 'AWS NLB, instance targets',
    // The targets are nodes, not pods: deleting a pod deregisters nothing. With
    // externalTrafficPolicy Cluster only kube-proxy's endpoint update stands between the NLB and
    // the pod (the in-cluster figure); with Local the recognizer adds the NLB's node health check
    // (serviceLoadBalancer.ts).
    drainWindowSeconds: 5,
    estimate: true,
    basis:
      'targets are nodes: externalTrafficPolicy Cluster: ' +
      'kube-proxy endpoint propagation (≈ 5 s); Local: that, ' +
      'plus health-check interval × unhealthy threshold of the node health check',
    source:
      'kubernetes-sigs/aws-load-balancer-controller ' +
      'pkg/service/model_build_target_group.go@v2.17.1; ' +
      'kubernetes/cloud-provider-aws pkg/providers/v1/aws.go@v1.36.1',
  },
  'aws-clb': {
    label: 'AWS Classic ELB, instance targets',
    // Built by the in-tree cloud provider for a LoadBalancer Service that shows AWS annotations
    // but asks for no NLB. Its targets are nodes, as with NLB instance targets: Cluster is
    // kube-proxy's propagation, Local adds the ELB's node health check (serviceLoadBalancer.ts).
    drainWindowSeconds: 5,
    estimate: true,
    basis:
      'targets are nodes: externalTrafficPolicy Cluster: ' +
      'kube-proxy endpoint propagation (≈ 5 s); Local: that, ' +
      'plus health-check interval × unhealthy threshold of the node health check (10 s × 6)',
    source: 'kubernetes/cloud-provider-aws pkg/providers/v1/aws_loadbalancer.go@v1.36.1',
  },
  'aws-alb-ip': {
    label: 'AWS ALB, IP targets',
    // ≈ 30–45 s; the top of the range is taken.
    drainWindowSeconds: 45,
    estimate: true,
    basis: 'health-check interval × unhealthy threshold + propagation (≈ 30–45 s)',
    source: 'kubernetes-sigs/aws-load-balancer-controller#2106; quay/quay#6871',
  },
  'gke-neg': {
    label: 'GKE container-native load balancing (NEG)',
    drainWindowSeconds: 30,
    estimate: true,
    basis:
      '≈ 30 s until the NEG endpoint is removed; BackendConfig ' +
      'connectionDraining.drainingTimeoutSec then gives requests in flight time to finish',
    source: 'GKE docs (container-native load balancing)',
  },
  'azure-appgw': {
    label: 'Azure Application Gateway (AGIC)',
    drainWindowSeconds: 90,
    estimate: false,
    basis: 'AGIC docs recommend a preStop sleep of at least 90 s',
    source: 'AGIC docs',
  },
  'generic-lb': {
    label: 'generic type: LoadBalancer',
    drainWindowSeconds: 15,
    estimate: true,
    basis: '≈ 15 s: two failed health checks (conservative estimate, no source)',
    // docs/background.md#load-balancers-in-front-of-gateways: "unknown: ≈ 15 s is a guess, too
    // short on AWS" (an AWS LBC webhook makes it an NLB; an in-tree CLB checks 10 s × 6).
    guess: true,
  },
  'in-cluster': {
    label: 'in-cluster only (ClusterIP / NodePort)',
    drainWindowSeconds: 5,
    estimate: true,
    basis:
      '≈ 5 s: endpoint propagation to kube-proxy and proxies (conservative estimate, no source)',
  },
};

/** What a Service or Ingress tells about the load balancer in front of the pods it selects. */
export interface LoadBalancerRecognition {
  provider: LoadBalancerProvider;
  /** W for these pods: the table value, or more when the manifest shows more (GKE draining). */
  drainWindowSeconds: number;
  estimate: boolean;
  /** `Kind namespace/name: what it is (the annotation or field that decided it)`. */
  evidence: string;
  /** The object that decided it, `Kind namespace/name`: for other sentences to name it. */
  subject?: string;
  /** Set when the manifest shows a case no table row covers and W is an assumption. */
  note?: string;
  /**
   * AWS NLB/ALB target-group attributes; AWS defaults when the annotation is absent. Only for IP
   * targets: with instance targets the group holds nodes, which a pod's deletion does not
   * deregister.
   */
  targetGroup?: AwsTargetGroupAttributes;
  /**
   * Where the target group's attributes are set, where not in the Service's or Ingress's
   * annotation: "the targetGroupAttributes of TargetGroupConfiguration ns/name".
   */
  targetGroupAttributesIn?: string;
  /**
   * Set where the load balancer is recognised but what decides its window is not in the stream
   * (a target group made outside the cluster): every timeline drawn with it is unknown.
   */
  notModelled?: Unknown;
  /**
   * AWS only: what the target group registers, pods (`ip`) or nodes (`instance`). Decides
   * readiness-gate advice and whether deregistration timing applies.
   */
  targetType?: AwsTargetType;
  /**
   * Set when the load balancer reaches the pods through their nodes with externalTrafficPolicy
   * Local: a node forwards its connections to a terminating pod only while that pod passes its
   * readiness probe, and its health check fails as soon as no pod there is ready (kubernetes
   * pkg/proxy/topology.go CategorizeEndpoints, pkg/proxy/endpointschangetracker.go
   * LocalReadyEndpoints). W then holds only if the pods stay ready for it.
   */
  nodeLocal?: true;
  /**
   * GKE NEG: the connection draining of the backend service, which gives requests in flight
   * `seconds` after the endpoint's removal, then closes what is left (the compute API's
   * ConnectionDraining.drainingTimeoutSec, from the BackendConfig the Service names; 0 without
   * one). Not part of W: the load balancer sends no new connection to a removed endpoint.
   */
  connectionDraining?: {
    readonly seconds: number;
    /** The object that sets it, by name. */
    readonly backendConfig?: string;
    /** What kind of object sets it: a BackendConfig (Service, Ingress) unless a GKE Gateway's. */
    readonly setBy?: 'GCPBackendPolicy';
  };
}

/**
 * Returns a recognition carrying the table's window and estimate flag for `provider`, with
 * `extra` (note, target group, a longer window) laid over it.
 */
export function recognitionFor(
  provider: LoadBalancerProvider,
  evidence: string,
  extra: Partial<LoadBalancerRecognition> = {},
): LoadBalancerRecognition {
  const facts = LOAD_BALANCERS[provider];
  return {
    provider,
    drainWindowSeconds: facts.drainWindowSeconds,
    estimate: facts.estimate,
    evidence,
    ...extra,
  };
}

/** How the user tells kube-graceful the load balancer or its window (the flat keys lb-provider and
 * drain-window, fn/config/flatKeys.ts). */
const TELL_LOAD_BALANCER =
  '--lb-provider or --drain-window (per workload: the kube-graceful.dev/lb-provider or ' +
  'kube-graceful.dev/drain-window annotation)';

/**
 * Returns what is not known about a load balancer's window, or undefined when the recognition is
 * a modelled one (a provider recognised from the stream or given by the user).
 */
export function unknownDrainWindow(recognition: LoadBalancerRecognition): Unknown | undefined {
  return (
    unknownWindowLength(recognition) ??
    (recognition.nodeLocal === true
      ? readinessUnknown(recognition.subject ?? 'the Service')
      : undefined)
  );
}

/**
 * Returns what is not known about how long the load balancer keeps sending, where that itself is
 * not known: a guess, or one kube-graceful does not model. Undefined where it is known (a window
 * that depends only on the pods' readiness is known).
 */
export function unknownWindowLength(recognition: LoadBalancerRecognition): Unknown | undefined {
  if (LOAD_BALANCERS[recognition.provider].guess === true) {
    const subject = recognition.subject ?? 'the Service';
    return {
      what:
        `which load balancer is in front and how long it keeps sending new connections ` +
        `(${subject} shows no provider; W = ${recognition.drainWindowSeconds} s is a guess)`,
      tell: TELL_LOAD_BALANCER,
      brief: 'a guess',
    };
  }
  return recognition.notModelled;
}

/**
 * Behind a load balancer whose targets are the nodes, with externalTrafficPolicy Local, until when
 * a node forwards its connections to a terminating pod: while the pod passes readiness (Kubernetes
 * 1.26+, kube-proxy's serving-terminating endpoints), or never (before).
 */
export type NodeForwarding = 'while-ready' | 'never';

/**
 * Returns until when a node forwards the load balancer's connections to a terminating pod, where
 * the load balancer reaches the pods through their nodes with externalTrafficPolicy Local: while
 * it is ready from ProxyTerminatingEndpoints on (`kubernetesVersion`, the oldest node's), never
 * before; undefined for every other load balancer.
 */
export function nodeForwardingOf(
  recognition: LoadBalancerRecognition | undefined,
  kubernetesVersion: string,
): NodeForwarding | undefined {
  if (recognition?.nodeLocal !== true) return undefined;
  return reached(KUBERNETES.proxyTerminatingEndpoints, kubernetesVersion) ? 'while-ready' : 'never';
}

/**
 * What is not known when the load balancer reaches the pods through their nodes with
 * externalTrafficPolicy Local (`nodeLocal`): whether each pod keeps passing its readiness probe
 * until W. A mutator that models its proxy's readiness while terminating draws that instead.
 */
function readinessUnknown(subject: string): Unknown {
  return {
    what:
      `whether the pods keep passing their readiness probe until W once they terminate: ` +
      `${subject} reaches them through their nodes with externalTrafficPolicy Local, and a ` +
      `node forwards to a terminating pod only while it is ready (Kubernetes ` +
      `${KUBERNETES.proxyTerminatingEndpoints.since}+; before, not at all), so a proxy that ` +
      `fails readiness at SIGTERM has the connections the load balancer still sends dropped`,
    tell:
      `--drain-window once the pods are known to stay ready for it (a preStop sleep of W ` +
      `holds SIGTERM and readiness), or IP targets or externalTrafficPolicy: Cluster on ` +
      `the Service`,
    brief: 'if the pods stay ready',
  };
}

/**
 * Returns the user's provider in place of what the stream does not tell: a guess (a Service that
 * shows only `type: LoadBalancer` does not show which load balancer) or a recognition marked not
 * modelled (a TargetGroupBinding, an unknown Gateway). `--lb-provider` names the load balancer
 * then. A recognised, modelled provider stays: the stream's objects say more than a global flag.
 */
export function userProviderOverUnknown(
  recognition: LoadBalancerRecognition,
  user: { readonly provider: LoadBalancerProvider; readonly source: Source } | undefined,
): LoadBalancerRecognition {
  const guess = LOAD_BALANCERS[recognition.provider].guess === true;
  if (user === undefined || (!guess && recognition.notModelled === undefined)) return recognition;
  return recognitionFor(
    user.provider,
    `${LOAD_BALANCERS[user.provider].label} (${sourceText(user.source)}; ` +
      `${recognition.subject ?? 'the Service'} ${guess ? 'shows no provider' : 'is not modelled'})`,
    recognition.subject === undefined ? {} : { subject: recognition.subject },
  );
}
