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

/** Returns the changes for every TCP entry point's life cycle, and findings on what is kept. */
export function entryPointEdits(
  container: Container,
  config: Writable,
  plan: TraefikTimingPlan,
  inputs: TraefikTimingInputs,
  containerAt: (...path: FieldPath) => FieldPath,
  other: readonly ArgEdit[] = [],
): { changes: TraefikChange[]; findings: TraefikFinding[] } {
  const changes: TraefikChange[] = [];
  const findings: TraefikFinding[] = [];
  const written = new Map<LifecycleSetting, string[]>();
  // Other flags of the same args list (./pingEdit.ts): made in the same pass, so appended flags
  // take distinct items.
  const argEdits: ArgEdit[] = config.source === 'flags' ? [...other] : [];
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
      reason: [...lines, ...other.map((e) => e.reason), ...sourceLines(inputs, ['W', 'R'])].join(
        '\n',
      ),
    });
  }

  return { changes, findings };
}

/** The environment variable of a setting, spelled after the entry point's address variable. */
function envName(ep: EntryPoint, setting: LifecycleSetting): string {
  return `${ep.prefix}_${lifecycleSuffix(setting).replace(/\./g, '_')}`.toUpperCase();
}
