/**
 * The Service recogniser for tests of a Service alone: no BackendConfig in the stream unless a
 * test passes some (the engine always passes the stream's, fn/timing/serviceLoadBalancer.ts).
 */
import { recognizeServiceLoadBalancer as recognize } from '../../fn/timing/serviceLoadBalancer.ts';
import type { ServiceRecognitionContext } from '../../fn/timing/serviceLoadBalancer.ts';
import type { KubeObject } from '../../fn/core/kubeObject.ts';
import type { LoadBalancerRecognition } from '../../fn/timing/loadBalancerTable.ts';

export function recognizeServiceLoadBalancer(
  service: KubeObject,
  context: ServiceRecognitionContext = { backendConfigs: [] },
): LoadBalancerRecognition {
  return recognize(service, context);
}
