/**
 * Kong behind a load balancer (issue #26 item 5): the decision. The chart's preStop
 * `kong quit --wait=15` keeps nginx accepting for 15 s only, then SIGQUIT closes its listeners,
 * and `kong quit` cuts what is still in flight after `--timeout` (10 s) (./kongQuit.ts).
 * Behind an AWS NLB with IP targets, which sends for W ≈ 180 s, that is connections refused from
 * t=15. So:
 *
 * - `--wait` = P = W, never below a larger value already written;
 * - `--timeout` = T = R, never lowered: the requests in flight finish before nginx is stopped;
 * - `terminationGracePeriodSeconds` = G = P + R + B, never lowered: the hook runs inside it;
 * - a proxy container without a preStop gets `kong quit --wait=W --timeout=R`; the pod's other
 *   containers (the chart's ingress-controller) are not behind the load balancer and get nothing.
 */
import type { Container } from '../../core/kubeObject.ts';
import type { FieldPath } from '../../core/fieldPath.ts';
import { coveringGrace } from '../../timing/model.ts';
import type { Derived, TimingInputs } from '../../timing/model.ts';
import {
  KONG_QUIT_READ_UP_TO,
  KONG_QUIT,
  kongQuit,
  kongVersion,
  quitModelled,
  quitSettings,
  TIMEOUT_OPTION,
  WAIT_OPTION,
} from './kongQuit.ts';
import type { QuitOption } from './kongQuit.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedChange, ProposedFinding } from '../types.ts';
import { sourceLine } from '../../core/source.ts';
import { graceChange } from '../shared/graceChange.ts';

/** The finding codes this logic emits (docs/mutators/kong-drain.md "Findings"). */
export type KongFindingCode =
  | 'KONG_PRESTOP_NOT_QUIT'
  | 'KONG_VERSION_UNKNOWN'
  | 'KONG_OPTION_UNREADABLE'
  | 'KONG_SEVERAL_CONTAINERS'
  | 'KONG_WAIT_KEPT'
  | 'KONG_GRACE_KEPT'
  | 'KONG_MESH_NOT_MODELLED';

export interface KongDecision {
  readonly changes: ProposedChange[];
  readonly findings: ProposedFinding[];
  readonly container?: string;
  readonly wait?: Derived;
  readonly timeout?: Derived;
  readonly grace?: Derived;
}

/** Returns P, T and G for the model's inputs and the values already written. */
function quitTiming(
  inputs: TimingInputs,
  written: { wait: number; timeout: number },
): { wait: Derived; timeout: Derived; grace: Derived } {
  const W = inputs.drainWindow.value;
  const R = inputs.maxRequest.value;
  const B = inputs.buffer.value;
  const P = Math.max(written.wait, W);
  const T = Math.max(written.timeout, R);
  const wait: Derived =
    P === W
      ? {
          value: W,
          formula: `P = W = ${W}`,
          explanation:
            'nginx keeps accepting for --wait, while the load balancer may still send new ' +
            'connections.',
        }
      : {
          value: P,
          formula: `P = ${P} (kept from manifest) ≥ W = ${W}`,
          explanation: 'A --wait the manifest sets is never lowered.',
        };
  const timeout: Derived = {
    value: T,
    formula: T === R ? `T = R = ${R}` : `T = ${T} (kept from manifest) ≥ R = ${R}`,
    explanation:
      'after --wait, nginx closes its listeners and kong quit gives the requests in flight ' +
      '--timeout before it stops nginx.',
  };
  const grace = coveringGrace(
    'P + R + B',
    [P, R, B],
    inputs.existingGraceSeconds,
    'kong quit waits P, the requests in flight finish (R), plus the buffer; the hook runs ' +
      'inside the grace period.',
  );
  return { wait, timeout, grace };
}

