/**
 * envoy-gateway (issue #19 item 2): Envoy Gateway generates the proxy Deployment in the cluster
 * from the EnvoyProxy a GatewayClass or Gateway points at, so the shutdown settings are set on the
 * EnvoyProxy: spec.shutdown minDrainDuration and drainTimeout from the timing model and the load
 * balancer its envoyService describes (./shutdown.ts); so is the default EnvoyProxy spec in Envoy
 * Gateway's own config, inside its ConfigMap's text (./controllerConfigPlan.ts). Each Gateway of
 * an Envoy Gateway class gets the findings about which EnvoyProxy it gets (./gatewayFindings.ts).
 * Docs: docs/mutators/envoy-gateway.md.
 */
import type { KubeObject } from '../../core/kubeObject.ts';
import { defineObjectMutator } from '../types.ts';
import type { MutatorOutcome, ObjectMutatorContext } from '../types.ts';
import { CONTROLLER_CONFIG_KEY, isConfigMap } from './controllerConfig.ts';
import { planControllerConfig } from './controllerConfigPlan.ts';
import { explainEnvoyGateway } from './explain.ts';
import { ENVOY_PROXY_GROUP, ENVOY_PROXY_KIND } from './facts.ts';
import { ENVOY_GATEWAY_FINDING_CODES } from './findings.ts';
import { gatewayFindings } from './gatewayFindings.ts';
import { isKind } from './objects.ts';
import type { EnvoyGatewayPlan } from './plan.ts';
import { planEnvoyProxy } from './specPlan.ts';
import { ENVOY_GATEWAY_SETTINGS } from './settings/slice.ts';
import { ENVOY_GATEWAY_COMPATIBILITY } from './compatibility.ts';

export { planEnvoyGateway } from './streamPlan.ts';
export type { EnvoyGatewaySettings } from './streamPlan.ts';

const GATEWAY_API = 'gateway.networking.k8s.io';

export const envoyGateway = defineObjectMutator<EnvoyGatewayPlan, 'envoy-gateway'>({
  id: 'envoy-gateway',
  settings: ENVOY_GATEWAY_SETTINGS,
  compatibility: ENVOY_GATEWAY_COMPATIBILITY,
  description:
    'Envoy Gateway: EnvoyProxy spec.shutdown (minDrainDuration, drainTimeout) from the timing ' +
    'model, so the proxy outlasts the load balancer',
  findingCodes: ENVOY_GATEWAY_FINDING_CODES,
  // EnvoyProxies, and the default EnvoyProxy spec in Envoy Gateway's own config (a ConfigMap), get
  // the settings; a Gateway of an Envoy Gateway class gets the findings about its proxy settings
  // (nothing is ever written to it), whether or not any EnvoyProxy is in the stream.
  kinds: [
    { group: ENVOY_PROXY_GROUP, kind: ENVOY_PROXY_KIND },
    { group: '', kind: 'ConfigMap', mentions: CONTROLLER_CONFIG_KEY },
    { group: GATEWAY_API, kind: 'Gateway' },
  ],
  // The other EnvoyProxies and the controller's config are read too: which one a Gateway gets
  // decides the findings about it.
  reads: [
    { group: GATEWAY_API, kind: 'GatewayClass' },
    { group: GATEWAY_API, kind: 'Gateway' },
    { group: ENVOY_PROXY_GROUP, kind: ENVOY_PROXY_KIND },
    { group: '', kind: 'ConfigMap', mentions: CONTROLLER_CONFIG_KEY },
    // GKE: a NEG's window grows by the connection draining of the BackendConfigs its Service
    // names (fn/timing/serviceLoadBalancer.ts); envoyService's annotations may name them.
    { group: 'cloud.google.com', kind: 'BackendConfig' },
  ],
  enabled: (spec) => spec.envoyGateway.mode !== 'off',
  mutate(object: KubeObject, context: ObjectMutatorContext): MutatorOutcome<EnvoyGatewayPlan> {
    if (isKind(object, 'Gateway', GATEWAY_API))
      return { changes: [], findings: gatewayFindings(object, context.objects) };
    if (isConfigMap(object)) return planControllerConfig(object, context);
    return planEnvoyProxy(object, context);
  },
  explain: explainEnvoyGateway,
});
