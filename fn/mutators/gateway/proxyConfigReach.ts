/**
 * Whether a gateway's proxy reads the pod's `proxy.istio.io/config`: injected gateways get it
 * at injection; a legacy (not injected) gateway's pilot-agent reads it itself from the
 * downward-API annotations file, when the pod mounts that file
 * (fn/workloads/podAnnotationsFile.ts).
 */
import { mountsPodAnnotations } from '../../workloads/podAnnotationsFile.ts';
import type { GatewayShape } from '../../workloads/gatewayShape.ts';
import type { Container } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';

/** Returns true when `proxy.istio.io/config` on the pod template reaches this gateway's proxy. */
export function proxyConfigReaches(
  workload: Workload,
  shape: GatewayShape,
  proxy: Container,
): boolean {
  return shape === 'injected' || mountsPodAnnotations(workload.template, proxy);
}
