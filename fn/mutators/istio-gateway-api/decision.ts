/**
 * What the decision for one Gateway (plan.ts) takes and returns: the types its steps share.
 */
import type { FieldPath } from '../../core/fieldPath.ts';
import type { KubeObject } from '../../core/kubeObject.ts';
import type { LoadBalancerRecognition } from '../../timing/loadBalancerTable.ts';
import type { Sourced, TimingInputs, TimingPlan } from '../../timing/model.ts';
import type { ConfiguredTiming } from '../shared/timingInputs.ts';
import type { MinorVersion } from './facts.ts';
import type { IstioGatewayApiFinding } from './finding.ts';
import type { GeneratedPod } from './generatedPod.ts';
import type { ConfigMapObject, GatewayObject } from './objects.ts';

/** The timing settings and versions the decision needs (the config's, resolved by the caller). */
export interface IstioGatewayApiInputs {
  readonly gateway: GatewayObject;
  /** The stream's objects: ConfigMaps (parameters, class defaults) and GatewayClasses. */
  readonly objects: readonly KubeObject[];
  /** The GatewayClass name, already known to be one istiod deploys (objects.ts
   * istioGatewayClasses). */
  readonly className: string;
  readonly istioVersion: MinorVersion & { readonly source: string };
  /** istiod's namespace, where class defaults live; undefined: any namespace. */
  readonly istiodNamespace?: string;
  readonly maxRequest: Sourced;
  readonly buffer: Sourced;
  /** W from the config or an annotation, overriding the load balancer found. */
  readonly drainWindow?: Sourced;
  /** The load balancer the settings name, taken over a Service that shows only a guess. */
  readonly provider?: ConfiguredTiming['provider'];
  /** The oldest kubelet's version: whether a node forwards to a terminating pod. */
  readonly kubernetesVersion: string;
}

/** A field to set on an object of the stream (as fn/mutators/types.ts ProposedChange, plus which
 * object). */
interface IstioGatewayApiChange {
  readonly object: 'gateway' | 'parameters';
  readonly path: FieldPath;
  readonly value: unknown;
  readonly reason: string;
}

/** What the decision returns. `create` is a ConfigMap to add to the stream next to the Gateway. */
export interface IstioGatewayApiOutcome {
  readonly changes: readonly IstioGatewayApiChange[];
  readonly create?: { readonly configMap: ConfigMapObject; readonly reason: string };
  readonly findings: readonly IstioGatewayApiFinding[];
  readonly timing?: GatewayApiTiming;
  /** The generated pod's shutdown settings as written and as patched (generatedPod.ts), with
   * timing. */
  readonly generated?: { readonly asWritten: GeneratedPod; readonly patched: GeneratedPod };
}

/** The plan, the inputs it was made from, and the load balancer they name. */
export interface GatewayApiTiming {
  readonly inputs: TimingInputs;
  readonly plan: TimingPlan;
  readonly loadBalancer: LoadBalancerRecognition;
}