/** Returns the changes and findings for one pod that runs Kong's proxy. */
export function decideKong(
  workload: Workload,
  inputs: TimingInputs,
  containers: readonly Container[],
): KongDecision {
  const target = kongTarget(workload, inputs, containers);
  if (!target.ok) return { changes: [], findings: [target.refusal] };
  const { proxy, quit, at, hookAt } = target;
  // A hook kube-graceful writes has no values of its own to keep.
  const written = quit ? quitSettings(quit) : { wait: { value: 0 }, timeout: { value: 0 } };
  const { wait, timeout, grace } = quitTiming(inputs, {
    wait: written.wait.value,
    timeout: written.timeout.value,
  });
  const findings: ProposedFinding[] = [];
  const changes: ProposedChange[] = [];
  const step: QuitStep = { inputs, hookAt, changes, findings };
  if (quit === undefined) changes.push(newQuitHook(step, wait, timeout));
  else raiseQuitOptions(step, quit, { wait, timeout });
  const graceStep = graceSetting(inputs, at, { wait, grace });
  changes.push(...graceStep.changes);
  findings.push(...graceStep.findings);
  return { changes, findings, container: proxy.name, wait, timeout, grace };
}

/** The Kong container to plan and its kong quit; or the finding that says why the pod is left. */
type KongTarget =
  | {
      readonly ok: true;
      readonly proxy: Container;
      readonly quit: ReturnType<typeof kongQuit>;
      readonly at: (...path: FieldPath) => FieldPath;
      readonly hookAt: (...path: FieldPath) => FieldPath;
    }
  | { readonly ok: false; readonly refusal: ProposedFinding };

const refused = (refusal: ProposedFinding): KongTarget => ({ ok: false, refusal });

function kongTarget(
  workload: Workload,
  inputs: TimingInputs,
  containers: readonly Container[],
): KongTarget {
  const at = (...path: FieldPath): FieldPath => [...workload.templatePath, ...path];
  const W = inputs.drainWindow.value;
  const R = inputs.maxRequest.value;
  if (containers.length !== 1)
    return refused({
      severity: 'warning',
      code: 'KONG_SEVERAL_CONTAINERS',
      path: at('spec', 'containers'),
      message:
        `The pod runs ${containers.length} Kong containers; kube-graceful plans one per pod and ` +
        `leaves this one alone. Give each one preStop kong quit --wait=${W} --timeout=${R} and ` +
        `the grace period by hand.`,
    });
  const proxy = containers[0]!;
  const hookAt = (...path: FieldPath): FieldPath =>
    at('spec', 'containers', { key: 'name', equals: proxy.name }, 'lifecycle', 'preStop', ...path);
  const version = kongVersion(proxy);
  if (!quitModelled(version))
    return refused({
      severity: 'warning',
      code: 'KONG_VERSION_UNKNOWN',
      path: at('spec', 'containers', { key: 'name', equals: proxy.name }, 'image'),
      message:
        `The image (${String(proxy.image)}) names no Kong release from ${KONG_QUIT.since} to ` +
        `${KONG_QUIT_READ_UP_TO}, the ones whose kong quit kube-graceful read ` +
        `(kong/cmd/quit.lua, 2.0.0 to 3.9.3, the last open-source release); it is left alone. ` +
        `If its kong quit is the same, give it --wait=${W} --timeout=${R} and a grace period ` +
        `≥ ${W + R + inputs.buffer.value} by hand.`,
    });
  const quit = kongQuit(proxy);
  const preStop = proxy.lifecycle?.preStop;
  const hasHook = preStop !== undefined && preStop !== null && Object.keys(preStop).length > 0;
  if (hasHook && quit === undefined)
    return refused({
      severity: 'warning',
      code: 'KONG_PRESTOP_NOT_QUIT',
      path: hookAt(),
      message:
        `Container "${proxy.name}" has a preStop hook other than kong quit; it is kept, and ` +
        `kube-graceful does not model it. Kong's chart uses exec kong quit --wait=N: with ` +
        `--wait=${W} --timeout=${R} nginx accepts while the load balancer still sends and ` +
        `finishes its requests.`,
    });
  const unreadable = [quit?.wait, quit?.timeout].filter(
    (o): o is QuitOption => o !== undefined && o.seconds === undefined,
  );
  if (unreadable.length > 0)
    return refused({
      severity: 'warning',
      code: 'KONG_OPTION_UNREADABLE',
      path: hookAt('exec', 'command', unreadable[0]!.valueIndex),
      message:
        `kong quit cannot read ${unreadable.map((o) => JSON.stringify(o.text)).join(', ')} as ` +
        `a number of seconds: the hook fails at once and nginx gets SIGTERM mid-request. It is ` +
        `left as written; fix the option.`,
    });
  return { ok: true, proxy, quit, at, hookAt };
}

