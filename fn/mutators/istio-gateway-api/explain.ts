/**
 * What `explain` says about a Gateway istiod deploys: W, R and B with their sources, S, G, M and D
 * derived, the generated pod's drain settings as the overlays in effect make them and as the
 * settings written make them (./generatedPod.ts), and the proxy's timeline in each state, drawn as
 * for a gateway chart's pod (fn/mutators/shared/istioGatewayTimeline.ts).
 */
import type { PodTemplate } from '../../core/kubeObject.ts';
import {
  graceOf,
  istioDrainSettings,
  preStopOf,
  readinessHoldOf,
} from '../../explanation/podSettings.ts';
import {
  container,
  flag,
  inputsOf,
  output,
  row,
  seconds,
  traffic,
} from '../../explanation/rows.ts';
import type { ExplanationBody, SettingRow, SettingValue } from '../../explanation/types.ts';
import type { Valued } from '../../explanation/podSettings.ts';
import { LOAD_BALANCERS, nodeForwardingOf } from '../../timing/loadBalancers.ts';
import { withNodeForwarding } from '../../explanation/timeline.ts';
import { gatewayTimeline } from '../shared/istioGatewayTimeline.ts';
import type { GatewayState } from '../shared/istioGatewayTimeline.ts';
import { PROXY_CONFIG_ANNOTATION, PROXY_CONTAINER } from './facts.ts';
import type { GeneratedPod } from './generatedPod.ts';
import type { IstioGatewayApiPlan } from './mutatorPlan.ts';
import type { ObjectExplainContext } from '../types.ts';

/** Returns the explanation of one Gateway's plan. */
export function explainIstioGatewayApi(
  plan: IstioGatewayApiPlan,
  context: ObjectExplainContext,
): ExplanationBody {
  const { inputs, timing } = plan;
  const before = state(plan.generated.asWritten.template);
  const after = state(plan.generated.patched.template);
  const lb = LOAD_BALANCERS[plan.loadBalancer.provider].label;
  const settings = settingRows(plan, before, after);
  const trafficInputs = withNodeForwarding(
    traffic(inputs, `from the load balancer (${lb})`),
    nodeForwardingOf(plan.loadBalancer, context.spec.kubernetesVersion),
  );
  return {
    role: 'gateway',
    summary:
      `Istio gateway deployed by istiod for ${plan.label} (class ${plan.className}); ` +
      `its Deployment is generated in the cluster from ${plan.writtenTo}; ` +
      `Istio ${plan.istio.version} (${plan.istio.source})`,
    inputs: inputsOf(inputs),
    derived: [
      output('S', 'serve before exit', timing.preStopSeconds),
      output('G', 'grace period', timing.graceSeconds),
      output('M', 'MINIMUM_DRAIN_DURATION', timing.minimumDrainSeconds),
      output('D', 'drainDuration', timing.drainDurationSeconds),
    ],
    settings,
    timelines: {
      asWritten: gatewayTimeline(before, trafficInputs),
      patched: gatewayTimeline(after, trafficInputs),
    },
  };
}

/** The Settings rows: each setting as written and as patched, where it is set, and the plan. */
function settingRows(
  plan: IstioGatewayApiPlan,
  before: GatewayState,
  after: GatewayState,
): SettingRow[] {
  const { timing } = plan;
  const { asWritten, patched } = plan.generated;
  // Where each value is set: a ConfigMap's overlay, not the "manifest" a rendered pod would be.
  const at =
    (pod: GeneratedPod, setting: string) =>
    <T>(value: Valued<T>): Valued<T> => {
      const source = pod.sources[setting];
      return source === undefined || value.isDefault
        ? value
        : {
            ...value,
            source: `${value.source === 'manifest' ? setting : value.source} in ${source}`,
          };
    };
  const unused = (v: SettingValue, exitOnZero: boolean): SettingValue =>
    exitOnZero ? { ...v, display: `${v.display} (unused: exit-on-zero)` } : v;
  return [
    row(
      'terminationGracePeriodSeconds',
      seconds(at(asWritten, 'terminationGracePeriodSeconds')(before.grace)),
      seconds(at(patched, 'terminationGracePeriodSeconds')(after.grace)),
      {
        symbol: 'G',
        value: timing.graceSeconds.value,
        relation: '≥',
      },
    ),
    row(
      'EXIT_ON_ZERO_ACTIVE_CONNECTIONS',
      flag(at(asWritten, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS')(before.istio.exitOnZero)),
      flag(at(patched, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS')(after.istio.exitOnZero)),
      { symbol: 'mode', value: true, relation: '=' },
    ),
    row(
      'MINIMUM_DRAIN_DURATION',
      seconds(at(asWritten, 'MINIMUM_DRAIN_DURATION')(before.istio.minimumDrainSeconds)),
      seconds(at(patched, 'MINIMUM_DRAIN_DURATION')(after.istio.minimumDrainSeconds)),
      { symbol: 'M', value: timing.minimumDrainSeconds.value, relation: '≥' },
    ),
    row(
      'drainDuration',
      seconds(at(asWritten, PROXY_CONFIG_ANNOTATION)(before.istio.drainDurationSeconds)),
      seconds(at(patched, PROXY_CONFIG_ANNOTATION)(after.istio.drainDurationSeconds)),
      { symbol: 'D', value: timing.drainDurationSeconds.value, relation: '≥' },
    ),
    row(
      'terminationDrainDuration',
      unused(seconds(before.istio.terminationDrainSeconds), before.istio.exitOnZero.value),
      unused(seconds(after.istio.terminationDrainSeconds), after.istio.exitOnZero.value),
    ),
  ];
}

/** The generated pod's shutdown state: the annotation applies, as the pod mounts it (./plan.ts). */
function state(template: PodTemplate): GatewayState {
  const proxy = container(template, PROXY_CONTAINER);
  // The template's probe, as the overlays leave it (./generatedPod.ts).
  const hold = readinessHoldOf(proxy);
  return {
    ...(hold
      ? { readinessHold: { ...hold, source: `${hold.source}, the kube-gateway template's` } }
      : {}),
    proxy: PROXY_CONTAINER,
    grace: graceOf(template),
    preStop: preStopOf(proxy),
    istio: istioDrainSettings({
      template,
      ...(proxy ? { container: proxy } : {}),
      injected: true,
    }),
  };
}
