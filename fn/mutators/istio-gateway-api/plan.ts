/**
 * The decision for one Gateway API `Gateway` that istiod deploys: the drain plan from the one
 * timing model, and where it goes: the `data.deployment` overlay of the ConfigMap the Gateway's
 * `spec.infrastructure.parametersRef` names (merged), or a new ConfigMap and the parametersRef to
 * it. Pure: objects in, changes and findings out; nothing here knows the engine.
 *
 * The settings are gateway-drain's env mode for an injected gateway
 * (fn/mutators/gateway/envMode.ts): MINIMUM_DRAIN_DURATION = M and EXIT_ON_ZERO_ACTIVE_CONNECTIONS
 * on istio-proxy, drainDuration = D in `proxy.istio.io/config`, terminationGracePeriodSeconds = G.
 * They reach the generated pod as follows: env by the strategic merge of the overlay (containers
 * and env by name); the annotation because the kube-gateway template mounts the pod's annotations
 * at /etc/istio/pod (`istio-podinfo`, kube-gateway.yaml@1.26.8, @1.30.3), from which pilot-agent
 * reads `proxy.istio.io/config` over PROXY_CONFIG (pilot/cmd/pilot-agent/config/config.go@1.26.8).
 * The generated pod is not injected (label `sidecar.istio.io/inject: "false"`, istio-proxy rendered
 * by the template itself), so env on the container is the only way to pilot-agent's environment.
 */
import { formatGoDurationSeconds } from '../../timing/durations.ts';
import type { LoadBalancerRecognition } from '../../timing/loadBalancerTable.ts';
import { userProviderOverUnknown } from '../../timing/loadBalancerTable.ts';
import { unknownOf } from '../shared/timingInputs.ts';
import { connectionClosingInputs } from '../../timing/connectionClosing.ts';
import type { ConfiguredTiming } from '../shared/timingInputs.ts';
import { graceToWrite, planTimingResult } from '../../timing/model.ts';
import type {
  Derived,
  Sourced,
  TimingCheckCode,
  TimingInputs,
  TimingPlan,
} from '../../timing/model.ts';
import { ISTIO_DEFAULT_DRAIN_DURATION_SECONDS } from '../../timing/platformDefaults.ts';
import type { FieldPath } from '../../core/fieldPath.ts';
import type { KubeObject } from '../../core/kubeObject.ts';
import { valueForMessage } from '../../core/scalarText.ts';
import { comparableSeconds, isInt64 } from '../../workloads/grace.ts';
import { effectiveSettings, layerName } from './effective.ts';
import type { EffectiveSettings, Layered } from './effective.ts';
import {
  INFRASTRUCTURE_STANDARD_SINCE,
  istioVersionLabel,
  PROXY_CONFIG_ANNOTATION,
} from './facts.ts';
import type { MinorVersion } from './facts.ts';
import { refOf } from './objects.ts';
import type { ConfigMapObject, GatewayObject } from './objects.ts';
import type { IstioGatewayApiFinding } from './finding.ts';
import { parametersTarget } from './target.ts';
import { notMergeable } from './finding.ts';
import { readLayers } from './layers.ts';
import { mergeDeploymentOverlay } from './overlayEdit.ts';
import type { OverlaySettings } from './overlayEdit.ts';
import { readProxyConfigText, withDrainDuration } from './proxyConfigText.ts';
import { generatedService } from './service.ts';
import { generatedPod } from './generatedPod.ts';
import { nodeLocalFinding } from './nodeLocal.ts';
import type { GeneratedPod } from './generatedPod.ts';
import { sourceLine } from '../../core/source.ts';
import {
  decideEnvMode,
  drainDurationToWrite,
  keptMinimumPlan,
  withKeptMinimum,
} from '../shared/istioEnvMode.ts';

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
  readonly timing?: {
    readonly inputs: TimingInputs;
    readonly plan: TimingPlan;
    readonly loadBalancer: LoadBalancerRecognition;
  };
  /** The generated pod's shutdown settings as written and as patched (generatedPod.ts), with
   * timing. */
  readonly generated?: { readonly asWritten: GeneratedPod; readonly patched: GeneratedPod };
}

