/**
 * Load-balancer knowledge, the entry point: re-exports the table
 * (docs/background.md#load-balancers-in-front-of-gateways), the Service and Ingress recognizers and
 * the AWS target-group parser, and decides which drain window W applies to a set of pods when
 * several load balancers reach them.
 *
 * Every figure comes from docs/background.md#load-balancers-in-front-of-gateways. Where a manifest
 * shows a case §4 has no row for, the recognizers take the longest plausible window
 * (docs/background.md: prefer the conservative choice) and say so in `note`, which callers turn
 * into a result.
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { specField } from '../core/kubeObject.ts';
import { scalarText } from '../core/scalarText.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import { unknownDrainWindow, unknownWindowLength } from './loadBalancerTable.ts';
import type { Unknown } from '../core/unknown.ts';

export type {
  LoadBalancerProvider,
  LoadBalancerRecognition,
  NodeForwarding,
} from './loadBalancerTable.ts';
export {
  LOAD_BALANCERS,
  nodeForwardingOf,
  unknownDrainWindow,
  userProviderOverUnknown,
} from './loadBalancerTable.ts';
export {
  AWS_DEFAULT_DEREGISTRATION_DELAY_SECONDS,
  parseAwsTargetGroupAttributes,
} from './awsTargetGroup.ts';
export { recognizeServiceLoadBalancer } from './serviceLoadBalancer.ts';
export { ingressBackendServiceNames, recognizeIngressLoadBalancer } from './ingressLoadBalancer.ts';

/**
 * Returns true when the Service's selector picks a pod with these labels: the selector is
 * non-empty (an empty one selects nothing for endpoints), every pair matches, and the
 * namespaces are equal when both are known. `serviceNamespace` falls back to the Service's
 * own `metadata.namespace`.
 */
export function serviceSelectsPod(
  service: KubeObject,
  podLabels: Record<string, string>,
  serviceNamespace?: string,
  podNamespace?: string,
): boolean {
  const selector = specField(service, 'selector');
  if (selector === null || typeof selector !== 'object') return false;
  const pairs = Object.entries(selector as Record<string, unknown>);
  if (pairs.length === 0) return false;
  const ns = serviceNamespace ?? service.metadata?.namespace;
  if (ns !== undefined && podNamespace !== undefined && ns !== podNamespace) return false;
  return pairs.every(([key, value]) => {
    const label: unknown = podLabels[key];
    // Compare as text: an unquoted YAML `true` or `1` arrives as a boolean or number.
    return label !== undefined && label !== null && scalarText(label) === scalarText(value);
  });
}

/** The drain window chosen for a set of pods, and the others that were weighed against it. */
export interface DrainWindowChoice extends LoadBalancerRecognition {
  /** Evidence and window of every other candidate, for the report. */
  alsoConsidered: string[];
}

/**
 * Picks the drain window when several Services/Ingresses send traffic to the same pods:
 * the LONGEST window wins, since every one of those load balancers must stop sending before
 * the pod may stop accepting (docs/background.md: prefer the conservative choice). Ties go to the
 * first candidate whose window is not modelled (a target group made outside the cluster beside
 * the in-cluster Service it binds: the verdict must not claim what is not known), else to the
 * first, so the result is deterministic in stream order. A window that is known does not make
 * the choice known while another load balancer in front has a window that is not (a guess, or one
 * kube-graceful does not model): that one may keep sending longer.
 *
 * Returns the winning recognition plus the others' evidence, or `undefined` for no candidates.
 */
export function pickDrainWindow(
  candidates: readonly LoadBalancerRecognition[],
): DrainWindowChoice | undefined {
  let winner: LoadBalancerRecognition | undefined;
  for (const candidate of candidates) {
    if (
      winner === undefined ||
      candidate.drainWindowSeconds > winner.drainWindowSeconds ||
      (candidate.drainWindowSeconds === winner.drainWindowSeconds &&
        unknownDrainWindow(candidate) !== undefined &&
        unknownDrainWindow(winner) === undefined)
    )
      winner = candidate;
  }
  if (winner === undefined) return undefined;
  const chosen = winner;
  const beside =
    unknownWindowLength(chosen) === undefined
      ? candidates.find((c) => c !== chosen && unknownWindowLength(c) !== undefined)
      : undefined;
  return {
    ...chosen,
    ...(beside === undefined ? {} : { notModelled: mayBeLonger(chosen, beside) }),
    alsoConsidered: candidates
      .filter((c) => c !== chosen)
      .map((c) => `${c.evidence}: ${c.drainWindowSeconds} s`),
  };
}

/** What is not known about the choice of `chosen` while `beside`'s window is not known. */
function mayBeLonger(chosen: LoadBalancerRecognition, beside: LoadBalancerRecognition): Unknown {
  const unknown = unknownWindowLength(beside)!;
  return {
    what:
      `${unknown.what}; W = ${chosen.drainWindowSeconds} s is that of ${objectOf(chosen)}, and ` +
      `the load balancer of ${objectOf(beside)} may keep sending longer`,
    tell: unknown.tell,
    brief: `the load balancer of ${objectOf(beside)} may send longer`,
  };
}

/** The object that decided a recognition, `Kind namespace/name` (its evidence starts with it). */
function objectOf(recognition: LoadBalancerRecognition): string {
  return recognition.subject ?? recognition.evidence.split(':')[0]!;
}
