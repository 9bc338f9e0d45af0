/**
 * The container that runs the gateway's proxy: `istio-proxy` for injected gateways (the name is
 * fixed, docs/background.md#istio), the proxyv2 container running `proxy router` for the legacy
 * chart.
 */
import { isLegacyGatewayProxy } from '../../workloads/gatewayShape.ts';
import type { GatewayShape } from '../../workloads/gatewayShape.ts';
import type { Container } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import { ISTIO_PROXY } from '../../workloads/meshProxies.ts';

/** Returns the proxy container of a gateway, or undefined when the template has none. */
export function proxyContainer(workload: Workload, shape: GatewayShape): Container | undefined {
  const containers = workload.containers;
  if (shape === 'injected') return containers.find((c) => c.name === ISTIO_PROXY);
  return containers.find(isLegacyGatewayProxy);
}
