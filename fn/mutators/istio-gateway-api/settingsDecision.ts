/**
 * The settings the drain plan writes into the Gateway's `data.deployment` overlay, decided in three
 * steps over what the overlays in effect set (effective.ts): istio-proxy's env (the one env-mode
 * rule, fn/mutators/shared/istioEnvMode.ts), drainDuration in `proxy.istio.io/config`, and the
 * grace period. A user's value is kept where larger or of another kind, with a finding; each
 * setting written gets a reason line naming where the old value was.
 */
import { formatGoDurationSeconds } from '../../timing/durations.ts';
import { graceToWrite } from '../../timing/model.ts';
import type { Derived, TimingInputs, TimingPlan } from '../../timing/model.ts';
import { ISTIO_DEFAULT_DRAIN_DURATION_SECONDS } from '../../timing/platformDefaults.ts';
import { sourceLine } from '../../core/source.ts';
import { decideEnvMode, drainDurationToWrite } from '../shared/istioEnvMode.ts';
import { layerName } from './effective.ts';
import type { EffectiveSettings, Layered } from './effective.ts';
import { PROXY_CONFIG_ANNOTATION } from './facts.ts';
import type { IstioGatewayApiFinding } from './finding.ts';
import type { OverlaySettings } from './overlayEdit.ts';
import { withDrainDuration } from './proxyConfigText.ts';
import type { readProxyConfigText } from './proxyConfigText.ts';
import type { InEffect } from './timing.ts';
import type { GatewayApiTiming } from './decision.ts';
import { ISTIO } from '../../facts/versionGates.ts';

/** What every step reads, and where it adds its findings and reason lines. */
interface Step {
  readonly effective: EffectiveSettings;
  readonly plan: TimingPlan;
  readonly inputs: TimingInputs;
  /** Names the layer a value is set in. */
  readonly where: (layered: Layered<unknown>) => string;
  readonly findings: IstioGatewayApiFinding[];
  readonly reasons: string[];
}

/** Returns the settings to write and their reasons; findings for what is kept go to `findings`. */
export function decideSettings(
  { effective, names, proxyConfig }: InEffect,
  { plan, inputs }: Pick<GatewayApiTiming, 'plan' | 'inputs'>,
  version: string,
  findings: IstioGatewayApiFinding[],
): OverlaySettings & { readonly reasons: string[] } {
  const step: Step = {
    effective,
    plan,
    inputs,
    where: (layered) => layerName(layered.layer, names),
    findings,
    reasons: [],
  };
  const env = envSettings(step, version);
  const proxyConfigText = drainDurationSetting(step, proxyConfig);
  const grace = graceSetting(step);
  const { reasons } = step;
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

/** MINIMUM_DRAIN_DURATION and EXIT_ON_ZERO_ACTIVE_CONNECTIONS to write on istio-proxy. */
function envSettings(
  { effective, plan, where, findings, reasons }: Step,
  version: string,
): Array<{ name: string; value: string }> {
  const env: Array<{ name: string; value: string }> = [];
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
        `(pkg/envoy/agent.go@1.26.8 terminate; Istio ≥ ${ISTIO.exitOnZero.since}). ${version}.`,
    );
  }

  return env;
}

/** The `proxy.istio.io/config` text with drainDuration D merged in, where it is to be written. */
function drainDurationSetting(
  { effective, plan, inputs, where, findings, reasons }: Step,
  proxyConfig: ReturnType<typeof readProxyConfigText>,
): string | undefined {
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

  return proxyConfigText;
}

/**
 * terminationGracePeriodSeconds to write; the model keeps a larger one (G's formula says so).
 */
function graceSetting({
  effective,
  plan,
  inputs,
  where,
  findings,
  reasons,
}: Step): number | undefined {
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
  return grace;
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
