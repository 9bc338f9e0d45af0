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
import { graceToWrite, MAX_INPUT_SECONDS } from '../../timing/model.ts';
import { KUBERNETES_DEFAULT_GRACE_SECONDS } from '../../timing/platformDefaults.ts';
import type { KubeObject, PodTemplate } from '../../core/kubeObject.ts';
import { applyArgEdits, argItems } from './args.ts';
import type { ArgEdit } from './args.ts';
import { traefikContainers } from '../../workloads/traefik.ts';
import { comparableGraceSeconds } from '../../workloads/grace.ts';
import { formatTraefikDuration } from '../../workloads/traefik/duration.ts';
import {
  LIFECYCLE_SETTINGS,
  lifecycleSuffix,
  STATIC_CONFIG_ORDER,
  TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS,
} from '../../workloads/traefik/facts.ts';
import type { LifecycleSetting } from '../../workloads/traefik/facts.ts';
import { preStopSeconds } from '../../workloads/preStop.ts';
import { derivationLine, sourceLines } from './reasons.ts';
import { readStaticConfig } from '../../workloads/traefik/staticConfig.ts';
import type { EntryPoint } from '../../workloads/traefik/staticConfig.ts';
import { loadBalancerChecks, planTraefikTiming } from './timing.ts';
import type { TraefikTimingInputs, TraefikTimingPlan } from './timing.ts';
import { sourceText } from '../../core/source.ts';

/** The finding codes this logic emits (docs/mutators/traefik-drain.md "Findings"). */
export type TraefikFindingCode =
  | 'TRAEFIK_LIFECYCLE_KEPT'
  | 'TRAEFIK_LIFECYCLE_UNREADABLE'
  | 'TRAEFIK_GRACE_KEPT'
  | 'TRAEFIK_STATIC_CONFIG_FILE'
  | 'TRAEFIK_ENTRY_POINTS_UNKNOWN'
  | 'TRAEFIK_UDP_ENTRY_POINT'
  | 'TRAEFIK_PRESTOP_KEPT'
  | 'TRAEFIK_PRESTOP_LENGTH_UNKNOWN'
  | 'TRAEFIK_SEVERAL_CONTAINERS'
  | 'TRAEFIK_TIMING_INPUT'
  | 'LB_DEREGISTRATION_TOO_SHORT'
  | 'LB_DEREGISTRATION_OUTLIVES_GRACE';

/** A field to set, from the object's root (the shape of ProposedChange in fn/mutators/types.ts). */
interface TraefikChange {
  readonly path: FieldPath;
  readonly value: unknown;
  readonly reason: string;
}

/** A finding (the shape of ProposedFinding in fn/mutators/types.ts). */
interface TraefikFinding {
  readonly severity: 'error' | 'warning' | 'info';
  readonly code: TraefikFindingCode;
  readonly message: string;
  readonly path?: FieldPath;
}

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
};

const NOTHING: TraefikOutcome = { changes: [], findings: [] };