/** What the quit steps write into. */
interface QuitStep {
  readonly inputs: TimingInputs;
  readonly hookAt: (...path: FieldPath) => FieldPath;
  readonly changes: ProposedChange[];
  readonly findings: ProposedFinding[];
}

/** The preStop kong quit for a Kong container without one. */
function newQuitHook(
  { inputs, hookAt }: QuitStep,
  wait: Derived,
  timeout: Derived,
): ProposedChange {
  const W = inputs.drainWindow.value;
  const R = inputs.maxRequest.value;
  return {
    path: hookAt(),
    value: { exec: { command: ['kong', 'quit', `--wait=${W}`, `--timeout=${R}`] } },
    reason: [
      `preStop kong quit --wait=${W} --timeout=${R}: ${wait.formula}; ${timeout.formula}. ` +
        `${wait.explanation} Then ${timeout.explanation}`,
      sourceLine('W', inputs.drainWindow.source),
      sourceLine('R', inputs.maxRequest.source),
    ].join('\n'),
  };
}

/** --wait and --timeout raised where the hook's own are shorter, appended where it has none. */
function raiseQuitOptions(
  { inputs, hookAt, changes, findings }: QuitStep,
  quit: NonNullable<ReturnType<typeof kongQuit>>,
  { wait, timeout }: { readonly wait: Derived; readonly timeout: Derived },
): void {
  const written = quitSettings(quit);
  const W = inputs.drainWindow.value;
  const R = inputs.maxRequest.value;
  let end = quit.command.length;
  const set = (
    option: QuitOption | undefined,
    name: string,
    value: number,
    why: readonly string[],
  ) => {
    const path = hookAt('exec', 'command', option ? option.valueIndex : end++);
    const [first, ...rest] = why;
    changes.push({
      path,
      value: option && !option.inline ? String(value) : `--${name}=${value}`,
      reason: [first! + (option ? ` (was ${option.text})` : ''), ...rest].join('\n'),
    });
  };
  if (written.wait.value < W)
    set(quit.wait, WAIT_OPTION, W, [
      `--wait = ${W}: ${wait.formula}. ${wait.explanation}`,
      sourceLine('W', inputs.drainWindow.source),
    ]);
  else if (written.wait.value > W)
    findings.push({
      severity: 'info',
      code: 'KONG_WAIT_KEPT',
      path: hookAt('exec', 'command', quit.wait!.valueIndex),
      message:
        `kong quit --wait is ${written.wait.value}, more than W = ${W}; it is kept (never ` +
        `lowered), and the grace period covers it.`,
    });
  if (written.timeout.value < R)
    set(quit.timeout, TIMEOUT_OPTION, R, [
      `--timeout = ${R}: ${timeout.formula}. Requests in flight have --timeout after ` +
        `nginx closes its listeners; kong quit then stops nginx, cutting them.`,
      sourceLine('R', inputs.maxRequest.source),
    ]);
}

/** terminationGracePeriodSeconds where the pod has less than G; a finding where it has more. */
function graceSetting(
  inputs: TimingInputs,
  at: (...path: FieldPath) => FieldPath,
  { wait, grace }: { readonly wait: Derived; readonly grace: Derived },
): { changes: ProposedChange[]; findings: ProposedFinding[] } {
  const R = inputs.maxRequest.value;
  const changes: ProposedChange[] = [];
  const findings: ProposedFinding[] = [];
  const existing = inputs.existingGraceSeconds;
  const needed = wait.value + R + inputs.buffer.value;
  const change = graceChange(at('spec', 'terminationGracePeriodSeconds'), grace, inputs);
  if (change !== undefined) changes.push(change);
  else if (existing !== undefined && existing > needed)
    findings.push({
      severity: 'info',
      code: 'KONG_GRACE_KEPT',
      path: at('spec', 'terminationGracePeriodSeconds'),
      message:
        `terminationGracePeriodSeconds ${existing} is more than the model's P + R + B = ` +
        `${needed}; it is kept (never lowered).`,
    });
  return { changes, findings };
}