/**
 * The timing model's checks that do not apply here: the generated pod has no sidecar to wait for,
 * and no preStop to read (the proxy's minimum drain is S, which the model sets to at least W).
 */
export const UNUSED_TIMING_CHECKS: ReadonlySet<TimingCheckCode> = new Set([
  'SIDECAR_WAIT_NOT_BELOW_GRACE',
  'PRESTOP_BELOW_WINDOW',
  'PRESTOP_LENGTH_UNKNOWN',
  // The generated pods' nodes are not read here: no node budget reaches these inputs.
  'NODE_SHUTDOWN_BUDGET',
]);

/** Returns the changes and findings for one Gateway (see the file comment). */
export function planIstioGatewayApi(inputs: IstioGatewayApiInputs): IstioGatewayApiOutcome {
  const { gateway, objects } = inputs;
  const findings: IstioGatewayApiFinding[] = [];
  const gatewayRef = refOf(gateway);
  const version = istioVersionLabel(inputs.istioVersion);
  const target = parametersTarget(gateway, objects, inputs.istioVersion);
  if (!target.ok) return { changes: [], findings: [target.refusal] };
  const { configMap: parameters, name: parametersName } = target;
  const namespace = gateway.metadata?.namespace;

  const layers = readLayers(inputs, target);
  findings.push(...layers.findings);
  if (!layers.ok) return { changes: [], findings };
  const { classDefaults, classOverlay, classService, parametersOverlay, parametersService } =
    layers;

  const names = {
    parameters: parametersName,
    classDefaults: classDefaults?.configMap.metadata?.name ?? '',
  };
  const effective = effectiveSettings(gateway, classOverlay, parametersOverlay);
  const service = generatedService(gateway, inputs.className, [classService, parametersService], {
    backendConfigs: objects.filter((o) => o.kind === 'BackendConfig'),
  });
  const proxyConfig = readProxyConfigText(effective.proxyConfig?.value);
  const graceValue = effective.grace?.value;
  if (graceValue !== undefined && !isInt64(graceValue)) {
    return {
      changes: [],
      findings: [
        ...findings,
        timingInputError(
          `terminationGracePeriodSeconds ${valueForMessage(graceValue)} ` +
            `in ${layerName(effective.grace!.layer, names)}` +
            ` is not a whole number of seconds`,
        ),
      ],
    };
  }
  const recognition = userProviderOverUnknown(service.recognition, inputs.provider);
  const drainWindow: Sourced = inputs.drainWindow ?? {
    value: recognition.drainWindowSeconds,
    source: { kind: 'load-balancer', evidence: recognition.evidence, generatedFor: gatewayRef },
    ...unknownOf(recognition),
  };
  // When the load balancer closes the proxy's connections: the generated Service's target-group
  // attributes (AWS) or its BackendConfig's connection draining (GKE).
  const closing = connectionClosingInputs(
    recognition,
    `on the Service istiod generates for ${gatewayRef}`,
  );
  const planned: TimingInputs = {
    drainWindow,
    maxRequest: inputs.maxRequest,
    buffer: inputs.buffer,
    ...(closing === undefined ? {} : { loadBalancer: closing }),
    ...(graceValue === undefined ? {} : { existingGraceSeconds: comparableSeconds(graceValue) }),
    ...(proxyConfig.ok && proxyConfig.drainSeconds !== undefined
      ? { existingDrainDurationSeconds: Math.ceil(proxyConfig.drainSeconds) }
      : {}),
  };
  // A user's longer minimum drain is kept, so the proxy serves that long: the model's S.
  const userMinimum = effective.env['MINIMUM_DRAIN_DURATION'];
  const timingInputs = withKeptMinimum(planned, userMinimum?.value);
  const result = planTimingResult(timingInputs);
  if (!result.ok) return { changes: [], findings: [...findings, timingInputError(result.problem)] };
  const plan = keptMinimumPlan(
    result.plan,
    timingInputs,
    userMinimum?.value,
    userMinimum ? layerName(userMinimum.layer, names) : '',
  );
  findings.push(
    ...plan.checks
      .filter((c) => !UNUSED_TIMING_CHECKS.has(c.code))
      .map((c) => ({ severity: c.severity, code: c.code, message: c.message })),
  );
  const timing = { inputs: timingInputs, plan, loadBalancer: recognition };
  const asWritten = generatedPod(effective, names);
  const nodeLocal = nodeLocalFinding(
    recognition,
    inputs.kubernetesVersion,
    asWritten,
    drainWindow.value,
    parametersName,
  );
  if (nodeLocal) findings.push(nodeLocal);

  const settings = decideSettings(
    effective,
    plan,
    timingInputs,
    names,
    version,
    findings,
    proxyConfig,
  );
  if (
    settings.graceSeconds === undefined &&
    settings.env.length === 0 &&
    settings.proxyConfig === undefined
  ) {
    return { changes: [], findings, timing, generated: { asWritten, patched: asWritten } };
  }
  const merged = mergeDeploymentOverlay(
    parametersOverlay.state === 'ok' ? parametersOverlay : undefined,
    settings,
  );
  if (merged === undefined) {
    return {
      changes: [],
      findings: [
        ...findings,
        notMergeable(parametersName, 'data.deployment has a containers or env that is not a list'),
      ],
      timing,
      generated: { asWritten, patched: asWritten },
    };
  }
  const reason = settings.reasons.join('\n');
  const generated = { asWritten, patched: generatedPod(effective, names, settings) };
  if (parameters !== undefined) {
    return {
      changes: [{ object: 'parameters', path: ['data', 'deployment'], value: merged, reason }],
      findings,
      timing,
      generated,
    };
  }
  const configMap: ConfigMapObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: parametersName, ...(namespace ? { namespace } : {}) },
    data: { deployment: merged },
  };
  const why =
    `${gatewayRef} has no spec.infrastructure.parametersRef: kube-graceful ` +
    `creates ConfigMap ${parametersName} in its namespace (istiod reads a ` +
    `parameters ConfigMap ` +
    ('only there: fetchParameters, deploymentcontroller.go@1.26.8) and ' +
      'points the Gateway at it. istiod merges its data.deployment into the ' +
      'Deployment it generates, after the class defaults, so it wins. ' +
      `spec.infrastructure needs the standard Gateway CRD of ${INFRASTRUCTURE_STANDARD_SINCE} ` +
      'or later (or the experimental channel): an older CRD prunes the field silently.');
  return {
    changes: [
      {
        object: 'gateway',
        path: ['spec', 'infrastructure', 'parametersRef'],
        value: { group: '', kind: 'ConfigMap', name: parametersName },
        reason: why,
      },
    ],
    create: { configMap, reason: `${why}\n${reason}` },
    findings,
    timing,
    generated,
  };
}

