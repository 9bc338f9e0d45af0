/**
 * An Envoy Gateway proxy behind node targets with externalTrafficPolicy Local (issue #27 item 3),
 * which is the policy Envoy Gateway gives the Service it generates unless envoyService says
 * otherwise (api/v1alpha1/kubernetes_helpers.go@v1.9.0 DefaultKubernetesService). The node's
 * health check fails as the pod starts terminating, and the load balancer stops sending W later;
 * until then the node forwards to the terminating proxy only while it passes readiness
 * (Kubernetes 1.26+; before, not at all: fn/facts/versionGates.ts proxyTerminatingEndpoints).
 *
 * The shutdown manager fails Envoy's readiness as the drain starts, or healthCheckFailureDelay H
 * later, draining the listeners meanwhile without closing them (v1.9.0+:
 * internal/cmd/envoy/shutdown_manager.go@v1.9.0 Shutdown), and the probe (period 5 s, failure
 * threshold 1: internal/infrastructure/kubernetes/proxy/resource.go@v1.5.9 … @v1.9.0) sees it
 * within 5 s. So H ≥ W keeps the proxy reachable for as long as connections come. It is written
 * only where the controller config in the input names v1.9.0 or later: an older CRD has no such
 * field, and the EnvoyProxy alone does not say which release reads it.
 */
import { KUBERNETES } from '../../facts/versionGates.ts';
import type { FieldPath } from '../../core/fieldPath.ts';
import type { NodeForwarding } from '../../timing/loadBalancers.ts';
import { formatDuration } from './durations.ts';
import { sourceLine } from '../../core/source.ts';
import type { Sourced } from '../../timing/model.ts';
import type { EnvoyGatewayChange, EnvoyGatewayFinding } from './outcome.ts';
import { reached } from '../../facts/versionGates.ts';
import type { VersionGate } from '../../facts/versionGates.ts';

/** The first release with spec.shutdown.healthCheckFailureDelay. */
export const HEALTH_CHECK_FAILURE_DELAY = {
  product: 'Envoy Gateway',
  since: '1.9.0',
  source: 'envoyproxy/gateway api/v1alpha1/envoyproxy_types.go@v1.9.0 (absent @v1.8.3)',
} as const satisfies VersionGate;

/** How often the kubelet probes Envoy's readiness (failure threshold 1), resource.go@v1.9.0. */
export const ENVOY_READINESS_PERIOD_SECONDS = 5;

export interface ReadinessHold {
  /** H the proxy will run with. */
  readonly H: number;
  readonly changes: readonly EnvoyGatewayChange[];
  readonly findings: readonly EnvoyGatewayFinding[];
}

/**
 * Returns H for the node's forwarding (`undefined`: the load balancer does not reach the proxy
 * through its node with Local) and what to write or say about it.
 */
export function holdReadiness(
  label: string,
  path: FieldPath,
  written: number | undefined,
  context: {
    readonly drainWindow: Sourced;
    readonly nodeForwarding?: NodeForwarding;
    readonly release?: string;
  },
): ReadinessHold {
  const H = written ?? 0;
  const { drainWindow, nodeForwarding, release } = context;
  const W = drainWindow.value;
  /** H as written, and a warning that says why it is not enough and what would be. */
  const warned = (why: string): ReadinessHold => ({
    H,
    changes: [],
    findings: [
      {
        severity: 'warning',
        code: 'EG_NODE_LOCAL_READINESS',
        message: `${label}: the load balancer reaches the proxy through its node with ${why}`,
        path,
      },
    ],
  });
  if (nodeForwarding === undefined || (nodeForwarding === 'while-ready' && H >= W))
    return { H, changes: [], findings: [] };
  if (nodeForwarding === 'never')
    return warned(
      `externalTrafficPolicy Local, and before Kubernetes ` +
        `${KUBERNETES.proxyTerminatingEndpoints.since} a node forwards nothing to a terminating ` +
        `pod: the connections it sends in its ${W} s are dropped whatever the proxy does. Set ` +
        `envoyService externalTrafficPolicy: Cluster, or IP targets.`,
    );
  if (release !== undefined && reached(HEALTH_CHECK_FAILURE_DELAY, release)) {
    const value = formatDuration(W);
    return {
      H: W,
      changes: [
        {
          path,
          value,
          reason: [
            `shutdown.healthCheckFailureDelay = ${value}: H = W = ${W}. The load balancer ` +
              `reaches the proxy through its node with externalTrafficPolicy Local, which ` +
              `forwards to a terminating pod only while it passes readiness: Envoy's health ` +
              `checks must keep passing until the load balancer has stopped sending` +
              (written === undefined ? '.' : ` (was ${written} s).`),
            sourceLine('W', drainWindow.source),
          ].join('\n'),
        },
      ],
      findings: [],
    };
  }
  return warned(
    `externalTrafficPolicy Local, which forwards to a terminating pod only while it ` +
      `passes readiness, and Envoy fails readiness ${H} s into the drain, before the ` +
      `load balancer stops sending at ${W} s: those connections are dropped. ` +
      (release === undefined
        ? `Set shutdown.healthCheckFailureDelay: "${W}s" (Envoy Gateway ` +
          `v${HEALTH_CHECK_FAILURE_DELAY.since}+; kube-graceful writes it where the ` +
          `input's Envoy Gateway config names such a release)`
        : `Envoy Gateway v${release} has no shutdown.healthCheckFailureDelay: upgrade to ` +
          `v${HEALTH_CHECK_FAILURE_DELAY.since}+ and set it to "${W}s"`) +
      `, or set envoyService externalTrafficPolicy: Cluster, or IP targets.`,
  );
}
