/**
 * What `explain` says about a kong-drain plan: W, R, B with their sources, the derived P
 * (`kong quit --wait`), T (`--timeout`) and G, the settings as written and as patched, and the two
 * timelines (./timeline.ts), read back from the pod the way `kong quit` reads its options.
 */
import type { PodTemplate } from '../../core/kubeObject.ts';
import type { Unknown } from '../../core/unknown.ts';
import { meshesText, meshNotModelled } from '../../explanation/meshProxies.ts';
import { graceOf } from '../../explanation/podSettings.ts';
import {
  container,
  graceRow,
  inputsOf,
  output,
  preStopRow,
  row,
  seconds,
  senderOf,
  traffic,
} from '../../explanation/rows.ts';
import type { ExplainContext, ExplanationBody } from '../../explanation/types.ts';
import { withNodeForwarding } from '../../explanation/timeline.ts';
import type { Traffic } from '../../explanation/timeline.ts';
import { kongQuit, quitSettings } from './kongQuit.ts';
import type { KongPlan } from './plan.ts';
import { kongTimeline } from './timeline.ts';
import type { KongState } from './timeline.ts';

function stateOf(
  template: PodTemplate,
  plan: KongPlan,
  meshUnknown: Unknown | undefined,
): KongState {
  const proxy = container(template, plan.container);
  const quit = proxy ? kongQuit(proxy) : undefined;
  const settings = quitSettings(quit ?? { command: [] });
  return {
    container: plan.container,
    grace: graceOf(template),
    quits: quit !== undefined,
    wait: settings.wait,
    timeout: settings.timeout,
    others: plan.others,
    ...(meshUnknown ? { meshUnknown } : {}),
  };
}

/** Returns what is not known about a mesh sidecar in the pod. */
function meshUnknownOf(plan: KongPlan): Unknown | undefined {
  return meshNotModelled(
    plan.mesh,
    { who: 'Kong', subject: 'Kong' },
    {
      seconds: plan.wait.value + plan.inputs.maxRequest.value,
      formula: 'P + R',
    },
  );
}

/**
 * The traffic behind node targets with Local: Kong passes /status/ready all through --wait (only
 * a POST of status "draining" fails it: kong/status/ready.lua@3.9.3; kong quit sends none:
 * kong/cmd/quit.lua@3.9.3) and its listeners close together, so the proxy alone is modelled. A
 * pod is ready only while every container is, and the other containers (the chart's
 * ingress-controller, no preStop) stop at SIGTERM after a time that is not modelled.
 */
function kongTraffic(plan: KongPlan, base: Traffic): Traffic {
  if (plan.nodeForwarding === undefined) return base;
  if (plan.nodeForwarding === 'while-ready' && plan.others.length > 0) {
    const others = plan.others.join(', ');
    return {
      ...base,
      unknown: {
        what:
          `when ${others} stops passing readiness after SIGTERM: the load balancer reaches the ` +
          `pod through its node with externalTrafficPolicy Local, which forwards to a ` +
          `terminating pod only while it is ready, and a pod is ready only while every ` +
          `container is`,
        tell:
          `run ${others} in a pod of its own, or use IP targets or externalTrafficPolicy: ` +
          `Cluster on the Service`,
        brief: `if ${others} stays ready`,
      },
    };
  }
  return withNodeForwarding(base, plan.nodeForwarding);
}

/** Returns the explanation of one Kong pod's plan. */
export function explainKong(plan: KongPlan, context: ExplainContext): ExplanationBody {
  const name = plan.container;
  const meshUnknown = meshUnknownOf(plan);
  const before = stateOf(context.before, plan, meshUnknown);
  const after = stateOf(context.after, plan, meshUnknown);
  const sender = senderOf(plan.loadBalancer);
  const trafficInputs = kongTraffic(plan, traffic(plan.inputs, sender));
  const others = plan.others.length
    ? `; ${plan.others.join(', ')} not behind the load balancer, left as written`
    : '';
  return {
    role: 'gateway',
    summary:
      `Kong (container ${name}): preStop kong quit keeps nginx accepting for --wait, then ` +
      `gives the requests in flight --timeout${others}` +
      (plan.mesh && meshUnknown ? `; mesh: ${meshesText(plan.mesh)} (not modelled)` : ''),
    inputs: inputsOf(plan.inputs),
    derived: [
      output('S', 'kong quit --wait', plan.wait),
      output('T', 'kong quit --timeout', plan.timeout),
      output('G', 'grace period', plan.grace),
    ],
    settings: [
      graceRow(before.grace, after.grace, plan.grace.value, '≥'),
      preStopRow(name, context),
      row(`${name} kong quit --wait`, seconds(before.wait), seconds(after.wait), {
        symbol: 'S',
        value: plan.wait.value,
        relation: '≥',
      }),
      row(`${name} kong quit --timeout`, seconds(before.timeout), seconds(after.timeout), {
        symbol: 'T',
        value: plan.timeout.value,
        relation: '≥',
      }),
    ],
    timelines: {
      asWritten: kongTimeline(before, trafficInputs),
      patched: kongTimeline(after, trafficInputs),
    },
  };
}
