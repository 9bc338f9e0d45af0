/**
 * envoy-gateway (issue #19 item 2): Envoy Gateway generates the proxy Deployment in the cluster
 * from the EnvoyProxy a GatewayClass or Gateway points at, so the shutdown settings are set on the
 * EnvoyProxy: spec.shutdown minDrainDuration and drainTimeout from the timing model and the load
 * balancer its envoyService describes (./shutdown.ts). The Gateways and GatewayClasses in the
 * stream are read for the findings about which EnvoyProxy each Gateway gets (./attachment.ts).
 * Docs: docs/mutators/envoy-gateway.md.
 */
import { sourceText } from '../../config/schema.ts';
import type { KubeObject } from '../../core/kubeObject.ts';
import { defineObjectMutator } from '../types.ts';
import type { MutatorOutcome, ObjectMutatorContext, ProposedFinding } from '../types.ts';
import { envoyProxyLocation, resolveAttachments } from './attachment.ts';
import { explainEnvoyGateway } from './explain.ts';
import { ENVOY_PROXY_GROUP, ENVOY_PROXY_KIND } from './facts.ts';
import { ENVOY_GATEWAY_FINDING_CODES } from './findings.ts';
import { loadBalancerInputs, recognizeEnvoyServiceLoadBalancer } from './loadBalancer.ts';
import { envoyProxyRef, isKind } from './objects.ts';
import type { EnvoyGatewayPlan } from './plan.ts';
import { planShutdown } from './shutdown.ts';
import type { ShutdownTimingInputs } from './shutdown.ts';

export { planEnvoyGateway } from './streamPlan.ts';
export type { EnvoyGatewaySettings } from './streamPlan.ts';

const GATEWAY_API = 'gateway.networking.k8s.io';

export const envoyGateway = defineObjectMutator<EnvoyGatewayPlan, 'envoy-gateway'>({
  id: 'envoy-gateway',
  description:
    'Envoy Gateway: EnvoyProxy spec.shutdown (minDrainDuration, drainTimeout) from the timing model, so the proxy outlasts the load balancer',
  findingCodes: ENVOY_GATEWAY_FINDING_CODES,
  kinds: [{ group: ENVOY_PROXY_GROUP, kind: ENVOY_PROXY_KIND }],
  // The other EnvoyProxies are read too: which one a Gateway gets decides the findings about it.
  reads: [
    { group: GATEWAY_API, kind: 'GatewayClass' },
    { group: GATEWAY_API, kind: 'Gateway' },
    { group: ENVOY_PROXY_GROUP, kind: ENVOY_PROXY_KIND },
  ],
  enabled: (spec) => spec.envoyGateway.mode !== 'off',
  mutate(object: KubeObject, context: ObjectMutatorContext): MutatorOutcome<EnvoyGatewayPlan> {
    const location = envoyProxyLocation(object);
    const recognized = recognizeEnvoyServiceLoadBalancer(location);
    const lb = loadBalancerInputs(recognized);
    const { spec, config } = context;
    const inputs: ShutdownTimingInputs = {
      drainWindow:
        spec.loadBalancer.drainWindowSeconds !== undefined
          ? {
              value: spec.loadBalancer.drainWindowSeconds,
              source: sourceText(config, 'loadBalancer.drainWindowSeconds', 'drain-window'),
            }
          : lb.drainWindow,
      maxRequest: {
        value: spec.timing.maxRequestSeconds,
        source: sourceText(config, 'timing.maxRequestSeconds', 'max-request'),
      },
      buffer: {
        value: spec.timing.bufferSeconds,
        source: sourceText(config, 'timing.bufferSeconds', 'buffer'),
      },
      ...(lb.loadBalancer ? { loadBalancer: lb.loadBalancer } : {}),
    };
    const outcome = planShutdown(location, inputs);
    const findings: ProposedFinding[] = [
      ...outcome.findings,
      ...gatewayFindings(object, context.objects),
    ];
    if (outcome.plan === undefined) return { changes: outcome.changes, findings };
    return {
      changes: outcome.changes,
      findings,
      plan: {
        label: location.label,
        inputs,
        loadBalancer: recognized.evidence,
        shutdown: outcome.plan,
      },
    };
  },
  explain: explainEnvoyGateway,
});

/**
 * The findings about the Gateways of an Envoy Gateway class (./attachment.ts): one whose own
 * EnvoyProxy is this one and replaces the class's goes with this EnvoyProxy; one whose EnvoyProxy
 * is not in the stream goes with the stream's first EnvoyProxy, so it is said once.
 */
function gatewayFindings(object: KubeObject, objects: readonly KubeObject[]): ProposedFinding[] {
  const same = (a: KubeObject, b: KubeObject) =>
    a.metadata?.name === b.metadata?.name &&
    (a.metadata?.namespace ?? '') === (b.metadata?.namespace ?? '');
  const proxies = objects.filter((o) => isKind(o, ENVOY_PROXY_KIND, ENVOY_PROXY_GROUP));
  const first = proxies[0] === undefined || same(proxies[0], object);
  // The stream's EnvoyProxies (this one among them, as written), and what points at them.
  const all = proxies.some((p) => same(p, object)) ? objects : [...objects, object];
  const findings: ProposedFinding[] = [];
  for (const { gateway, finding } of resolveAttachments(all).findings) {
    if (finding.code === 'EG_GATEWAY_PROXY_REPLACES_CLASS') {
      const own = envoyProxyRef(
        (gateway.spec as { infrastructure?: { parametersRef?: unknown } } | undefined)
          ?.infrastructure?.parametersRef,
      );
      const namespace = object.metadata?.namespace;
      if (
        own?.name !== object.metadata?.name ||
        (namespace != null && namespace !== gateway.metadata?.namespace)
      )
        continue;
    } else if (!first) {
      continue;
    }
    const { path: _path, ...rest } = finding; // its path is the Gateway's, not this object's
    findings.push(rest);
  }
  return findings;
}