/** Returns the changes and findings for one workload; nothing when no container runs Traefik. */
export function planTraefik(workload: TraefikWorkload, settings: TraefikSettings): TraefikOutcome {
  const template = (getAt(workload.object, workload.templatePath) ?? {}) as PodTemplate;
  const containers = traefikContainers(template.spec);
  if (containers.length === 0) return NOTHING;
  const at = (...path: FieldPath): FieldPath => [...workload.templatePath, ...path];
  if (containers.length > 1) {
    return {
      changes: [],
      findings: [
        {
          severity: 'warning',
          code: 'TRAEFIK_SEVERAL_CONTAINERS',
          path: at('spec', 'containers'),
          message:
            `The pod runs ${containers.length} Traefik containers ` +
            `(${containers.map((c) => c.name).join(', ')}); ` +
            `kube-graceful plans one Traefik per pod and leaves this one alone. ` +
            `Set each one's entry point lifeCycle and the grace period by hand.`,
        },
      ],
    };
  }
  const container = containers[0]!;
  const containerAt = (...path: FieldPath): FieldPath =>
    at('spec', 'containers', { key: 'name', equals: container.name }, ...path);
  const inputError = checkInputs(settings);
  if (inputError !== undefined)
    return {
      changes: [],
      findings: [{ severity: 'error', code: 'TRAEFIK_TIMING_INPUT', message: inputError }],
      container: container.name,
    };

  const findings: TraefikFinding[] = [];
  const existingGrace = comparableGraceSeconds(template);
  const preStop = preStopSeconds(container.lifecycle?.preStop, settings.kubernetesVersion);
  const inputs: TraefikTimingInputs = {
    ...settings,
    ...(typeof existingGrace === 'number' ? { existingGraceSeconds: existingGrace } : {}),
    ...(preStop === undefined ? {} : { existingPreStopSeconds: preStop }),
  };
  if (preStop === 'unknown') {
    findings.push({
      severity: 'warning',
      code: 'TRAEFIK_PRESTOP_LENGTH_UNKNOWN',
      path: containerAt('lifecycle', 'preStop'),
      message:
        `Container "${container.name}" has a preStop hook whose length can't ` +
        `be read (not a sleep action or exec sleep N); it is kept and counted ` +
        `as 0 s. It delays Traefik's SIGTERM by its length: raise ` +
        `terminationGracePeriodSeconds by that much, or remove it and let ` +
        `requestAcceptGraceTimeout keep Traefik accepting.`,
    });
  } else if (preStop !== undefined) {
    findings.push({
      severity: 'info',
      code: 'TRAEFIK_PRESTOP_KEPT',
      path: containerAt('lifecycle', 'preStop'),
      message:
        `Container "${container.name}" has a preStop sleep of ${preStop} s; it ` +
        `is kept, Traefik gets SIGTERM after it, and requestAcceptGraceTimeout ` +
        `covers only the rest of the drain window. kube-graceful never adds a ` +
        `preStop to Traefik: requestAcceptGraceTimeout is Traefik's own way to ` +
        `keep accepting.`,
    });
  }

  const config = readStaticConfig(container);
  const targets = planTraefikTiming(inputs, []);
  const wanted =
    `requestAcceptGraceTimeout=${formatTraefikDuration(targets.requestAcceptGrace.value)}` +
    ` and graceTimeOut=${formatTraefikDuration(targets.graceTimeOut.value)}` +
    ` on every TCP entry point, and terminationGracePeriodSeconds ≥ ${targets.grace.value}`;
  if (config.source === 'file') {
    findings.push({
      severity: 'warning',
      code: 'TRAEFIK_STATIC_CONFIG_FILE',
      path: containerAt(),
      message:
        `Container "${container.name}" reads its static configuration from a ` +
        `file (${config.evidence}), and Traefik then ignores every flag and ` +
        `TRAEFIK_* variable (${STATIC_CONFIG_ORDER}); kube-graceful changes ` +
        `nothing. Set in that file: entryPoints.<name>.transport.lifeCycle ${wanted}` +
        `.`,
    });
    return { changes: [], findings, container: container.name, source: config.source };
  }
  if (config.source === 'none' || config.entryPoints.length === 0) {
    const where =
      config.source === 'env'
        ? 'TRAEFIK_* variables'
        : config.source === 'flags'
          ? 'flags'
          : 'args or TRAEFIK_* variables';
    findings.push({
      severity: 'warning',
      code: 'TRAEFIK_ENTRY_POINTS_UNKNOWN',
      path: containerAt(config.source === 'env' ? 'env' : 'args'),
      message:
        `Container "${container.name}" defines no entry point in its ${where} ` +
        `(--entryPoints.<name>.address), so Traefik uses a configuration file ` +
        `in the image or its default entry point "http" on :80 ` +
        `(pkg/config/static/static_config.go@v3.7.9 ` +
        `SetEffectiveConfiguration); kube-graceful changes nothing. Define the ` +
        `entry points explicitly, or set ${wanted}.`,
    });
    return { changes: [], findings, container: container.name, source: config.source };
  }

  const plan = planTraefikTiming(inputs, config.entryPoints);
  const changes: TraefikChange[] = [];
  const written = new Map<LifecycleSetting, string[]>();
  const argEdits: ArgEdit[] = [];
  for (const timing of plan.entryPoints) {
    const ep = timing.entryPoint;
    if (ep.protocol === 'udp') {
      const defaultGrace =
        ep.lifecycle.graceTimeOut === undefined
          ? `, Traefik's default ${TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS} s`
          : '';
      findings.push({
        severity: 'info',
        code: 'TRAEFIK_UDP_ENTRY_POINT',
        path: containerAt(config.source === 'env' ? 'env' : 'args'),
        message:
          `UDP entry point "${ep.name}" (${ep.address}) is left as written: ` +
          `Traefik stops UDP entry points only after every TCP one is done ` +
          `(Server.Stop, pkg/server/server.go@v3.7.9), so it keeps serving while they drain. ` +
          `Its own shutdown (${timing.requestAcceptGraceSeconds} s + ` +
          `graceTimeOut ${timing.graceTimeOutSeconds} s${defaultGrace}) ` +
          `is counted in the grace period.`,
      });
      continue;
    }
    for (const setting of LIFECYCLE_SETTINGS) {
      const target =
        setting === 'requestAcceptGraceTimeout' ? plan.requestAcceptGrace : plan.graceTimeOut;
      const current = ep.lifecycle[setting];
      const name =
        config.source === 'flags'
          ? `${ep.prefix}.${lifecycleSuffix(setting)}`
          : envName(ep, setting);
      if (current !== undefined && current.seconds === undefined) {
        findings.push({
          severity: 'warning',
          code: 'TRAEFIK_LIFECYCLE_UNREADABLE',
          path: containerAt(config.source === 'env' ? 'env' : 'args'),
          message:
            `${name} is "${current.text}", which Traefik cannot read as a duration ` +
            `(digits for seconds, or a Go duration such as "${target.value}s"): ` +
            `Traefik refuses to start with it. It is left as written; the grace ` +
            `period assumes ${target.value} s. Set it to "${formatTraefikDuration(target.value)}` +
            `".`,
        });
        continue;
      }
      if (current?.seconds !== undefined && current.seconds >= target.value) {
        if (current.seconds > target.value) {
          findings.push({
            severity: 'info',
            code: 'TRAEFIK_LIFECYCLE_KEPT',
            path: containerAt(config.source === 'env' ? 'env' : 'args'),
            message:
              `${name} is ${current.text} (${current.seconds} s), more than the ` +
              `model's ${target.formula}; it is kept, and the grace period covers it.`,
          });
        }
        continue;
      }
      const value = formatTraefikDuration(target.value);
      written.set(setting, [
        ...(written.get(setting) ?? []),
        `${ep.name}${current === undefined ? '' : ` (was ${current.text})`}`,
      ]);
      if (config.source === 'flags') {
        const reason = [
          derivationLine(`--${name}`, value, target) +
            (current === undefined ? '' : ` (was ${current.text})`),
          ...sourceLines(inputs, setting === 'requestAcceptGraceTimeout' ? ['W'] : ['R']),
        ].join('\n');
        argEdits.push(
          current?.flag !== undefined
            ? { replace: current.flag, name: current.flag.name, value, reason }
            : { after: ep.lastArgIndex ?? Number.MAX_SAFE_INTEGER, name, value, reason },
        );
      } else {
        const line =
          derivationLine(name, value, target) +
          (current === undefined ? '' : ` (was ${current.text})`);
        changes.push({
          path: containerAt('env', { key: 'name', equals: current?.envName ?? name }, 'value'),
          value,
          reason: [
            line,
            ...sourceLines(inputs, setting === 'requestAcceptGraceTimeout' ? ['W'] : ['R']),
          ].join('\n'),
        });
      }
    }
  }
  const items =
    argEdits.length > 0
      ? argItems(Array.isArray(container.args) ? container.args : [], argEdits)
      : undefined;
  if (items !== undefined) {
    for (const item of items)
      changes.push({
        path: containerAt('args', item.index),
        value: item.value,
        reason: item.reason,
      });
  } else if (argEdits.length > 0) {
    const args = Array.isArray(container.args) ? container.args : [];
    const lines = LIFECYCLE_SETTINGS.filter((setting) => written.has(setting)).map((setting) => {
      const target =
        setting === 'requestAcceptGraceTimeout' ? plan.requestAcceptGrace : plan.graceTimeOut;
      return (
        derivationLine(
          `--entryPoints.<name>.${lifecycleSuffix(setting)}`,
          formatTraefikDuration(target.value),
          target,
        ) + ` Entry points: ${written.get(setting)!.join(', ')}.`
      );
    });
    changes.push({
      path: containerAt('args'),
      value: applyArgEdits(args, argEdits),
      reason: [...lines, ...sourceLines(inputs, ['W', 'R'])].join('\n'),
    });
  }

  const needed = plan.grace.value;
  let graceInEffect = needed;
  if (typeof existingGrace === 'number' && existingGrace >= needed) {
    graceInEffect = existingGrace;
    // As the manifest writes it: beyond 2^53 the model compares a smaller stand-in (grace.ts).
    const written = String(template.spec?.terminationGracePeriodSeconds);
    if (existingGrace > needed)
      findings.push({
        severity: 'info',
        code: 'TRAEFIK_GRACE_KEPT',
        path: at('spec', 'terminationGracePeriodSeconds'),
        message:
          `terminationGracePeriodSeconds ${written} is more than the ` +
          `model's ${plan.grace.formula}; it is kept (never lowered).`,
      });
  } else {
    const grace = graceToWrite(
      needed,
      typeof existingGrace === 'number' ? existingGrace : undefined,
    );
    // Not written: G ≤ 30 and no field, so the pod keeps Kubernetes' 30 s, which covers G.
    graceInEffect = grace ?? Math.max(needed, KUBERNETES_DEFAULT_GRACE_SECONDS);
    if (grace !== undefined) {
      changes.push({
        path: at('spec', 'terminationGracePeriodSeconds'),
        value: grace,
        reason: [
          derivationLine('terminationGracePeriodSeconds', String(grace), plan.grace),
          ...sourceLines(inputs, ['W', 'R', 'B']),
        ].join('\n'),
      });
    }
  }
  for (const check of loadBalancerChecks(inputs, plan, graceInEffect)) {
    findings.push({ severity: check.severity, code: check.code, message: check.message });
  }
  return { changes, findings, container: container.name, source: config.source, plan, inputs };
}

/** The environment variable of a setting, spelled after the entry point's address variable. */
function envName(ep: EntryPoint, setting: LifecycleSetting): string {
  return `${ep.prefix}_${lifecycleSuffix(setting).replace(/\./g, '_')}`.toUpperCase();
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
