/** The plan gateway-drain makes for one gateway, and that its `explain` reads (./explain.ts). */
import type { LoadBalancerRecognition } from '../../timing/loadBalancers.ts';
import type { Derived, TimingInputs, TimingPlan } from '../../timing/model.ts';
import type { GatewayShape } from '../../workloads/gatewayShape.ts';
import type { IstioVersion } from './version.ts';

/** What `explain` renders a gateway's timeline from (MutatorOutcome.plan). */
export interface GatewayPlan {
  readonly inputs: TimingInputs;
  readonly plan: TimingPlan;
  /** The mode applied: env, or sleep (asked for, or env's fallback on Istio < 1.12). */
  readonly mode: 'env' | 'sleep';
  /** The load balancer that decided W, when one in the stream did. */
  readonly loadBalancer?: LoadBalancerRecognition;
  readonly shape: GatewayShape;
  /** The proxy container's name: `istio-proxy`, or the legacy chart's proxyv2 container. */
  readonly proxy: string;
  readonly istio: IstioVersion;
  /** Sleep mode, where `proxy.istio.io/config` reaches the proxy: T = R. */
  readonly terminationDrainSeconds?: Derived;
}
