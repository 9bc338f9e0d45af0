/**
 * Istio sidecar of a pod injected at render time (`istioctl kube-inject`): the template already
 * holds istio-proxy, so the pod annotations that steer injection (`sidecar.istio.io/nativeSidecar`,
 * `proxyMetadata` in `proxy.istio.io/config`) do nothing any more. The settings are written where
 * the injector put them (fn/workloads/renderInjected.ts): exit-on-zero as istio-proxy env, the
 * ProxyConfig durations into its `PROXY_CONFIG` JSON, and into the annotation too where the
 * annotation sets the same field (pilot-agent applies the annotation last, config.go@1.28.10).
 */
import type { Spec } from '../../config/schema.ts';
import { formatGoDurationSeconds, parseGoDurationSeconds } from '../../timing/durations.ts';
import {
  ISTIO_DEFAULT_DRAIN_DURATION_SECONDS,
  ISTIO_DEFAULT_TERMINATION_DRAIN_SECONDS,
} from '../../timing/platformDefaults.ts';
import { annotationsOf } from '../../core/kubeObject.ts';
import type { RenderInjectedProxy } from '../../workloads/renderInjected.ts';
import { proxyConfigEnvText } from '../../workloads/renderInjected.ts';
import type { Workload } from '../../workloads/workload.ts';
import { envEntry, setEnv } from '../shared/env.ts';
import type { EnvOutcome } from '../shared/env.ts';
import type { FieldPath } from '../../core/fieldPath.ts';
import {
  PROXY_CONFIG_ANNOTATION,
  readProxyConfig,
  setProxyConfigField,
} from '../../workloads/istioProxyConfig.ts';
import {
  readProxyConfigEnv,
  setProxyConfigEnvFields,
} from '../../workloads/istioProxyConfigEnv.ts';
import type { ProposedChange, ProposedFinding } from '../types.ts';
import type { SidecarOutcome } from './sidecarMode.ts';
import { drainWindowSource } from './timing.ts';
import type { AppTiming } from './timing.ts';
import { ISTIO_PROXY } from '../../workloads/meshProxies.ts';
import { scalarText } from '../../core/scalarText.ts';
import { ISTIO, reached } from '../../facts/versionGates.ts';

