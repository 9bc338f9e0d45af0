/**
 * Does explain's patched timeline agree with the manifest kube-graceful wrote? Each rule reads
 * the setting from the written pod template (fn/compat/pod.ts, plain data access) and compares it
 * with what the timeline says happens and when. The timeline's wording is matched only where it
 * names a setting and its value (`drainDuration (190 s) over`).
 */
import { atLeast } from '../../fn/core/versions.ts';
import {
  annotations,
  containerNamed,
  envOf,
  graceSeconds,
  proxyConfig,
} from '../../fn/compat/pod.ts';
import type { CheckedPod } from '../../fn/compat/pod.ts';
import type { WorkloadExplanation } from '../../fn/explain/explain.ts';
import { parseGoDurationSeconds } from '../../fn/timing/durations.ts';
import type { PodTemplate } from '../../fn/core/kubeObject.ts';

export interface Disagreement {
  readonly rule: string;
  readonly message: string;
}

/**
 * Istio's defaults when a field is not set (pkg/config/mesh/mesh.go DefaultProxyConfig: drain 45 s,
 * termination drain 5 s; MINIMUM_DRAIN_DURATION 5 s in pilot-agent options).
 */
const ISTIO_DEFAULTS = {
  drainDuration: 45,
  terminationDrainDuration: 5,
  MINIMUM_DRAIN_DURATION: 5,
};

function proxySeconds(t: PodTemplate, field: 'drainDuration' | 'terminationDrainDuration'): number {
  const value = proxyConfig(t)[field];
  return (
    (typeof value === 'string' ? parseGoDurationSeconds(value) : undefined) ?? ISTIO_DEFAULTS[field]
  );
}

function minimumDrainSeconds(t: PodTemplate): number {
  const metadata = (proxyConfig(t)['proxyMetadata'] ?? {}) as Record<string, unknown>;
  const value =
    envOf(containerNamed(t, 'istio-proxy'), 'MINIMUM_DRAIN_DURATION') ??
    metadata['MINIMUM_DRAIN_DURATION'];
  return (
    (typeof value === 'string' ? parseGoDurationSeconds(value) : undefined) ??
    ISTIO_DEFAULTS.MINIMUM_DRAIN_DURATION
  );
}

/**
 * Linkerd's wait before exit: the annotation, which the injector turns into a preStop
 * `exec: [/bin/sleep, "N"]` on linkerd-proxy (charts/partials/templates/_proxy.tpl@version-2.18);
 * on a pod injected at render time, that hook itself.
 */
function linkerdWaitSeconds(t: PodTemplate): number {
  const command = (
    containerNamed(t, 'linkerd-proxy')?.lifecycle?.preStop as
      { exec?: { command?: unknown[] } } | undefined
  )?.exec?.command;
  if (annotations(t)['linkerd.io/proxy-version'] !== undefined && Array.isArray(command))
    return command[0] === '/bin/sleep' ? Number(command[1]) : 0;
  const wait = annotations(t)['config.alpha.linkerd.io/proxy-wait-before-exit-seconds'];
  return wait === undefined ? 0 : Number(wait);
}

/** Returns where the patched timeline says something the written manifest does not. */
export function timelineDisagreements(
  explanation: WorkloadExplanation,
  pod: CheckedPod,
): Disagreement[] {
  const out: Disagreement[] = [];
  const timeline = explanation.timelines.patched;
  const fails = timeline.windows.filter((w) => w.outcome === 'fail').length;
  if (timeline.verdict.failures !== fails)
    out.push({
      rule: 'verdict',
      message: `verdict counts ${timeline.verdict.failures} failures, the windows ${fails}`,
    });
  const after = pod.after;
  const named = (pattern: RegExp, setting: string, actual: number) => {
    for (const event of timeline.events) {
      const match = pattern.exec(event.text);
      if (!match) continue;
      const said = Number(match[1]);
      if (said !== actual)
        out.push({
          rule: setting,
          message:
            `the timeline says ${setting} ${said} s ("${event.text}"); ` +
            `the manifest gives ${actual} s`,
        });
    }
  };
  named(/^grace deadline \((\d+) s\)/, 'terminationGracePeriodSeconds', graceSeconds(after));
  for (const event of timeline.events) {
    if (
      event.actor === 'kubelet' &&
      event.text.includes('grace deadline') &&
      event.at !== null &&
      event.at > graceSeconds(after) + 2
    ) {
      out.push({
        rule: 'terminationGracePeriodSeconds',
        message:
          `grace deadline at t=${event.at}, ` + `the manifest's grace is ${graceSeconds(after)} s`,
      });
    }
  }
  const istio = containerNamed(after, 'istio-proxy') !== undefined || pod.role !== 'gateway';
  if (istio) {
    named(/drainDuration \((\d+) s\) over/, 'drainDuration', proxySeconds(after, 'drainDuration'));
    named(
      /terminationDrainDuration \((\d+) s\) over/,
      'terminationDrainDuration',
      proxySeconds(after, 'terminationDrainDuration'),
    );
    named(
      /MINIMUM_DRAIN_DURATION \((\d+) s\) over/,
      'MINIMUM_DRAIN_DURATION',
      minimumDrainSeconds(after),
    );
  }
  named(
    /preStop sleep (\d+) s \(proxy-wait-before-exit-seconds\)/,
    'proxy-wait-before-exit-seconds',
    linkerdWaitSeconds(after),
  );
  out.push(...sidecarDisagreements(timeline, pod));
  return out;
}

/** Where the timeline draws a native istio-proxy or a Job's quit call as the versions do not. */
function sidecarDisagreements(
  timeline: WorkloadExplanation['timelines']['patched'],
  pod: CheckedPod,
): Disagreement[] {
  const out: Disagreement[] = [];
  const after = pod.after;
  // Native istio-proxy drains with skip_exit: drainDuration does not close its inbound listeners
  // (issue #13 item 9).
  if (pod.role === 'app' && annotations(after)['sidecar.istio.io/nativeSidecar'] === 'true') {
    for (const event of timeline.events) {
      if (event.actor === 'istio-proxy' && /drainDuration .* closes/.test(event.text))
        out.push({
          rule: 'native drain',
          message: `a native istio-proxy keeps its listeners; the timeline says "${event.text}"`,
        });
    }
  }
  // quitquitquit exits without draining only from Istio 1.26
  // (pilot/cmd/pilot-agent/status/server.go@1.26.8, istio/istio#55424); before, it takes the
  // SIGTERM path and drains first. The timeline's quit event must say which.
  if (pod.role === 'job') {
    const before = !atLeast(pod.spec.istioVersion, '1.26');
    for (const event of timeline.events) {
      if (event.actor !== 'istio-proxy' || !event.text.startsWith('quit request received'))
        continue;
      const says = before ? /drains first/ : /exits at once without draining/;
      if (!says.test(event.text))
        out.push({
          rule: 'quitquitquit before 1.26',
          message:
            `Istio ${pod.spec.istioVersion} ` +
            `${before ? 'drains before it exits' : 'exits at once'} on quitquitquit; ` +
            `the timeline says "${event.text}" at t=${String(event.at)}`,
        });
    }
  }
  return out;
}
