/**
 * What `explain` says about an ingress-nginx-drain plan: W, R, B with their sources, the derived P
 * (`--shutdown-grace-period`) and G, the settings as written and as patched, and the two timelines
 * (./timeline.ts), read back from the pod the way the controller reads its flags.
 */
import type { PodTemplate } from '../../core/kubeObject.ts';
import type { Unknown } from '../../core/unknown.ts';
import { meshesText, meshNotModelled } from '../../explanation/meshProxies.ts';
import { graceOf, preStopOf, readinessHoldOf } from '../../explanation/podSettings.ts';
import { withNodeForwarding } from '../../explanation/timeline.ts';
import type { Valued } from '../../explanation/podSettings.ts';
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
import {
  isWaitShutdown,
  POST_SHUTDOWN_GRACE_DEFAULT_SECONDS,
  POST_SHUTDOWN_GRACE_FLAG,
  readIntFlag,
  SHUTDOWN_GRACE_DEFAULT_SECONDS,
  SHUTDOWN_GRACE_FLAG,
} from './controller.ts';
import type { IngressNginxPlan } from './plan.ts';
import { ingressNginxTimeline } from './timeline.ts';
import type { IngressNginxState } from './timeline.ts';

function flagValued(
  template: PodTemplate,
  name: string,
  flag: string,
  fallback: number,
): Valued<number> {
  const c = container(template, name);
  const read = c ? readIntFlag(c, flag) : undefined;
  if (read === undefined) return { value: fallback, source: 'controller default (flag not set)' };
  if (read.seconds === undefined)
    return {
      value: fallback,
      source:
        `--${flag}=${JSON.stringify(read.text)} is not a number: ` +
        'the controller refuses to start',
    };
  return { value: read.seconds, source: `flag --${flag}` };
}

function stateOf(
  template: PodTemplate,
  name: string,
  meshUnknown: Unknown | undefined,
): IngressNginxState {
  const c = container(template, name);
  const hold = readinessHoldOf(c);
  return {
    container: name,
    grace: graceOf(template),
    preStop: preStopOf(c),
    waitShutdown: isWaitShutdown(c?.lifecycle?.preStop),
    shutdownGrace: flagValued(template, name, SHUTDOWN_GRACE_FLAG, SHUTDOWN_GRACE_DEFAULT_SECONDS),
    postShutdown: flagValued(
      template,
      name,
      POST_SHUTDOWN_GRACE_FLAG,
      POST_SHUTDOWN_GRACE_DEFAULT_SECONDS,
    ),
    ...(meshUnknown ? { meshUnknown } : {}),
    ...(hold ? { readinessHold: hold } : {}),
  };
}

/** Returns what is not known about a mesh sidecar in the pod. */
function meshUnknownOf(plan: IngressNginxPlan): Unknown | undefined {
  return meshNotModelled(
    plan.mesh,
    { who: 'the controller', subject: 'ingress-nginx' },
    {
      seconds: plan.shutdownGrace.value + plan.inputs.maxRequest.value,
      formula: 'P + R',
    },
  );
}

/** Returns the explanation of one ingress-nginx controller's plan. */
export function explainIngressNginx(
  plan: IngressNginxPlan,
  context: ExplainContext,
): ExplanationBody {
  const name = plan.container;
  const meshUnknown = meshUnknownOf(plan);
  const before = stateOf(context.before, name, meshUnknown);
  const after = stateOf(context.after, name, meshUnknown);
  const sender = senderOf(plan.loadBalancer);
  // Behind node targets with Local, the controller's readiness is modelled (./timeline.ts).
  const trafficInputs = withNodeForwarding(traffic(plan.inputs, sender), plan.nodeForwarding);
  return {
    role: 'gateway',
    summary:
      `ingress-nginx controller (container ${name}): preStop /wait-shutdown stops it at once; ` +
      `--shutdown-grace-period keeps nginx accepting` +
      (plan.mesh && meshUnknown ? `; mesh: ${meshesText(plan.mesh)} (not modelled)` : ''),
    inputs: inputsOf(plan.inputs),
    derived: [
      output('S', '--shutdown-grace-period', plan.shutdownGrace),
      output('G', 'grace period', plan.grace),
    ],
    settings: [
      graceRow(before.grace, after.grace, plan.grace.value, '≥'),
      preStopRow(name, context),
      row(
        `${name} --${SHUTDOWN_GRACE_FLAG}`,
        seconds(before.shutdownGrace),
        seconds(after.shutdownGrace),
        {
          symbol: 'S',
          value: plan.shutdownGrace.value,
          relation: '≥',
        },
      ),
      row(
        `${name} --${POST_SHUTDOWN_GRACE_FLAG}`,
        seconds(before.postShutdown),
        seconds(after.postShutdown),
      ),
    ],
    timelines: {
      asWritten: ingressNginxTimeline(before, trafficInputs),
      patched: ingressNginxTimeline(after, trafficInputs),
    },
  };
}
