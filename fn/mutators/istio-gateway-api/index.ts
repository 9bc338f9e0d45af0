/**
 * istio-gateway-api (issue #19 item 1): a Gateway API `Gateway` of a class istiod deploys has its
 * Deployment generated in the cluster, never in the rendered stream. The drain settings reach it
 * through the overlay istiod merges last: the `data.deployment` of the ConfigMap the Gateway's
 * `spec.infrastructure.parametersRef` names (merged, keeping every key and comment of the user's),
 * or a new ConfigMap next to the Gateway and the parametersRef to it (./plan.ts). W comes from the
 * Service istiod would generate, i.e. the Gateway's infrastructure annotations and the overlays'
 * service, or the settings. Docs: docs/mutators/istio-gateway-api.md.
 */
import { settingText } from '../../config/schema.ts';
import type { Config, Spec } from '../../config/schema.ts';
import type { KubeObject } from '../../core/kubeObject.ts';
import { defineObjectMutator } from '../types.ts';
import { configuredTiming } from '../shared/timingInputs.ts';
import type {
  ObjectMutatorContext,
  ObjectMutatorOutcome,
  ProposedChange,
  ProposedEdit,
  ProposedFinding,
} from '../types.ts';
import { ambientGatewayFinding, ambientGatewayOf } from './ambientGateways.ts';
import { explainIstioGatewayApi } from './explain.ts';
import { ISTIO_GATEWAY_API_FINDING_CODES } from './findings.ts';
import type { IstioGatewayApiPlan } from './mutatorPlan.ts';
import {
  findConfigMap,
  isGateway,
  istioGatewayClasses,
  parametersRefOf,
  refOf,
} from './objects.ts';
import type { GatewayObject } from './objects.ts';
import { planIstioGatewayApi } from './plan.ts';
import type { IstioGatewayApiOutcome } from './decision.ts';
import { ISTIO_GATEWAY_API_SETTINGS } from './settings/slice.ts';
import { ISTIO_GATEWAY_API_COMPATIBILITY } from './compatibility.ts';

const GATEWAY_API = 'gateway.networking.k8s.io';

export const istioGatewayApi = defineObjectMutator<IstioGatewayApiPlan, 'istio-gateway-api'>({
  id: 'istio-gateway-api',
  settings: ISTIO_GATEWAY_API_SETTINGS,
  compatibility: ISTIO_GATEWAY_API_COMPATIBILITY,
  description:
    "Gateway API gateways istiod deploys: the drain settings in the Gateway's parameters " +
    'ConfigMap, which istiod merges into the Deployment it generates',
  findingCodes: ISTIO_GATEWAY_API_FINDING_CODES,
  kinds: [{ group: GATEWAY_API, kind: 'Gateway' }],
  // The parameters and class-defaults ConfigMaps; custom GatewayClasses of istiod's controller.
  // The other Gateways: a ConfigMap two of them name is left alone (sharedParameters).
  reads: [
    { group: '', kind: 'ConfigMap' },
    { group: GATEWAY_API, kind: 'GatewayClass' },
    // GKE: a NEG's window grows by the connection draining of the BackendConfigs its Service
    // names (fn/timing/serviceLoadBalancer.ts); the generated Service carries the Gateway's.
    { group: 'cloud.google.com', kind: 'BackendConfig' },
    { group: GATEWAY_API, kind: 'Gateway' },
  ],
  enabled: (spec) => spec.istioGatewayApi.mode !== 'off',
  mutate(object: KubeObject, context: ObjectMutatorContext) {
    if (!isGateway(object)) return { changes: [], findings: [] };
    // Waypoints and ambient east-west gateways: not planned, and the finding says why.
    const ambient = ambientGatewayOf(object, context.objects);
    if (ambient)
      return {
        changes: [],
        findings: [ambientGatewayFinding(ambient, istioVersionOf(context.spec, context.config))],
      };
    const className = object.spec?.gatewayClassName;
    // A Gateway of another controller's class (Envoy Gateway, Traefik…) is not istiod's to deploy.
    if (typeof className !== 'string' || !istioGatewayClasses(context.objects).has(className))
      return { changes: [], findings: [] };
    const shared = sharedParameters(object, context.objects);
    if (shared) return { changes: [], findings: [shared] };
    const { spec, config } = context;
    // gateway-mode is about every Istio gateway (issue #27 item 12): off leaves this one alone too.
    if (spec.gateway.mode === 'off') return { changes: [], findings: [] };
    const istio = istioVersionOf(spec, config);
    const decision = planIstioGatewayApi({
      gateway: object,
      objects: context.objects,
      className,
      istioVersion: istio,
      istiodNamespace: spec.istioGatewayApi.istiodNamespace,
      kubernetesVersion: spec.kubernetesVersion,
      ...configuredTiming(context),
    });
    if (spec.gateway.mode === 'sleep')
      return { changes: [], findings: [sleepModeFinding(decision)] };
    return outcomeOf(object, context, decision, istio);
  },
  explain: explainIstioGatewayApi,
});

/**
 * The finding for a parameters ConfigMap that another Gateway names too: each Gateway's plan has
 * its own W, and one overlay cannot hold two plans, so neither is written (the larger of two
 * plans would be right for both only if their load balancers were the same, which is not known).
 */
