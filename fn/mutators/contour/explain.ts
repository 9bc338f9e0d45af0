/**
 * What `explain` says about a contour-drain plan: W, R, B with their sources, the derived S
 * (drain-delay + check-delay) and G, the settings as written and as patched, and the two timelines
 * (./timeline.ts), read back from the pod the way `contour envoy shutdown` reads its flags.
 */
import type { PodTemplate } from '../../core/kubeObject.ts';
import type { Unknown } from '../../core/unknown.ts';
import { meshesText, meshNotModelled } from '../../explanation/meshProxies.ts';
import { graceOf, readinessDelayOf } from '../../explanation/podSettings.ts';
import {
  container,
  graceRow,
  inputsOf,
  output,
  row,
  seconds,
  senderOf,
  traffic,
} from '../../explanation/rows.ts';
import type { SettingValue } from '../../explanation/types.ts';
import type { ExplainContext, ExplanationBody } from '../../explanation/types.ts';
import { shutdownHook, shutdownSettings } from './shutdownManager.ts';
import type { ContourPlan } from './plan.ts';
import { contourTimeline } from './timeline.ts';
import { withNodeForwarding } from '../../explanation/timeline.ts';
import type { ContourState } from './timeline.ts';

const ENVOY_HOOK: SettingValue = {
  value: 'httpGet /shutdown',
  display: 'httpGet /shutdown (until the ready file)',
  source: 'manifest',
};

/** Reads the shutdown sequence a state of the pod runs with. */
function stateOf(
  template: PodTemplate,
  plan: ContourPlan,
  meshUnknown: Unknown | undefined,
): ContourState {
  const manager = container(template, plan.shutdownManager);
  const hook = manager ? shutdownHook(manager) : undefined;
  // The plan exists only for a readable hook on a modelled release (./decide.ts).
  const settings = shutdownSettings(hook ?? { command: [] }, plan.version ?? '0');
  return {
    envoy: plan.envoy,
    shutdownManager: plan.shutdownManager,
    grace: graceOf(template),
    drainDelay: settings.drainDelay,
    checkDelay: settings.checkDelay,
    checkInterval: settings.checkInterval,
    minOpen: settings.minOpen,
    readinessDelay: readinessDelayOf(container(template, plan.envoy)),
    ...(meshUnknown ? { meshUnknown } : {}),
  };
}

/** Returns what is not known about a mesh sidecar in the pod. */
function meshUnknownOf(plan: ContourPlan): Unknown | undefined {
  return meshNotModelled(
    plan.mesh,
    { who: 'Envoy', subject: "Contour's Envoy" },
    {
      seconds: plan.stopAccepting.value + plan.inputs.maxRequest.value,
      formula: 'S + R',
    },
  );
}

/** Returns the explanation of one Contour Envoy pod's plan. */
export function explainContour(plan: ContourPlan, context: ExplainContext): ExplanationBody {
  const meshUnknown = meshUnknownOf(plan);
  const before = stateOf(context.before, plan, meshUnknown);
  const after = stateOf(context.after, plan, meshUnknown);
  const sender = senderOf(plan.loadBalancer);
  // Where Envoy's readiness decides how long the node forwards to it, the timeline draws that
  // (./timeline.ts): it is modelled, no longer unknown.
  const trafficInputs = withNodeForwarding(traffic(plan.inputs, sender), plan.nodeForwarding);
  const manager = plan.shutdownManager;
  const D = after.drainDelay.value;
  return {
    role: 'gateway',
    summary:
      `Contour's Envoy (container ${plan.envoy}) with its shutdown-manager (container ` +
      `${manager}): Envoy's preStop waits for the ready file, written once no connection is ` +
      `open after --drain-delay + --check-delay` +
      (plan.mesh && meshUnknown ? `; mesh: ${meshesText(plan.mesh)} (not modelled)` : ''),
    inputs: inputsOf(plan.inputs),
    derived: [
      output('S', 'drain-delay + check-delay', plan.stopAccepting),
      output('G', 'grace period', plan.grace),
    ],
    settings: [
      graceRow(before.grace, after.grace, plan.grace.value, '≥'),
      // Modelled (./shutdownManager.ts), not a hook of unknown length.
      row(`${plan.envoy} preStop`, ENVOY_HOOK, ENVOY_HOOK),
      row(`${manager} --drain-delay`, seconds(before.drainDelay), seconds(after.drainDelay)),
      row(`${manager} --check-delay`, seconds(before.checkDelay), seconds(after.checkDelay), {
        symbol: 'S',
        value: plan.stopAccepting.value - D,
        relation: '≥',
      }),
      row(
        `${manager} --min-open-connections`,
        { ...seconds(before.minOpen), display: String(before.minOpen.value) },
        { ...seconds(after.minOpen), display: String(after.minOpen.value) },
      ),
    ],
    timelines: {
      asWritten: contourTimeline(before, trafficInputs),
      patched: contourTimeline(after, trafficInputs),
    },
  };
}
