/**
 * The load balancer in front of an Envoy Gateway proxy, read from the EnvoyProxy: Envoy Gateway
 * generates the proxy Service from spec.provider.kubernetes.envoyService (annotations, type,
 * externalTrafficPolicy, loadBalancerClass: api/v1alpha1/shared_types.go@v1.9.0
 * KubernetesServiceSpec), so that is where the load balancer's annotations live. The Service
 * itself never reaches the rendered stream.
 */
import { recognizeServiceLoadBalancer, unknownDrainWindow } from '../../timing/loadBalancers.ts';
import type { LoadBalancerRecognition } from '../../timing/loadBalancers.ts';
import type { TimingInputs } from '../../timing/model.ts';
import type { KubeObject } from '../../core/kubeObject.ts';
import { DEFAULT_EXTERNAL_TRAFFIC_POLICY, DEFAULT_SERVICE_TYPE } from './facts.ts';
import type { SpecLocation } from './objects.ts';
import { scalarText } from '../../core/scalarText.ts';
import { connectionClosingInputs } from '../../timing/connectionClosing.ts';
import type { ServiceRecognitionContext } from '../../timing/serviceLoadBalancer.ts';

/**
 * The parts of `envoyService.patch.value` that decide the load balancer: its annotations and the
 * Service's type, traffic policy and class. Envoy Gateway applies the patch last, over the Service
 * it built (`utils.MergeWithPatch`, internal/infrastructure/kubernetes/proxy/resource_provider.go
 * @v1.9.0; StrategicMerge by default, or JSONMerge): for these fields both merge a map key by key
 * (a null removes the key) and replace a scalar. Its own docs put annotations there
 * (site/content/en/latest/tasks/operations/customize-envoyproxy.md@v1.9.0), so an NLB set that way
 * is read (issue #27 item 8).
 */
function patchOf(service: { patch?: unknown }): {
  annotations: Record<string, unknown>;
  spec: Record<string, unknown>;
} {
  const value = (service.patch as { value?: unknown } | null | undefined)?.value;
  const record = (v: unknown): Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  return {
    annotations: record(record(record(value)['metadata'])['annotations']),
    spec: record(record(value)['spec']),
  };
}

/**
 * Returns the load balancer the generated Service will get, recognised as for any Service
 * (fn/timing/serviceLoadBalancer.ts), with Envoy Gateway's own Service defaults filled in and its
 * `patch` applied.
 */
export function recognizeEnvoyServiceLoadBalancer(
  location: SpecLocation,
  context: ServiceRecognitionContext,
): LoadBalancerRecognition {
  const service = location.spec.provider?.kubernetes?.envoyService ?? {};
  const patch = patchOf(service as { patch?: unknown });
  const annotations: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...service.annotations, ...patch.annotations })) {
    if (value !== undefined && value !== null) annotations[key] = scalarText(value);
  }
  const patched = (field: string, written: unknown): unknown =>
    field in patch.spec ? patch.spec[field] : written;
  const type = patched('type', service.type);
  const policy = patched('externalTrafficPolicy', service.externalTrafficPolicy);
  const loadBalancerClass = patched('loadBalancerClass', service.loadBalancerClass);
  const generated: KubeObject = {
    apiVersion: 'v1',
    kind: 'Service',
    // The recognizer names its Service in the evidence; this one exists only in the cluster.
    metadata: { name: `generated from ${location.label} envoyService`, annotations },
    spec: {
      type: typeof type === 'string' ? type : DEFAULT_SERVICE_TYPE,
      externalTrafficPolicy: typeof policy === 'string' ? policy : DEFAULT_EXTERNAL_TRAFFIC_POLICY,
      ...(typeof loadBalancerClass === 'string' ? { loadBalancerClass } : {}),
    },
  };
  return recognizeServiceLoadBalancer(generated, context);
}

/** The drain window W and the target group's deregistration settings, as the timing model takes
 * them. */
export function loadBalancerInputs(
  recognized: LoadBalancerRecognition,
): Pick<TimingInputs, 'drainWindow' | 'loadBalancer'> {
  const unknown = unknownDrainWindow(recognized);
  const drainWindow = {
    value: recognized.drainWindowSeconds,
    source: { kind: 'load-balancer', evidence: recognized.evidence } as const,
    ...(unknown ? { unknown } : {}),
  };
  const loadBalancer = connectionClosingInputs(
    recognized,
    'in the envoyService target-group attributes annotation',
  );
  return loadBalancer === undefined ? { drainWindow } : { drainWindow, loadBalancer };
}