function sharedParameters(
  gateway: GatewayObject,
  objects: readonly KubeObject[],
): ProposedFinding | undefined {
  const ref = parametersRefOf(gateway);
  if (ref.kind !== 'configMap') return undefined;
  const namespace = gateway.metadata?.namespace;
  const others = objects
    .filter(isGateway)
    .filter((other) => other !== gateway && refOf(other) !== refOf(gateway))
    .filter((other) => {
      const theirs = parametersRefOf(other);
      return (
        theirs.kind === 'configMap' &&
        theirs.name === ref.name &&
        (other.metadata?.namespace ?? namespace) === namespace
      );
    });
  if (others.length === 0) return undefined;
  return {
    severity: 'warning',
    code: 'ISTIO_GATEWAY_API_PARAMETERS_SHARED',
    path: ['spec', 'infrastructure', 'parametersRef', 'name'],
    message:
      `the parameters ConfigMap ${ref.name} is named by ${others.map(refOf).join(', ')} too; ` +
      "each Gateway's drain plan has its own load balancer, and one overlay cannot hold two, " +
      'so nothing is written. Give each Gateway its own parameters ConfigMap (istiod merges ' +
      'the class defaults under it for what they share).',
  };
}

/**
 * gateway-mode sleep asks for a preStop sleep of S = W on the proxy instead of exit at zero
 * connections. kube-graceful writes only the env-mode settings into istiod's overlays, so it
 * writes nothing here rather than what the user did not ask for, and names the sleep-mode values
 * to set by hand (the numbers of docs/mutators/gateway-drain.md's sleep mode).
 */
function sleepModeFinding(decision: IstioGatewayApiOutcome): ProposedFinding {
  const inputs = decision.timing?.inputs;
  const numbers = inputs
    ? `: a preStop sleep of ${inputs.drainWindow.value} s on istio-proxy (the sleep action, ` +
      `kubelet 1.30+), terminationDrainDuration ${inputs.maxRequest.value}s in the pod's ` +
      `proxy.istio.io/config, and terminationGracePeriodSeconds ` +
      `${inputs.drainWindow.value + inputs.maxRequest.value + inputs.buffer.value}`
    : '';
  return {
    severity: 'warning',
    code: 'ISTIO_GATEWAY_API_SLEEP_MODE',
    message:
      'gateway-mode is sleep, but kube-graceful writes only the env-mode drain (exit at zero ' +
      "connections after W) into the overlays istiod merges into a Gateway's Deployment, so " +
      'nothing is written for this Gateway. Use gateway-mode env (which every istiod that reads ' +
      'parameters, 1.26+, supports), or set the sleep-mode values in its parameters ConfigMap ' +
      `by hand${numbers}.`,
  };
}

/** The run's Istio version, as the decision reads it, and where it came from. */
function istioVersionOf(spec: Spec, config: Config) {
  const [major, minor] = spec.istioVersion.split('.').map(Number);
  return {
    major: major ?? 0,
    minor: minor ?? 0,
    source: settingText(config, 'istioVersion', 'istio-version'),
  };
}

/** The decision as the engine takes it: the Gateway's fields, the ConfigMap's, the new one. */
function outcomeOf(
  gateway: GatewayObject,
  context: ObjectMutatorContext,
  decision: IstioGatewayApiOutcome,
  istio: ReturnType<typeof istioVersionOf>,
): ObjectMutatorOutcome<IstioGatewayApiPlan> {
  const changes: ProposedChange[] = [];
  const edits: ProposedEdit[] = [];
  const ref = parametersRefOf(gateway);
  const namespace = gateway.metadata?.namespace;
  const parameters =
    ref.kind === 'configMap' ? findConfigMap(context.objects, namespace, ref.name) : undefined;
  for (const { object, path, value, reason } of decision.changes) {
    if (object === 'gateway') changes.push({ path, value, reason });
    else if (parameters) edits.push({ target: parameters, path, value, reason });
    else throw new Error('internal: a parameters edit without the parameters ConfigMap');
  }
  const findings: ProposedFinding[] = decision.findings.map(({ object, path, ...finding }) => ({
    ...finding,
    // A path is the Gateway's field; one in a ConfigMap is named in the message instead.
    ...(path !== undefined && (object ?? 'gateway') === 'gateway' ? { path } : {}),
  }));
  const { timing, generated } = decision;
  if (timing === undefined || generated === undefined) return { changes, edits, findings };
  const written = parameters ?? decision.create?.configMap;
  return {
    changes,
    edits,
    findings,
    ...(decision.create
      ? { creates: [{ object: decision.create.configMap, reason: decision.create.reason }] }
      : {}),
    plan: {
      label: refOf(gateway),
      className: String(gateway.spec?.gatewayClassName),
      istio: { version: `${istio.major}.${istio.minor}`, source: istio.source },
      inputs: timing.inputs,
      timing: timing.plan,
      loadBalancer: timing.loadBalancer,
      generated,
      writtenTo: written
        ? `${refOf(written)} data.deployment${decision.create ? ' (added by kube-graceful)' : ''}`
        : 'the overlays in effect',
    },
  };
}
