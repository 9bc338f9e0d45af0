/**
 * The decision for one Gateway API `Gateway` that istiod deploys: the drain plan from the one
 * timing model, and where it goes: the `data.deployment` overlay of the ConfigMap the Gateway's
 * `spec.infrastructure.parametersRef` names (merged), or a new ConfigMap and the parametersRef to
 * it. Pure: objects in, changes and findings out; nothing here knows the engine. The steps, each in
 * its file: the ConfigMap to write (target.ts), the overlays in effect (layers.ts, effective.ts),
 * the plan (timing.ts), the settings (settingsDecision.ts), and where they go (placement.ts).
 *
 * The settings are gateway-drain's env mode for an injected gateway, by the same rule
 * (fn/mutators/shared/istioEnvMode.ts): MINIMUM_DRAIN_DURATION = M and
 * EXIT_ON_ZERO_ACTIVE_CONNECTIONS on istio-proxy, drainDuration = D in `proxy.istio.io/config`,
 * terminationGracePeriodSeconds = G.
 * They reach the generated pod as follows: env by the strategic merge of the overlay (containers
 * and env by name); the annotation because the kube-gateway template mounts the pod's annotations
 * at /etc/istio/pod (`istio-podinfo`, kube-gateway.yaml@1.26.8, @1.30.3), from which pilot-agent
 * reads `proxy.istio.io/config` over PROXY_CONFIG (pilot/cmd/pilot-agent/config/config.go@1.26.8).
 * The generated pod is not injected (label `sidecar.istio.io/inject: "false"`, istio-proxy rendered
 * by the template itself), so env on the container is the only way to pilot-agent's environment.
 */
import type { TimingCheckCode } from '../../timing/model.ts';
import { effectiveSettings } from './effective.ts';
import { istioVersionLabel } from './facts.ts';
import type { IstioGatewayApiFinding } from './finding.ts';
import { parametersTarget } from './target.ts';
import { readLayers } from './layers.ts';
import { readProxyConfigText } from './proxyConfigText.ts';
import { generatedService } from './service.ts';
import { generatedPod } from './generatedPod.ts';
import { nodeLocalFinding } from './nodeLocal.ts';
import { decideSettings } from './settingsDecision.ts';
import { planGatewayApiTiming } from './timing.ts';
import { placeSettings } from './placement.ts';
import type { IstioGatewayApiInputs, IstioGatewayApiOutcome } from './decision.ts';

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
  const target = parametersTarget(gateway, objects, inputs.istioVersion);
  if (!target.ok) return { changes: [], findings: [target.refusal] };
  const layers = readLayers(inputs, target);
  findings.push(...layers.findings);
  if (!layers.ok) return { changes: [], findings };
  const { classDefaults, classOverlay, classService, parametersOverlay, parametersService } =
    layers;

  const names = {
    parameters: target.name,
    classDefaults: classDefaults?.configMap.metadata?.name ?? '',
  };
  const effective = effectiveSettings(gateway, classOverlay, parametersOverlay);
  const service = generatedService(gateway, inputs.className, [classService, parametersService], {
    backendConfigs: objects.filter((o) => o.kind === 'BackendConfig'),
  });
  const proxyConfig = readProxyConfigText(effective.proxyConfig?.value);
  const timed = planGatewayApiTiming(inputs, { effective, names, proxyConfig }, service);
  if (!timed.ok) return { changes: [], findings: [...findings, timed.error] };
  const { timing } = timed;
  findings.push(
    ...timing.plan.checks
      .filter((c) => !UNUSED_TIMING_CHECKS.has(c.code))
      .map((c) => ({ severity: c.severity, code: c.code, message: c.message })),
  );
  const asWritten = generatedPod(effective, names);
  const nodeLocal = nodeLocalFinding(timing, inputs.kubernetesVersion, asWritten, target.name);
  if (nodeLocal) findings.push(nodeLocal);

  const inEffect = { effective, names, proxyConfig };
  const settings = decideSettings(
    inEffect,
    timing,
    istioVersionLabel(inputs.istioVersion),
    findings,
  );
  return placeSettings({ gateway, target, parametersOverlay }, settings, {
    findings,
    timing,
    generated: { asWritten, patched: generatedPod(effective, names, settings) },
  });
}
