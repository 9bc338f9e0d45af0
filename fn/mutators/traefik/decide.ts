/**
 * Traefik behind a load balancer (issue #19 item 3): the pure decision, which the traefik-drain
 * mutator (./index.ts) runs with W, R and B resolved from the stream and config. Given a workload
 * whose pod runs Traefik and the model's W, R and B, it returns the fields to set and the findings:
 *
 * - per TCP entry point, `transport.lifeCycle.requestAcceptGraceTimeout` = S (= W: keep accepting
 *   while the load balancer still sends) and `transport.lifeCycle.graceTimeOut` = R, in the place
 *   the container takes its static configuration from (flags, else TRAEFIK_* variables); a larger
 *   value already there (the Helm chart's `ports.<name>.transport.lifeCycle`) is kept;
 * - `terminationGracePeriodSeconds` = G covering both plus B, never lowered;
 * - never a preStop sleep: Traefik's own life-cycle settings are its documented way.
 */
import { getAt } from '../../core/fieldPath.ts';
import type { FieldPath } from '../../core/fieldPath.ts';
import { MAX_INPUT_SECONDS } from '../../timing/model.ts';
import type { Container, KubeObject, PodTemplate } from '../../core/kubeObject.ts';
import { traefikContainers } from './recognise.ts';
import { comparableGraceSeconds } from '../../workloads/grace.ts';
import { formatTraefikDuration } from './staticConfig/duration.ts';
import { STATIC_CONFIG_ORDER } from './facts.ts';
import { preStopSeconds } from '../../workloads/preStop.ts';
import { readStaticConfig } from './staticConfig/read.ts';
import { loadBalancerChecks, planTraefikTiming } from './timing.ts';
import type { TraefikTimingInputs, TraefikTimingPlan } from './timing.ts';
import { sourceText } from '../../core/source.ts';
import { entryPointEdits } from './entryPointEdits.ts';
import { pingEdit } from './pingEdit.ts';
import type { NodeForwarding } from '../../timing/loadBalancers.ts';
import { graceEdit } from './graceEdit.ts';
import type { TraefikChange, TraefikFinding } from './outcome.ts';

export type { TraefikFindingCode } from './outcome.ts';

/** The workload as parsed, and where its pod template is (`['spec', 'template']` for a
 * Deployment). */
export interface TraefikWorkload {
  readonly object: KubeObject;
  readonly templatePath: FieldPath;
}

export interface TraefikOutcome {
  readonly changes: readonly TraefikChange[];
  readonly findings: readonly TraefikFinding[];
  /** The Traefik container handled, when there is one. */
  readonly container?: string;
  /** Where its static configuration comes from. */
  readonly source?: 'file' | 'flags' | 'env' | 'none';
  readonly plan?: TraefikTimingPlan;
  /** The model's inputs the plan was made with (the settings, plus the grace period and preStop
   * read from the pod). */
  readonly inputs?: TraefikTimingInputs;
}

/** The model's inputs the caller supplies; the grace period and a preStop are read from the
 * workload. */
export type TraefikSettings = Pick<
  TraefikTimingInputs,
  'drainWindow' | 'maxRequest' | 'buffer' | 'loadBalancer'
> & {
  /** The oldest kubelet's version: a sleep action on Traefik counts only where it runs. */
  readonly kubernetesVersion?: string;
  /** Behind node targets with externalTrafficPolicy Local: until when the node forwards. */
  readonly nodeForwarding?: NodeForwarding;
};

const NOTHING: TraefikOutcome = { changes: [], findings: [] };

/** The Traefik container to plan, and where its fields are; or the outcome without a plan. */
type TraefikTarget =
  | {
      readonly ok: true;
      readonly template: PodTemplate;
      readonly container: Container;
      /** A path under the pod template. */
      readonly at: (...path: FieldPath) => FieldPath;
      /** A path under the Traefik container. */
      readonly containerAt: (...path: FieldPath) => FieldPath;
    }
  | { readonly ok: false; readonly outcome: TraefikOutcome };