/** The settings to write, the reasons, and findings for what is kept. */
function decideSettings(
  effective: EffectiveSettings,
  plan: TimingPlan,
  inputs: TimingInputs,
  names: { readonly parameters: string; readonly classDefaults: string },
  version: string,
  findings: IstioGatewayApiFinding[],
  proxyConfig: ReturnType<typeof readProxyConfigText>,
): OverlaySettings & { readonly reasons: string[] } {
  const reasons: string[] = [];
  const env: Array<{ name: string; value: string }> = [];
  const where = (layered: Layered<unknown>): string => layerName(layered.layer, names);

  const M = plan.minimumDrainSeconds;
  const minimum = effective.env['MINIMUM_DRAIN_DURATION'];
  const exit = effective.env['EXIT_ON_ZERO_ACTIVE_CONNECTIONS'];
  const decision = decideEnvMode({ minimum: minimum?.value, exit: exit?.value }, plan);
  if (decision.minimum.kind === 'other') {
    findings.push(
      otherValueKept(
        'MINIMUM_DRAIN_DURATION',
        minimum!,
        where(minimum!),
        `the plan needs ${formatGoDurationSeconds(M.value)} (${M.formula}); ` +
          `Istio reads only a Go duration in value and falls back to 5 s ` +
          `otherwise (pilot/cmd/pilot-agent/options/options.go@1.26.8)`,
      ),
    );
  } else if (decision.minimum.kind === 'write') {
    const { value } = decision.minimum;
    env.push({ name: 'MINIMUM_DRAIN_DURATION', value });
    reasons.push(
      line(
        `istio-proxy env MINIMUM_DRAIN_DURATION = "${value}"`,
        [M, plan.preStopSeconds],
        minimum
          ? `raised from ${JSON.stringify(minimum.value.value)} set in ${where(minimum)}`
          : undefined,
      ),
    );
  }
  if (decision.exit.kind === 'other') {
    findings.push(
      otherValueKept(
        'EXIT_ON_ZERO_ACTIVE_CONNECTIONS',
        exit!,
        where(exit!),
        'without it pilot-agent does not exit at zero connections after ' +
          'MINIMUM_DRAIN_DURATION but kills Envoy after terminationDrainDuration ' +
          '(5 s by default) once draining starts (pkg/envoy/agent.go@1.26.8 ' +
          'terminate), and the plan above does not hold',
      ),
    );
  } else if (decision.exit.kind === 'write') {
    env.push({ name: 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS', value: decision.exit.value });
    reasons.push(
      `istio-proxy env EXIT_ON_ZERO_ACTIVE_CONNECTIONS = "true": after ` +
        `MINIMUM_DRAIN_DURATION pilot-agent exits once Envoy has no active ` +
        `connections, instead of killing it after terminationDrainDuration ` +
        `(pkg/envoy/agent.go@1.26.8 terminate; Istio ≥ 1.12). ${version}.`,
    );
  }

  // drainDuration in proxy.istio.io/config, merged into the text in effect.
  const D = plan.drainDurationSeconds;
  let proxyConfigText: string | undefined;
  if (!proxyConfig.ok) {
    findings.push({
      severity: 'warning',
      code: 'ISTIO_GATEWAY_API_PROXY_CONFIG_NOT_MERGEABLE',
      object:
        effective.proxyConfig?.layer === 'gateway-annotations'
          ? 'gateway'
          : effective.proxyConfig?.layer === 'class-defaults'
            ? 'class-defaults'
            : 'parameters',
      message:
        `${PROXY_CONFIG_ANNOTATION} ` +
        `in ${effective.proxyConfig ? where(effective.proxyConfig) : 'the overlay'}` +
        ` is left as it is: ${proxyConfig.problem}. The plan needs ` +
        `drainDuration: ${formatGoDurationSeconds(D.value)} in it (${D.formula}` +
        `); add it by hand.`,
    });
  } else if (
    drainDurationToWrite(
      { text: proxyConfig.drainText, seconds: proxyConfig.drainSeconds },
      D.value,
    )
  ) {
    const value = formatGoDurationSeconds(D.value);
    proxyConfigText = withDrainDuration(proxyConfig.text, value);
    const from =
      effective.proxyConfig === undefined
        ? `Istio's default drainDuration is ${ISTIO_DEFAULT_DRAIN_DURATION_SECONDS}` +
          ` s (pkg/config/mesh/mesh.go@1.16.7, unchanged through 1.30)`
        : `merged key by key into the ${PROXY_CONFIG_ANNOTATION} ` +
          `of ${where(effective.proxyConfig)}` +
          `, which the overlay's annotation replaces on the pod as a whole; ` +
          `every other field kept`;
    reasons.push(
      line(
        `pod annotation ${PROXY_CONFIG_ANNOTATION} drainDuration = "${value}"`,
        [D],
        `${from}; pilot-agent reads it from the pod's annotations file ` +
          `/etc/istio/pod/annotations (the istio-podinfo volume of ` +
          `kube-gateway.yaml@1.26.8, @1.30.3; ` +
          `pilot/cmd/pilot-agent/config/config.go@1.26.8)`,
      ),
    );
  } else if (
    proxyConfig.drainSeconds !== undefined &&
    proxyConfig.drainSeconds > inputs.drainWindow.value + inputs.buffer.value
  ) {
    findings.push(
      keptLarger(
        'drainDuration',
        String(proxyConfig.drainText),
        where(effective.proxyConfig!),
        `${inputs.drainWindow.value + inputs.buffer.value}s (D = W + B)`,
      ),
    );
  }

  // terminationGracePeriodSeconds: the model keeps a larger one (G's formula says so).
  const G = plan.graceSeconds;
  const needed = plan.preStopSeconds.value + inputs.maxRequest.value + inputs.buffer.value;
  const existing = typeof effective.grace?.value === 'number' ? effective.grace.value : undefined;
  const grace =
    existing !== undefined && existing >= G.value ? undefined : graceToWrite(G.value, existing);
  if (existing !== undefined && existing > needed) {
    findings.push(
      keptLarger(
        'terminationGracePeriodSeconds',
        String(existing),
        where(effective.grace!),
        `${needed} (G = S + R + B)`,
      ),
    );
  }
  if (grace !== undefined) {
    reasons.push(
      line(
        `terminationGracePeriodSeconds = ${grace}`,
        [G],
        existing === undefined
          ? "istiod's kube-gateway template sets none, so the pod has Kubernetes' " +
              '30 s (kube-gateway.yaml@1.26.8, @1.30.3)'
          : `raised from ${existing} set in ${where(effective.grace!)}`,
      ),
    );
  }
  if (reasons.length > 0)
    reasons.push(
      sourceLine('W', inputs.drainWindow.source),
      sourceLine('R', inputs.maxRequest.source),
      sourceLine('B', inputs.buffer.source),
    );
  return {
    ...(grace === undefined ? {} : { graceSeconds: grace }),
    env,
    ...(proxyConfigText === undefined ? {} : { proxyConfig: proxyConfigText }),
    reasons,
  };
}

function line(setting: string, steps: readonly Derived[], note?: string): string {
  const formulas = steps.map((s) => s.formula).join('; ');
  const explanation = steps[0]?.explanation ?? '';
  return `${setting}: ${formulas}. ${explanation}${note ? ` (${note}.)` : ''}`.trimEnd();
}

function keptLarger(
  setting: string,
  value: string,
  where: string,
  needed: string,
): IstioGatewayApiFinding {
  return {
    severity: 'info',
    code: 'ISTIO_GATEWAY_API_VALUE_KEPT',
    message: `${setting} ${value} set in ${where} is more than the plan needs (${needed}); kept.`,
  };
}

function otherValueKept(
  setting: string,
  layered: Layered<{ value?: unknown; valueFrom?: unknown }>,
  where: string,
  why: string,
): IstioGatewayApiFinding {
  const shown =
    layered.value.valueFrom !== undefined ? 'valueFrom' : JSON.stringify(layered.value.value);
  return {
    severity: 'warning',
    code: 'ISTIO_GATEWAY_API_VALUE_OTHER',
    message:
      `istio-proxy env ${setting} is ${shown} in ${where}; kube-graceful ` +
      `keeps a user's value: ${why}. Change it there, or remove it so ` +
      `kube-graceful sets it.`,
  };
}

function timingInputError(message: string): IstioGatewayApiFinding {
  return {
    severity: 'error',
    code: 'ISTIO_GATEWAY_API_TIMING_INPUT',
    message: `No drain plan: ${message}. Fix that value.`,
  };
}
