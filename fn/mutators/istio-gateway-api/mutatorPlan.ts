/**
 * What the istio-gateway-api mutator planned for one Gateway, and what its `explain` reads: the
 * model's inputs with their sources, its durations, the load balancer of the Service istiod
 * generates, and the generated pod as written and as patched.
 */
import type { GeneratedPod } from './generatedPod.ts';
import type { LoadBalancerRecognition } from '../../timing/loadBalancerTable.ts';
import type { TimingInputs, TimingPlan } from '../../timing/model.ts';

export interface IstioGatewayApiPlan {
  /** `Gateway ns/name`, for messages. */
  readonly label: string;
  readonly className: string;
  readonly istio: { readonly version: string; readonly source: string };
  readonly inputs: TimingInputs;
  readonly timing: TimingPlan;
  readonly loadBalancer: LoadBalancerRecognition;
  readonly generated: { readonly asWritten: GeneratedPod; readonly patched: GeneratedPod };
  /** Where the settings are written: `ConfigMap ns/name data.deployment` (new or merged). */
  readonly writtenTo: string;
}