/** Returns the changes that keep a render-injected istio-proxy up until the app has finished. */
export function istioRenderInjected(
  workload: Workload,
  spec: Spec,
  timing: AppTiming,
  proxy: RenderInjectedProxy,
): SidecarOutcome {
  const findings: ProposedFinding[] = [];
  const W = drainWindowSource(timing);
  if (proxy.native) {
    findings.push({
      severity: 'info',
      code: 'RENDER_INJECTED',
      message:
        `${proxy.evidence}: Kubernetes stops it only after every app container ` +
        `has exited (KEP-753), so there is no proxy timer to size; nothing ` +
        `written.`,
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
        `Re-run istioctl kube-inject with native sidecars on to change that.`,
    });
  }
  const envPath = workload.containerAt(
    ISTIO_PROXY,
    'env',
    { key: 'name', equals: 'PROXY_CONFIG' },
    'value',
  );
  const envText = proxyConfigEnvText(workload.template);
  const env = readProxyConfigEnv(envText);
  if (!env.ok) {
    findings.push({
      severity: 'warning',
      code: 'PROXY_CONFIG_UNREADABLE',
      message: `${env.problem}; left as it is, so istio-proxy may stop before the app has drained.`,
      path: envPath,
    });
    return { mode: 'classic', changes: [], findings, usesSidecarWait: false };
  }
  const annotation = readProxyConfig(
    annotationsOf(workload.template.metadata)[PROXY_CONFIG_ANNOTATION],
  );
  const own = (field: string): number | undefined => {
    const value = (annotation.ok ? annotation.fields[field] : undefined) ?? env.fields[field];
    return value === undefined || value === null
      ? undefined
      : parseGoDurationSeconds(scalarText(value));
  };
  const plan = timing.pod;
  const pod: RenderedPod = { workload, proxy, plan, W };
  const changes: ProposedChange[] = [];
  const exitOnZero =
    spec.app.classicDrain === 'exit-on-zero' &&
    reached(ISTIO.exitOnZero, spec.istioVersion) &&
    envEntry(workload, ISTIO_PROXY, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS')?.['value'] !== 'false';
  if (exitOnZero) {
    const set = exitOnZeroEnv(pod);
    changes.push(...set.changes);
    findings.push(...set.findings);
  }
  const written = proxyConfigDurations(plan, own, !exitOnZero);
  if (Object.keys(written.durations).length > 0)
    changes.push(...proxyConfigChanges(pod, { envPath, envText, annotation }, written));
  return { mode: 'classic', changes, findings, usesSidecarWait: !exitOnZero };
}

/**
 * The durations PROXY_CONFIG must say, with why: terminationDrainDuration S + R where the sidecar
 * waits on a timer (no exit-on-zero), drainDuration W + B; each only where the proxy's own (or
 * Istio's default) is shorter.
 */
function proxyConfigDurations(
  plan: AppTiming['pod'],
  own: (field: string) => number | undefined,
  timer: boolean,
): { durations: Record<string, string>; lines: string[] } {
  const durations: Record<string, string> = {};
  const lines: string[] = [];
  const T = plan.sidecarOutlivesSeconds;
  if (
    timer &&
    (own('terminationDrainDuration') ?? ISTIO_DEFAULT_TERMINATION_DRAIN_SECONDS) < T.value
  ) {
    durations['terminationDrainDuration'] = formatGoDurationSeconds(T.value);
    lines.push(
      `terminationDrainDuration "${T.value}s": ${T.formula} (G = ${plan.graceSeconds.value}).`,
      T.explanation,
    );
  }
  const D = plan.drainDurationSeconds;
  if (D.value > (own('drainDuration') ?? ISTIO_DEFAULT_DRAIN_DURATION_SECONDS)) {
    durations['drainDuration'] = formatGoDurationSeconds(D.value);
    lines.push(
      `drainDuration "${D.value}s": ${D.formula}; Envoy closes the sidecar's ` +
        `inbound listeners after drainDuration, which must not come before the ` +
        `load balancer stops sending.`,
      D.explanation,
    );
  }
  return { durations, lines };
}

/** The pod whose render-injected istio-proxy is sized, and the app's plan. */
interface RenderedPod {
  readonly workload: Workload;
  readonly proxy: RenderInjectedProxy;
  readonly plan: AppTiming['pod'];
  /** Where W came from, for the reasons. */
  readonly W: string;
}

/**
 * Exit-on-zero as istio-proxy env. S + R, as istioClassicDrain.ts writes it into proxyMetadata,
 * not the gateway's max(S, W): after MINIMUM_DRAIN_DURATION the proxy leaves at the first second
 * with no active connection (pkg/envoy/agent.go@1.24.0 terminate), while the app, SIGTERMed at S,
 * may still finish requests and call out for R more seconds.
 */
function exitOnZeroEnv({ workload, proxy, plan, W }: RenderedPod): EnvOutcome {
  const M = plan.sidecarOutlivesSeconds;
  const existing = envEntry(workload, ISTIO_PROXY, 'MINIMUM_DRAIN_DURATION')?.['value'];
  const keep = typeof existing === 'string' && (parseGoDurationSeconds(existing) ?? 0) >= M.value;
  const minimumDrain = keep
    ? `MINIMUM_DRAIN_DURATION "${String(existing)}" kept: it covers ${M.formula}.`
    : `MINIMUM_DRAIN_DURATION "${M.value}s": ${M.formula}.`;
  const reason = [
    `${minimumDrain} ` +
      `EXIT_ON_ZERO_ACTIVE_CONNECTIONS "true": the proxy then exits only once no connection ` +
      `is active (Istio ${ISTIO.exitOnZero.since}+, ` +
      `pilot/cmd/pilot-agent/options/options.go@1.12.9).`,
    `Set as istio-proxy env because ${proxy.evidence}; ` +
      `proxyMetadata in ${PROXY_CONFIG_ANNOTATION} becomes env only at injection.`,
    M.explanation,
    W,
  ].join('\n');
  return setEnv(workload, ISTIO_PROXY, [
    { name: 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS', value: 'true', reason },
    ...(keep
      ? []
      : [{ name: 'MINIMUM_DRAIN_DURATION', value: formatGoDurationSeconds(M.value), reason }]),
  ]);
}

/**
 * The durations written into PROXY_CONFIG on istio-proxy, and into the ProxyConfig annotation
 * where it sets the same field: pilot-agent applies the annotation over PROXY_CONFIG
 * (pilot/cmd/pilot-agent/config/config.go@1.28.10), so it must say the same.
 */
function proxyConfigChanges(
  { workload, proxy, W }: RenderedPod,
  read: {
    readonly envPath: FieldPath;
    readonly envText: string | undefined;
    readonly annotation: ReturnType<typeof readProxyConfig>;
  },
  written: { readonly durations: Record<string, string>; readonly lines: readonly string[] },
): ProposedChange[] {
  const { envPath, envText, annotation } = read;
  const { durations, lines } = written;
  const where =
    `Written into PROXY_CONFIG on istio-proxy because ${proxy.evidence}; ` +
    `pilot-agent reads it, then applies ${PROXY_CONFIG_ANNOTATION} over it ` +
    `(pilot/cmd/pilot-agent/config/config.go@1.28.10).`;
  const changes: ProposedChange[] = [
    {
      path: envPath,
      value: setProxyConfigEnvFields(envText, durations)!,
      reason: [...lines, where, W].join('\n'),
    },
  ];
  // A field the annotation also sets would win over PROXY_CONFIG: set it there as well.
  const inAnnotation = annotation.ok
    ? Object.keys(durations).filter((f) => annotation.fields[f] !== undefined)
    : [];
  let text: string | undefined = annotation.ok ? annotation.text : undefined;
  for (const field of inAnnotation)
    text = text === undefined ? undefined : setProxyConfigField(text, [field], durations[field]!);
  if (inAnnotation.length > 0 && text !== undefined) {
    changes.push({
      path: workload.at('metadata', 'annotations', PROXY_CONFIG_ANNOTATION),
      value: text,
      reason: [
        `${inAnnotation.join(', ')} also set here: pilot-agent applies this ` +
          `annotation over PROXY_CONFIG ` +
          `(pilot/cmd/pilot-agent/config/config.go@1.28.10), so it must say the ` +
          `same.`,
        ...lines,
      ].join('\n'),
    });
  }
  return changes;
}
