/**
 * What `explain` says about an app-graceful plan: each serving container's preStop, the grace
 * period, and the mesh proxies' settings as written and as patched, with the timelines
 * (./timeline.ts).
 */
import type { PodTemplate } from '../../core/kubeObject.ts';
import { graceOf, preStopOf } from '../../explanation/podSettings.ts';
import { meshesText, meshProxiesOf, meshProxyRows } from '../../explanation/meshProxies.ts';
import {
  container,
  graceRow,
  inputsOf,
  output,
  preStopRow,
  preStopValue,
  senderOf,
  traffic,
} from '../../explanation/rows.ts';
import type {
  ExplainContext,
  ExplanationBody,
  ModelOutput,
  SettingRow,
} from '../../explanation/types.ts';
import { appTimeline } from './timeline.ts';
import { optionalTimeline, whenTheNodeGoesAway } from '../../explanation/nodeShutdown.ts';
import { cloudSqlProxiesOf, cloudSqlProxyRows } from '../../explanation/cloudSqlProxies.ts';
import { MIN_SIGTERM_DELAY_FLAG } from '../../workloads/cloudSqlProxy.ts';
import type { AppState } from './timeline.ts';
import type { AppPlan } from './timing.ts';

/** Returns the explanation of one app's plan. */
export function explainApp(plan: AppPlan, context: ExplainContext): ExplanationBody {
  const { inputs, mesh, sidecar } = plan;
  const p = plan.plan;
  const serving = plan.servingContainers;
  const state = (template: PodTemplate): AppState => ({
    grace: graceOf(template),
    containers: serving.map((name) => ({
      name,
      preStop: preStopOf(container(template, name), context.spec.kubernetesVersion),
    })),
    ...meshProxiesOf(template, mesh, context.spec),
    cloudSqlProxies: cloudSqlProxiesOf(template),
  });
  const before = state(context.before);
  const after = state(context.after);
  const derived: ModelOutput[] = [
    output('S', 'preStop sleep', p.preStopSeconds),
    output('G', 'grace period', p.graceSeconds),
  ];
  const settings: SettingRow[] = [graceRow(before.grace, after.grace, p.graceSeconds.value, '≥')];
  for (const name of serving) {
    // S is one container's when the pod has one serving container; a hook of unknown length keeps
    // the model's assumption.
    const patched = preStopValue(container(context.after, name), context.spec.kubernetesVersion);
    settings.push(
      preStopRow(
        name,
        context,
        serving.length === 1 && typeof patched.value === 'number'
          ? { symbol: 'S', value: p.preStopSeconds.value, relation: '=' }
          : undefined,
      ),
    );
  }
  const wait = sidecarWait(after, p);
  if (wait) derived.push(wait);
  settings.push(
    ...meshProxyRows(before, after, { sidecar, outlivesSeconds: p.sidecarOutlivesSeconds.value }),
    ...cloudSqlProxyRows(
      before.cloudSqlProxies ?? [],
      after.cloudSqlProxies ?? [],
      p.sidecarOutlivesSeconds.value,
    ),
  );
  const trafficInputs = traffic(inputs, senderOf(plan.loadBalancer));
  return {
    role: 'app',
    summary: summaryOf(plan, after),
    inputs: inputsOf(inputs),
    derived,
    settings,
    timelines: {
      asWritten: appTimeline(before, trafficInputs),
      patched: appTimeline(after, trafficInputs),
      ...optionalTimeline(
        whenTheNodeGoesAway(inputs, after.grace, (grace) =>
          appTimeline({ ...after, grace }, trafficInputs),
        ),
      ),
    },
  };
}

/** T: how long a classic proxy must last (Istio's wait named first, as istioClassicDrain.ts). */
function sidecarWait(after: AppState, p: AppPlan['plan']): ModelOutput | undefined {
  if (after.istio?.kind.value === 'classic') {
    const exitOnZero = after.istio.drain.exitOnZero.value === true;
    return output(
      'T',
      exitOnZero ? 'MINIMUM_DRAIN_DURATION' : 'terminationDrainDuration',
      p.sidecarOutlivesSeconds,
    );
  }
  if (after.linkerd?.kind.value === 'classic')
    return output('T', 'proxy-wait-before-exit-seconds', p.sidecarOutlivesSeconds);
  if ((after.cloudSqlProxies ?? []).some((c) => c.kind.value === 'classic' && c.hasMinSigtermDelay))
    return output('T', MIN_SIGTERM_DELAY_FLAG, p.sidecarOutlivesSeconds);
  return undefined;
}

/** The explanation's one-line summary: serving containers, mesh, Cloud SQL Auth Proxies. */
function summaryOf(
  { servingContainers: serving, mesh, sidecar }: AppPlan,
  after: AppState,
): string {
  const meshWords = meshesText(mesh);
  const containerWord = `serving container${serving.length === 1 ? '' : 's'}`;
  const meshSummary = meshWords
    ? `mesh: ${meshWords}, ${sidecar} sidecar`
    : mesh.ambient
      ? `Istio ambient (${mesh.ambient.evidence}): no sidecar, ztunnel carries the traffic`
      : 'no mesh sidecar';
  const cloudSql = (after.cloudSqlProxies ?? [])
    .map((c) => `; Cloud SQL Auth Proxy ${c.name}, ${c.kind.value} sidecar`)
    .join('');
  return `app; ${containerWord}: ${serving.join(', ') || 'none'}; ${meshSummary}${cloudSql}`;
}
