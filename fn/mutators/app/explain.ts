/**
 * What `explain` says about an app-graceful plan: each serving container's preStop, the grace
 * period, and the mesh proxies' settings as written and as patched, with the timelines
 * (./timeline.ts).
 */
import type { Container, PodTemplate } from '../../core/kubeObject.ts';
import {
  graceOf,
  istioDrainSettings,
  istioSidecarKind,
  linkerdSidecarKind,
  linkerdWaitOf,
  preStopOf,
} from '../../explanation/podSettings.ts';
import {
  container,
  flag,
  inputsOf,
  output,
  preStopValue,
  row,
  seconds,
  text,
  traffic,
} from '../../explanation/rows.ts';
import type {
  ExplainContext,
  ExplanationBody,
  ModelOutput,
  SettingRow,
} from '../../explanation/types.ts';
import { renderInjectedIstio } from '../../workloads/renderInjected.ts';
import { appTimeline } from './timeline.ts';
import type { AppState } from './timeline.ts';
import type { AppPlan } from './timing.ts';
import { ISTIO_PROXY } from '../../workloads/meshProxies.ts';

/** Returns the explanation of one app's plan. */
export function explainApp(plan: AppPlan, context: ExplainContext): ExplanationBody {
  const { inputs, mesh, sidecar } = plan;
  const p = plan.plan;
  const serving = plan.servingContainers;
  const state = (template: PodTemplate): AppState => ({
    grace: graceOf(template),
    containers: serving.map((name) => ({ name, preStop: preStopOf(container(template, name)) })),
    ...(mesh.istio
      ? {
          istio: {
            kind: istioSidecarKind(template, context.spec),
            drain: istioDrainSettings({ template, injected: true, ...renderedProxy(template) }),
          },
        }
      : {}),
    ...(mesh.linkerd
      ? {
          linkerd: {
            kind: linkerdSidecarKind(template, context.spec),
            wait: linkerdWaitOf(template),
          },
        }
      : {}),
  });
  const before = state(context.before);
  const after = state(context.after);
  const exitOnZero = after.istio?.drain.exitOnZero.value === true;
  const derived: ModelOutput[] = [
    output('S', 'preStop sleep', p.preStopSeconds),
    output('G', 'grace period', p.graceSeconds),
  ];
  const settings: SettingRow[] = [
    row('terminationGracePeriodSeconds', seconds(before.grace), seconds(after.grace), {
      symbol: 'G',
      value: p.graceSeconds.value,
      relation: '≥',
    }),
  ];
  for (const name of serving) {
    // S is one container's when the pod has one serving container; a hook of unknown length keeps
    // the model's assumption.
    const patched = preStopValue(container(context.after, name));
    settings.push(
      row(
        `${name} preStop`,
        preStopValue(container(context.before, name)),
        patched,
        serving.length === 1 && typeof patched.value === 'number'
          ? { symbol: 'S', value: p.preStopSeconds.value, relation: '=' }
          : undefined,
      ),
    );
  }
  if (before.istio && after.istio) {
    settings.push(
      row(
        'istio-proxy sidecar',
        text(before.istio.kind),
        text(after.istio.kind),
        sidecar === 'none' ? undefined : { symbol: 'mode', value: sidecar, relation: '=' },
      ),
    );
    if (after.istio.kind.value === 'classic') {
      // Either way the classic proxy's wait is T = S + R (fn/mutators/app/istioClassicDrain.ts).
      derived.push(
        output(
          'T',
          exitOnZero ? 'MINIMUM_DRAIN_DURATION' : 'terminationDrainDuration',
          p.sidecarOutlivesSeconds,
        ),
      );
      settings.push(
        row(
          'EXIT_ON_ZERO_ACTIVE_CONNECTIONS',
          flag(before.istio.drain.exitOnZero),
          flag(after.istio.drain.exitOnZero),
        ),
        row(
          'MINIMUM_DRAIN_DURATION',
          seconds(before.istio.drain.minimumDrainSeconds),
          seconds(after.istio.drain.minimumDrainSeconds),
          exitOnZero
            ? { symbol: 'T', value: p.sidecarOutlivesSeconds.value, relation: '≥' }
            : undefined,
        ),
        row(
          'terminationDrainDuration',
          seconds(before.istio.drain.terminationDrainSeconds),
          seconds(after.istio.drain.terminationDrainSeconds),
          exitOnZero
            ? undefined
            : { symbol: 'T', value: p.sidecarOutlivesSeconds.value, relation: '≥' },
        ),
        row(
          'drainDuration',
          seconds(before.istio.drain.drainDurationSeconds),
          seconds(after.istio.drain.drainDurationSeconds),
        ),
      );
    }
  }
  if (before.linkerd && after.linkerd) {
    settings.push(
      row(
        'linkerd-proxy sidecar',
        text(before.linkerd.kind),
        text(after.linkerd.kind),
        sidecar === 'none' ? undefined : { symbol: 'mode', value: sidecar, relation: '=' },
      ),
    );
    if (after.linkerd.kind.value === 'classic') {
      if (!derived.some((d) => d.symbol === 'T'))
        derived.push(output('T', 'proxy-wait-before-exit-seconds', p.sidecarOutlivesSeconds));
      settings.push(
        row(
          'proxy-wait-before-exit-seconds',
          seconds(before.linkerd.wait),
          seconds(after.linkerd.wait),
          { symbol: 'T', value: p.sidecarOutlivesSeconds.value, relation: '≥' },
        ),
      );
    }
  }
  const meshWords = [
    mesh.istio ? `Istio (${mesh.istio.evidence})` : '',
    mesh.linkerd ? `Linkerd (${mesh.linkerd.evidence})` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  const trafficInputs = traffic(inputs, 'from clients whose endpoints are not yet updated');
  const containerWord = `serving container${serving.length === 1 ? '' : 's'}`;
  const meshSummary = meshWords
    ? `mesh: ${meshWords}, ${sidecar} sidecar`
    : mesh.ambient
      ? `Istio ambient (${mesh.ambient.evidence}): no sidecar, ztunnel carries the traffic`
      : 'no mesh sidecar';
  return {
    role: 'app',
    summary: `app; ${containerWord}: ${serving.join(', ') || 'none'}; ${meshSummary}`,
    inputs: inputsOf(inputs),
    derived,
    settings,
    timelines: {
      asWritten: appTimeline(before, trafficInputs),
      patched: appTimeline(after, trafficInputs),
    },
  };
}

/** The istio-proxy container of a pod injected at render time, whose env pilot-agent reads
 * (fn/workloads/renderInjected.ts). */
function renderedProxy(template: PodTemplate): { container?: Container } {
  const proxy = renderInjectedIstio(template)
    ? (template.spec?.containers ?? []).find((c) => c?.name === ISTIO_PROXY)
    : undefined;
  return proxy ? { container: proxy } : {};
}
