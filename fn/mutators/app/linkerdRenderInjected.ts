/**
 * Linkerd sidecar of a pod injected at render time (`linkerd inject --manual`): the template
 * already holds linkerd-proxy, so `config.alpha.linkerd.io/proxy-wait-before-exit-seconds` does
 * nothing any more. What the injector makes of it is written directly: a preStop
 * `exec: [/bin/sleep, "N"]` on linkerd-proxy (charts/partials/templates/_proxy.tpl@version-2.18),
 * N = S + R, which must stay below the grace period.
 */
import type { Spec } from '../../config/schema.ts';
import { preStopSeconds } from '../../workloads/preStop.ts';
import type { RenderInjectedProxy } from '../../workloads/renderInjected.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedFinding } from '../types.ts';
import type { SidecarOutcome } from './sidecarMode.ts';
import { drainWindowSource } from './timing.ts';
import type { AppTiming } from './timing.ts';
import { LINKERD_PROXY } from '../../workloads/meshProxies.ts';

/** Returns the changes that keep a render-injected linkerd-proxy up until the app has finished. */
export function linkerdRenderInjected(
  workload: Workload,
  spec: Spec,
  timing: AppTiming,
  proxy: RenderInjectedProxy,
): SidecarOutcome {
  const findings: ProposedFinding[] = [];
  if (proxy.native) {
    findings.push({
      severity: 'info',
      code: 'RENDER_INJECTED',
      message:
        `${proxy.evidence}: Kubernetes stops it only after every app container ` +
        `has exited (KEP-753); nothing written.`,
    });
    return { mode: 'native', changes: [], findings, usesSidecarWait: false };
  }
  if (spec.sidecarMode === 'native') {
    findings.push({
      severity: 'info',
      code: 'RENDER_INJECTED',
      message:
        `${proxy.evidence} as a classic sidecar: sidecarMode native cannot be ` +
        `had by annotation after injection; classic settings were written. ` +
        `Re-run linkerd inject with the native-sidecar annotation to change ` +
        `that.`,
    });
  }
  const T = timing.pod.sidecarOutlivesSeconds;
  const existing = preStopSeconds(
    workload.containers.find((c) => c.name === LINKERD_PROXY)?.lifecycle?.preStop,
    spec.kubernetesVersion,
  );
  if (typeof existing === 'number' && existing >= T.value)
    return { mode: 'classic', changes: [], findings, usesSidecarWait: true };
  if (existing === 'unknown') {
    findings.push({
      severity: 'warning',
      code: 'RENDER_INJECTED',
      message:
        `${proxy.evidence}: linkerd-proxy already has a preStop hook of ` +
        `unknown length; left as it is, so linkerd-proxy may stop before the ` +
        `app has finished.`,
    });
    return { mode: 'classic', changes: [], findings, usesSidecarWait: false };
  }
  const reason = [
    `${T.formula} (G = ${timing.pod.graceSeconds.value}): what linkerd ` +
      `inject writes for proxy-wait-before-exit-seconds, a preStop sleep on ` +
      `linkerd-proxy (charts/partials/templates/_proxy.tpl@version-2.18).`,
    `Written on the container because ${proxy.evidence}; the annotation is read only at injection.`,
    T.explanation,
    drainWindowSource(timing),
  ].join('\n');
  return {
    mode: 'classic',
    changes: [
      {
        path: workload.containerAt(LINKERD_PROXY, 'lifecycle', 'preStop'),
        value: { exec: { command: ['/bin/sleep', String(T.value)] } },
        reason,
      },
    ],
    findings,
    usesSidecarWait: true,
  };
}
