/**
 * Classic (not native) istio-proxy: it gets SIGTERM together with the app, so it must be told to
 * stay up while the app drains and finishes: exit-on-zero with MINIMUM_DRAIN_DURATION ≥ S + R, or
 * terminationDrainDuration ≥ S + R (issue #13 item 4: with S alone the proxy may leave at the first
 * idle second after the app's SIGTERM, while the app still calls out). Never
 * TERMINATION_DRAIN_DURATION_SECONDS (removed in 1.10) or parentShutdownDuration (ignored since
 * 1.17).
 */
import type { Spec } from '../../config/schema.ts';
import type { FieldPath } from '../../core/fieldPath.ts';
import { formatGoDurationSeconds, parseGoDurationSeconds } from '../../timing/durations.ts';
import { PROXY_CONFIG_ANNOTATION, setProxyConfigField } from '../../workloads/istioProxyConfig.ts';
import { proxyMetadataOf, setProxyMetadata } from '../shared/proxyMetadata.ts';
import type { ProposedFinding } from '../types.ts';
import type { AppTiming } from './timing.ts';
import { scalarText } from '../../core/scalarText.ts';
import { ISTIO, reached } from '../../facts/versionGates.ts';

/** The annotation text with the classic settings, what they are and why; undefined when it can't be
 * merged. */
export interface DrainStep {
  readonly text: string;
  readonly lines: string[];
  readonly usesSidecarWait?: boolean;
}

/** Where the annotation is, for findings, and where they go. */
interface Report {
  readonly path: FieldPath;
  readonly findings: ProposedFinding[];
}

/** Returns `text` with the classic drain settings merged in (never lowering the pod's own). */
export function classicDrain(
  { text, fields }: { readonly text: string; readonly fields: Readonly<Record<string, unknown>> },
  spec: Spec,
  timing: AppTiming,
  report: Report,
): DrainStep | undefined {
  return chosenDrain(fields, spec, report) === 'exit-on-zero'
    ? exitOnZero(text, fields, timing, report)
    : terminationDrain(text, fields, timing, report);
}

/** The configured drain, unless the pod turned exit-on-zero off or the Istio version lacks it. */
function chosenDrain(
  fields: Readonly<Record<string, unknown>>,
  spec: Spec,
  { path, findings }: Report,
): Spec['app']['classicDrain'] {
  const drain = spec.app.classicDrain;
  if (drain !== 'exit-on-zero') return drain;
  if (proxyMetadataOf(fields, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS') === 'false') {
    findings.push({
      severity: 'info',
      code: 'EXIT_ON_ZERO_OFF_IN_POD',
      message:
        `The pod's ${PROXY_CONFIG_ANNOTATION} sets ` +
        `EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "false"; kept, and ` +
        `terminationDrainDuration was used instead.`,
      path,
    });
    return 'termination-drain';
  }
  if (!reached(ISTIO.exitOnZero, spec.istioVersion)) {
    findings.push({
      severity: 'info',
      code: 'EXIT_ON_ZERO_UNSUPPORTED',
      message:
        `Istio ${spec.istioVersion} has no EXIT_ON_ZERO_ACTIVE_CONNECTIONS ` +
        `(from ${ISTIO.exitOnZero.since}); terminationDrainDuration was used ` +
        `instead.`,
      path,
    });
    return 'termination-drain';
  }
  return drain;
}

/**
 * Exit-on-zero with MINIMUM_DRAIN_DURATION ≥ S + R, not S: after MINIMUM_DRAIN_DURATION the proxy
 * leaves at the first second with no active connection (pkg/envoy/agent.go@1.24.0 terminate: sleep
 * minDrainDuration, then poll downstream_cx_active every second), while the app, SIGTERMed at S,
 * may still finish requests and open outbound calls for R more seconds. G = S + R + B keeps the
 * proxy's end inside the grace period.
 */
function exitOnZero(
  text: string,
  fields: Readonly<Record<string, unknown>>,
  timing: AppTiming,
  report: Report,
): DrainStep | undefined {
  const plan = timing.pod;
  const M = plan.sidecarOutlivesSeconds;
  const existing = proxyMetadataOf(fields, 'MINIMUM_DRAIN_DURATION');
  const keep = longEnough(existing, M.value, 'MINIMUM_DRAIN_DURATION', report);
  const merged = setProxyMetadata(text, {
    EXIT_ON_ZERO_ACTIVE_CONNECTIONS: 'true',
    ...(keep ? {} : { MINIMUM_DRAIN_DURATION: formatGoDurationSeconds(M.value) }),
  });
  return merged === undefined
    ? undefined
    : {
        text: merged,
        lines: [
          keep
            ? `MINIMUM_DRAIN_DURATION "${existing}" kept: it already covers ${M.formula}.`
            : `MINIMUM_DRAIN_DURATION "${M.value}s": ${M.formula} ` +
              `(G = ${plan.graceSeconds.value}; Go duration text: Istio ignores a bare number).`,
          `EXIT_ON_ZERO_ACTIVE_CONNECTIONS "true": once MINIMUM_DRAIN_DURATION ` +
            `is over, the proxy exits at the first second with no active ` +
            `connection (Istio ${ISTIO.exitOnZero.since}+); until then inbound and ` +
            `outbound traffic ` +
            `keep working, also for the requests the app still finishes after ` +
            (timing.stopsAccepting ?? `its SIGTERM at S = ${plan.preStopSeconds.value} s`) +
            `.`,
          M.explanation,
        ],
        usesSidecarWait: true,
      };
}

/** terminationDrainDuration ≥ S + R: the proxy's wait after its SIGTERM before it stops. */
function terminationDrain(
  text: string,
  fields: Readonly<Record<string, unknown>>,
  timing: AppTiming,
  report: Report,
): DrainStep | undefined {
  const plan = timing.pod;
  const T = plan.sidecarOutlivesSeconds;
  const existing = fields['terminationDrainDuration'];
  const keep = longEnough(
    existing === undefined || existing === null ? undefined : scalarText(existing),
    T.value,
    'terminationDrainDuration',
    report,
  );
  const merged = keep
    ? text
    : setProxyConfigField(text, ['terminationDrainDuration'], formatGoDurationSeconds(T.value));
  return merged === undefined
    ? undefined
    : {
        text: merged,
        lines: [
          keep
            ? `terminationDrainDuration "${String(existing)}" kept: it already covers ${T.formula}.`
            : `terminationDrainDuration "${T.value}s": ${T.formula} ` +
              `(G = ${plan.graceSeconds.value}).`,
          T.explanation,
        ],
        usesSidecarWait: true,
      };
}

/** Returns true when the pod's own duration already reaches `seconds` (never lowered); notes one
 * Istio would ignore. */
function longEnough(
  existing: string | undefined,
  seconds: number,
  name: string,
  { path, findings }: Report,
): boolean {
  if (existing === undefined) return false;
  const parsed = parseGoDurationSeconds(existing);
  if (parsed === undefined) {
    findings.push({
      severity: 'info',
      code: 'ISTIO_DURATION_IGNORED',
      message:
        `${name} "${existing}" in ${PROXY_CONFIG_ANNOTATION} is not a Go ` +
        `duration, so Istio ignores it and uses its 5 s default; replaced with ` +
        `"${seconds}s".`,
      path,
    });
    return false;
  }
  return parsed >= seconds;
}