/** Returns the one Traefik container to plan, or why there is nothing to plan. */
function traefikTarget(workload: TraefikWorkload, settings: TraefikSettings): TraefikTarget {
  const template = (getAt(workload.object, workload.templatePath) ?? {}) as PodTemplate;
  const containers = traefikContainers(template.spec);
  if (containers.length === 0) return { ok: false, outcome: NOTHING };
  const at = (...path: FieldPath): FieldPath => [...workload.templatePath, ...path];
  if (containers.length > 1) {
    const finding: TraefikFinding = {
      severity: 'warning',
      code: 'TRAEFIK_SEVERAL_CONTAINERS',
      path: at('spec', 'containers'),
      message:
        `The pod runs ${containers.length} Traefik containers ` +
        `(${containers.map((c) => c.name).join(', ')}); ` +
        `kube-graceful plans one Traefik per pod and leaves this one alone. ` +
        `Set each one's entry point lifeCycle and the grace period by hand.`,
    };
    return { ok: false, outcome: { changes: [], findings: [finding] } };
  }
  const container = containers[0]!;
  const inputError = checkInputs(settings);
  if (inputError !== undefined) {
    const finding: TraefikFinding = {
      severity: 'error',
      code: 'TRAEFIK_TIMING_INPUT',
      message: inputError,
    };
    return {
      ok: false,
      outcome: { changes: [], findings: [finding], container: container.name },
    };
  }
  const containerAt = (...path: FieldPath): FieldPath =>
    at('spec', 'containers', { key: 'name', equals: container.name }, ...path);
  return { ok: true, template, container, at, containerAt };
}

/** Returns the changes and findings for one workload; nothing when no container runs Traefik. */
export function planTraefik(workload: TraefikWorkload, settings: TraefikSettings): TraefikOutcome {
  const target = traefikTarget(workload, settings);
  if (!target.ok) return target.outcome;
  const { template, container, at, containerAt } = target;
  const findings: TraefikFinding[] = [];
  const existingGrace = comparableGraceSeconds(template);
  const preStop = preStopSeconds(container.lifecycle?.preStop, settings.kubernetesVersion);
  const inputs: TraefikTimingInputs = {
    ...settings,
    ...(typeof existingGrace === 'number' ? { existingGraceSeconds: existingGrace } : {}),
    ...(preStop === undefined ? {} : { existingPreStopSeconds: preStop }),
  };
  if (preStop !== undefined) findings.push(preStopFinding(container.name, preStop, containerAt));

  const config = readStaticConfig(container);
  if (config.source === 'file' || config.source === 'none' || config.entryPoints.length === 0) {
    findings.push(unusableConfig(container.name, config, inputs, containerAt));
    return { changes: [], findings, container: container.name, source: config.source };
  }

  const plan = planTraefikTiming(inputs, config.entryPoints);
  const ping = pingEdit(container, config.source, settings.nodeForwarding);
  findings.push(...ping.findings);
  const edits = entryPointEdits({ container, config, plan, inputs, containerAt }, ping.edits);
  const changes: TraefikChange[] = [...edits.changes];
  findings.push(...edits.findings);

  const grace = graceEdit(template, plan, inputs, at);
  changes.push(...grace.changes);
  findings.push(...grace.findings);
  const { graceInEffect } = grace;
  for (const check of loadBalancerChecks(inputs, plan, graceInEffect)) {
    findings.push({ severity: check.severity, code: check.code, message: check.message });
  }
  return { changes, findings, container: container.name, source: config.source, plan, inputs };
}

