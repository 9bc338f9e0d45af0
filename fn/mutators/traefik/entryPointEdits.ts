/**
 * The life-cycle settings of each TCP entry point, where the container takes its static
 * configuration from (flags, else TRAEFIK_* variables): requestAcceptGraceTimeout = S and
 * graceTimeOut = R, a larger or unreadable value left as written; UDP entry points left alone
 * (issue #32 item 4: one step of the traefik-drain decision, ./decide.ts).
 */
import type { Container } from '../../core/kubeObject.ts';
import type { FieldPath } from '../../core/fieldPath.ts';
import { applyArgEdits, argItems } from './args.ts';
import type { ArgEdit } from './args.ts';
import { formatTraefikDuration } from './staticConfig/duration.ts';
import {
  LIFECYCLE_SETTINGS,
  lifecycleSuffix,
  TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS,
} from './facts.ts';
import type { LifecycleSetting } from './facts.ts';
import type { EntryPoint } from './staticConfig/read.ts';
import { derivationLine, sourceLines } from './reasons.ts';
import type { TraefikTimingInputs, TraefikTimingPlan } from './timing.ts';
import type { TraefikChange, TraefikFinding } from './outcome.ts';

/** A static configuration kube-graceful can write to: flags or TRAEFIK_* variables. */
interface Writable {
  readonly source: 'flags' | 'env';
  readonly entryPoints: readonly EntryPoint[];
}

/** What the edits are made for: one Traefik container, its configuration and its plan. */
export interface EditTarget {
  readonly container: Container;
  readonly config: Writable;
  readonly plan: TraefikTimingPlan;
  readonly inputs: TraefikTimingInputs;
  readonly containerAt: (...path: FieldPath) => FieldPath;
}

/** What the pass over the entry points gathers. */
interface Gathered {
  readonly changes: TraefikChange[];
  readonly findings: TraefikFinding[];
  /** Each setting written, with the entry points it was written on (for the args reason). */
  readonly written: Map<LifecycleSetting, string[]>;
  /** The args edits, with the other flags of the same args list. */
  readonly argEdits: ArgEdit[];
}

/** Returns the changes for every TCP entry point's life cycle, and findings on what is kept. */
export function entryPointEdits(
  target: EditTarget,
  other: readonly ArgEdit[] = [],
): { changes: TraefikChange[]; findings: TraefikFinding[] } {
  const gathered: Gathered = {
    changes: [],
    findings: [],
    written: new Map(),
    // Other flags of the same args list (./pingEdit.ts): made in the same pass, so appended flags
    // take distinct items.
    argEdits: target.config.source === 'flags' ? [...other] : [],
  };
  for (const timing of target.plan.entryPoints) {
    if (timing.entryPoint.protocol === 'udp') {
      gathered.findings.push(udpKept(target, timing));
      continue;
    }
    for (const setting of LIFECYCLE_SETTINGS)
      settingEdit(target, timing.entryPoint, setting, gathered);
  }
  gathered.changes.push(...argsChanges(target, gathered, other));
  return { changes: gathered.changes, findings: gathered.findings };
}

/** Where a finding about the static configuration points: its env, or its args. */
function configPath(target: EditTarget): FieldPath {
  return target.containerAt(target.config.source === 'env' ? 'env' : 'args');
}

/** A UDP entry point is left as written: the finding that says so. */
function udpKept(
  target: EditTarget,
  timing: TraefikTimingPlan['entryPoints'][number],
): TraefikFinding {
  const ep = timing.entryPoint;
  const defaultGrace =
    ep.lifecycle.graceTimeOut === undefined
      ? `, Traefik's default ${TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS} s`
      : '';
  return {
    severity: 'info',
    code: 'TRAEFIK_UDP_ENTRY_POINT',
    path: configPath(target),
    message:
      `UDP entry point "${ep.name}" (${ep.address}) is left as written: ` +
      `Traefik stops UDP entry points only after every TCP one is done ` +
      `(Server.Stop, pkg/server/server.go@v3.7.9), so it keeps serving while they drain. ` +
      `Its own shutdown (${timing.requestAcceptGraceSeconds} s + ` +
      `graceTimeOut ${timing.graceTimeOutSeconds} s${defaultGrace}) ` +
      `is counted in the grace period.`,
  };
}

/**
 * One life-cycle setting of one TCP entry point: left as written when unreadable (a warning) or
 * already enough (a finding when larger), else written as a flag edit or an env change.
 */
function settingEdit(
  target: EditTarget,
  ep: EntryPoint,
  setting: LifecycleSetting,
  gathered: Gathered,
): void {
  const { config, plan, inputs, containerAt } = target;
  const wanted =
    setting === 'requestAcceptGraceTimeout' ? plan.requestAcceptGrace : plan.graceTimeOut;
  const current = ep.lifecycle[setting];
  const name =
    config.source === 'flags' ? `${ep.prefix}.${lifecycleSuffix(setting)}` : envName(ep, setting);
  if (current !== undefined && current.seconds === undefined) {
    gathered.findings.push({
      severity: 'warning',
      code: 'TRAEFIK_LIFECYCLE_UNREADABLE',
      path: configPath(target),
      message:
        `${name} is "${current.text}", which Traefik cannot read as a duration ` +
        `(digits for seconds, or a Go duration such as "${wanted.value}s"): ` +
        `Traefik refuses to start with it. It is left as written; the grace ` +
        `period assumes ${wanted.value} s. Set it to "${formatTraefikDuration(wanted.value)}` +
        `".`,
    });
    return;
  }
  if (current?.seconds !== undefined && current.seconds >= wanted.value) {
    if (current.seconds > wanted.value)
      gathered.findings.push({
        severity: 'info',
        code: 'TRAEFIK_LIFECYCLE_KEPT',
        path: configPath(target),
        message:
          `${name} is ${current.text} (${current.seconds} s), more than the ` +
          `model's ${wanted.formula}; it is kept, and the grace period covers it.`,
      });
    return;
  }
  const value = formatTraefikDuration(wanted.value);
  const was = current === undefined ? '' : ` (was ${current.text})`;
  gathered.written.set(setting, [...(gathered.written.get(setting) ?? []), `${ep.name}${was}`]);
  const sources = sourceLines(inputs, setting === 'requestAcceptGraceTimeout' ? ['W'] : ['R']);
  if (config.source === 'flags') {
    const reason = [derivationLine(`--${name}`, value, wanted) + was, ...sources].join('\n');
    gathered.argEdits.push(
      current?.flag !== undefined
        ? { replace: current.flag, name: current.flag.name, value, reason }
        : { after: ep.lastArgIndex ?? Number.MAX_SAFE_INTEGER, name, value, reason },
    );
  } else {
    gathered.changes.push({
      path: containerAt('env', { key: 'name', equals: current?.envName ?? name }, 'value'),
      value,
      reason: [derivationLine(name, value, wanted) + was, ...sources].join('\n'),
    });
  }
}

/**
 * The args edits as changes: one per item where each edit has an item of its own, else the
 * whole args list rewritten with one reason per setting.
 */
function argsChanges(
  target: EditTarget,
  gathered: Gathered,
  other: readonly ArgEdit[],
): TraefikChange[] {
  const { container, plan, inputs, containerAt } = target;
  const { argEdits, written } = gathered;
  if (argEdits.length === 0) return [];
  const args = Array.isArray(container.args) ? container.args : [];
  const items = argItems(args, argEdits);
  if (items !== undefined)
    return items.map((item) => ({
      path: containerAt('args', item.index),
      value: item.value,
      reason: item.reason,
    }));
  const lines = LIFECYCLE_SETTINGS.filter((setting) => written.has(setting)).map((setting) => {
    const wanted =
      setting === 'requestAcceptGraceTimeout' ? plan.requestAcceptGrace : plan.graceTimeOut;
    return (
      derivationLine(
        `--entryPoints.<name>.${lifecycleSuffix(setting)}`,
        formatTraefikDuration(wanted.value),
        wanted,
      ) + ` Entry points: ${written.get(setting)!.join(', ')}.`
    );
  });
  return [
    {
      path: containerAt('args'),
      value: applyArgEdits(args, argEdits),
      reason: [...lines, ...other.map((e) => e.reason), ...sourceLines(inputs, ['W', 'R'])].join(
        '\n',
      ),
    },
  ];
}

/** The environment variable of a setting, spelled after the entry point's address variable. */
function envName(ep: EntryPoint, setting: LifecycleSetting): string {
  return `${ep.prefix}_${lifecycleSuffix(setting).replace(/\./g, '_')}`.toUpperCase();
}