/** The finding for a preStop hook already on Traefik: kept, of known or unknown length. */
function preStopFinding(
  name: string,
  preStop: number | 'unknown',
  containerAt: (...path: FieldPath) => FieldPath,
): TraefikFinding {
  return preStop === 'unknown'
    ? {
        severity: 'warning',
        code: 'TRAEFIK_PRESTOP_LENGTH_UNKNOWN',
        path: containerAt('lifecycle', 'preStop'),
        message:
          `Container "${name}" has a preStop hook whose length can't ` +
          `be read (not a sleep action or exec sleep N); it is kept and counted ` +
          `as 0 s. It delays Traefik's SIGTERM by its length: raise ` +
          `terminationGracePeriodSeconds by that much, or remove it and let ` +
          `requestAcceptGraceTimeout keep Traefik accepting.`,
      }
    : {
        severity: 'info',
        code: 'TRAEFIK_PRESTOP_KEPT',
        path: containerAt('lifecycle', 'preStop'),
        message:
          `Container "${name}" has a preStop sleep of ${preStop} s; it ` +
          `is kept, Traefik gets SIGTERM after it, and requestAcceptGraceTimeout ` +
          `covers only the rest of the drain window. kube-graceful never adds a ` +
          `preStop to Traefik: requestAcceptGraceTimeout is Traefik's own way to ` +
          `keep accepting.`,
      };
}

/**
 * The warning where flags and variables cannot carry the settings: a configuration file (which
 * makes Traefik ignore both), or no entry point they define.
 */
function unusableConfig(
  name: string,
  config: ReturnType<typeof readStaticConfig>,
  inputs: TraefikTimingInputs,
  containerAt: (...path: FieldPath) => FieldPath,
): TraefikFinding {
  const targets = planTraefikTiming(inputs, []);
  const wanted =
    `requestAcceptGraceTimeout=${formatTraefikDuration(targets.requestAcceptGrace.value)}` +
    ` and graceTimeOut=${formatTraefikDuration(targets.graceTimeOut.value)}` +
    ` on every TCP entry point, and terminationGracePeriodSeconds ≥ ${targets.grace.value}`;
  if (config.source === 'file') {
    return {
      severity: 'warning',
      code: 'TRAEFIK_STATIC_CONFIG_FILE',
      path: containerAt(),
      message:
        `Container "${name}" reads its static configuration from a ` +
        `file (${config.evidence}), and Traefik then ignores every flag and ` +
        `TRAEFIK_* variable (${STATIC_CONFIG_ORDER}); kube-graceful changes ` +
        `nothing. Set in that file: entryPoints.<name>.transport.lifeCycle ${wanted}` +
        `.`,
    };
  }
  const where =
    config.source === 'env'
      ? 'TRAEFIK_* variables'
      : config.source === 'flags'
        ? 'flags'
        : 'args or TRAEFIK_* variables';
  return {
    severity: 'warning',
    code: 'TRAEFIK_ENTRY_POINTS_UNKNOWN',
    path: containerAt(config.source === 'env' ? 'env' : 'args'),
    message:
      `Container "${name}" defines no entry point in its ${where} ` +
      `(--entryPoints.<name>.address), so Traefik uses a configuration file ` +
      `in the image or its default entry point "http" on :80 ` +
      `(pkg/config/static/static_config.go@v3.7.9 ` +
      `SetEffectiveConfiguration); kube-graceful changes nothing. Define the ` +
      `entry points explicitly, or set ${wanted}.`,
  };
}

/** Returns why W, R or B cannot be planned with, or undefined (the model's own range: whole
 * seconds, 0 to a day). */
function checkInputs(settings: TraefikSettings): string | undefined {
  for (const [symbol, sourced] of [
    ['W', settings.drainWindow],
    ['R', settings.maxRequest],
    ['B', settings.buffer],
  ] as const) {
    const v = sourced?.value;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_INPUT_SECONDS) {
      return (
        `No Traefik drain plan: ${symbol} must be a whole number of seconds ` +
        `from 0 to ${MAX_INPUT_SECONDS}, got ${String(v)} ` +
        `(${sourced ? sourceText(sourced.source) : 'no source'}).`
      );
    }
  }
  return undefined;
}
