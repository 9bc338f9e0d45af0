/**
 * ingress-nginx behind a load balancer (issue #26 item 3): the decision. The chart's preStop
 * `/wait-shutdown` stops the controller at once, and nginx keeps accepting only for
 * `--shutdown-grace-period` (default 0: closed from t≈0 while a load balancer with IP targets
 * still sends for W). So:
 *
 * - `--shutdown-grace-period` = P = W, never below a larger value already written;
 * - `terminationGracePeriodSeconds` = G = P + R + `--post-shutdown-grace-period` + B, never
 *   lowered;
 * - the preStop is kept as written: `/wait-shutdown` is how the controller learns to stop, and a
 *   sleep in front of it would only move every step later (./controller.ts).
 */
import type { Container } from '../../core/kubeObject.ts';
import type { FieldPath } from '../../core/fieldPath.ts';
import { reached } from '../../facts/versionGates.ts';
import { coveringGrace } from '../../timing/model.ts';
import type { Derived, TimingInputs } from '../../timing/model.ts';
import {
  controllerVersion,
  ingressNginxContainers,
  isWaitShutdown,
  POST_SHUTDOWN_GRACE_DEFAULT_SECONDS,
  POST_SHUTDOWN_GRACE_FLAG,
  readIntFlag,
  SHUTDOWN_FLAGS,
  SHUTDOWN_GRACE_FLAG,
} from './controller.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedChange, ProposedFinding } from '../types.ts';
import { sourceLine } from '../../core/source.ts';
import { graceChange } from '../shared/graceChange.ts';

/** The finding codes this logic emits (docs/mutators/ingress-nginx-drain.md "Findings"). */
export type IngressNginxFindingCode =
  | 'INGRESS_NGINX_SHUTDOWN_GRACE_KEPT'
  | 'INGRESS_NGINX_SHUTDOWN_GRACE_UNREADABLE'
  | 'INGRESS_NGINX_GRACE_KEPT'
  | 'INGRESS_NGINX_VERSION_UNKNOWN'
  | 'INGRESS_NGINX_PRESTOP_NOT_WAIT_SHUTDOWN'
  | 'INGRESS_NGINX_SEVERAL_CONTAINERS'
  | 'INGRESS_NGINX_MESH_NOT_MODELLED'
  | 'INGRESS_NGINX_NODE_LOCAL';

export interface IngressNginxDecision {
  readonly changes: ProposedChange[];
  readonly findings: ProposedFinding[];
  readonly container?: string;
  readonly shutdownGrace?: Derived;
  readonly grace?: Derived;
}

/** Returns P and G for the model's inputs and the controller's post-shutdown grace. */
function shutdownTiming(
  inputs: TimingInputs,
  postShutdownSeconds: number,
): { shutdownGrace: Derived; grace: Derived } {
  const W = inputs.drainWindow.value;
  const R = inputs.maxRequest.value;
  const B = inputs.buffer.value;
  const shutdownGrace: Derived = {
    value: W,
    formula: `P = W = ${W}`,
    explanation:
      'nginx keeps accepting for --shutdown-grace-period after the controller gets SIGTERM ' +
      '(which /wait-shutdown sends at t=0), while the load balancer may still send new ' +
      'connections.',
  };
  const grace = coveringGrace(
    'P + R + post + B',
    [W, R, postShutdownSeconds, B],
    inputs.existingGraceSeconds,
    'nginx accepts for P, finishes requests in flight (R), the controller waits ' +
      '--post-shutdown-grace-period after nginx exits, plus the buffer.',
  );
  return { shutdownGrace, grace };
}

/** Returns the changes and findings for one workload whose pod runs the controller. */
export function decideIngressNginx(workload: Workload, inputs: TimingInputs): IngressNginxDecision {
  const template = workload.template;
  const containers = ingressNginxContainers(template.spec);
  const at = (...path: FieldPath): FieldPath => [...workload.templatePath, ...path];
  if (containers.length !== 1) {
    return {
      changes: [],
      findings: [
        {
          severity: 'warning',
          code: 'INGRESS_NGINX_SEVERAL_CONTAINERS',
          path: at('spec', 'containers'),
          message:
            `The pod runs ${containers.length} ingress-nginx controllers; kube-graceful ` +
            `plans one per pod and leaves this one alone. Set each one's ` +
            `--shutdown-grace-period ≥ W and the ` +
            `grace period by hand.`,
        },
      ],
    };
  }
  const container = containers[0]!;
  const containerAt = (...path: FieldPath): FieldPath =>
    at('spec', 'containers', { key: 'name', equals: container.name }, ...path);
  const findings: ProposedFinding[] = [];
  const changes: ProposedChange[] = [];
  const post = readIntFlag(container, POST_SHUTDOWN_GRACE_FLAG);
  const postSeconds = post?.seconds ?? POST_SHUTDOWN_GRACE_DEFAULT_SECONDS;
  const { shutdownGrace, grace } = shutdownTiming(inputs, postSeconds);
  const W = inputs.drainWindow.value;
  const version = controllerVersion(container);
  // The flag exists from this release; an unknown flag stops the controller from starting.
  const mayWriteFlag = version !== undefined && reached(SHUTDOWN_FLAGS, version);
  findings.push(...containerFindings(container, containerAt, { W, grace, mayWriteFlag }));
  const flag = readIntFlag(container, SHUTDOWN_GRACE_FLAG);
  const flagStep = shutdownGraceFlag(container, containerAt, inputs, {
    flag,
    mayWriteFlag,
    shutdownGrace,
  });
  changes.push(...flagStep.changes);
  findings.push(...flagStep.findings);
  // The grace period is planned with the P the pod will run with: a larger one kept is counted.
  const P = Math.max(W, flag?.seconds ?? 0);
  const planned =
    P === W
      ? grace
      : shutdownTiming({ ...inputs, drainWindow: { ...inputs.drainWindow, value: P } }, postSeconds)
          .grace;
  const existing = inputs.existingGraceSeconds;
  const change = graceChange(at('spec', 'terminationGracePeriodSeconds'), planned, inputs);
  if (change !== undefined) {
    changes.push(change);
  } else if (existing !== undefined && existing > planned.value) {
    findings.push({
      severity: 'info',
      code: 'INGRESS_NGINX_GRACE_KEPT',
      path: at('spec', 'terminationGracePeriodSeconds'),
      message:
        `terminationGracePeriodSeconds ${existing} is more than the model's ` +
        `${planned.value}; it is kept (never lowered).`,
    });
  }
  return { changes, findings, container: container.name, shutdownGrace, grace: planned };
}

/** Findings about the controller container: a hook other than /wait-shutdown, its release. */
function containerFindings(
  container: Container,
  containerAt: (...path: FieldPath) => FieldPath,
  {
    W,
    grace,
    mayWriteFlag,
  }: { readonly W: number; readonly grace: Derived; readonly mayWriteFlag: boolean },
): ProposedFinding[] {
  const findings: ProposedFinding[] = [];
  const preStop = container.lifecycle?.preStop;
  if (preStop !== undefined && preStop !== null && !isWaitShutdown(preStop)) {
    findings.push({
      severity: 'warning',
      code: 'INGRESS_NGINX_PRESTOP_NOT_WAIT_SHUTDOWN',
      path: containerAt('lifecycle', 'preStop'),
      message:
        `Container "${container.name}" has a preStop hook other than the chart's /wait-shutdown; ` +
        `it is kept, and the controller gets SIGTERM only when it returns. kube-graceful models ` +
        `the controller from SIGTERM on; a hook it cannot read makes the outcome unknown.`,
    });
  }
  if (!mayWriteFlag) {
    findings.push({
      severity: 'warning',
      code: 'INGRESS_NGINX_VERSION_UNKNOWN',
      path: containerAt('image'),
      message:
        `The controller image (${String(container.image)}) names no release ` +
        `≥ v${SHUTDOWN_FLAGS.since}, the first with --${SHUTDOWN_GRACE_FLAG} ` +
        `(cmd/nginx/flags.go@controller-v1.0.0); an unknown flag stops the controller ` +
        `from starting, so kube-graceful adds none. If it has the flag, ` +
        `set --${SHUTDOWN_GRACE_FLAG}=${W} and terminationGracePeriodSeconds ≥ ${grace.value}.`,
    });
  }
  return findings;
}

/** --shutdown-grace-period: raised in place, appended, or kept (larger, or unreadable). */
function shutdownGraceFlag(
  container: Container,
  containerAt: (...path: FieldPath) => FieldPath,
  inputs: TimingInputs,
  {
    flag,
    mayWriteFlag,
    shutdownGrace,
  }: {
    readonly flag: ReturnType<typeof readIntFlag>;
    readonly mayWriteFlag: boolean;
    readonly shutdownGrace: Derived;
  },
): { changes: ProposedChange[]; findings: ProposedFinding[] } {
  const W = inputs.drainWindow.value;
  const changes: ProposedChange[] = [];
  const findings: ProposedFinding[] = [];
  const reasonLines = (was?: string) =>
    [
      `--${SHUTDOWN_GRACE_FLAG} = ${W}: ${shutdownGrace.formula}. ${shutdownGrace.explanation}` +
        (was === undefined ? '' : ` (was ${was})`),
      sourceLine('W', inputs.drainWindow.source),
    ].join('\n');
  if (flag !== undefined && flag.seconds === undefined) {
    findings.push({
      severity: 'warning',
      code: 'INGRESS_NGINX_SHUTDOWN_GRACE_UNREADABLE',
      path: containerAt('args', flag.valueIndex),
      message:
        `--${SHUTDOWN_GRACE_FLAG} is "${flag.text}", not a whole number of seconds: ` +
        `the controller ` +
        `refuses to start with it. It is left as written; set it to ${W}.`,
    });
  } else if (flag?.seconds !== undefined && flag.seconds >= W) {
    if (flag.seconds > W)
      findings.push({
        severity: 'info',
        code: 'INGRESS_NGINX_SHUTDOWN_GRACE_KEPT',
        path: containerAt('args', flag.valueIndex),
        message:
          `--${SHUTDOWN_GRACE_FLAG} is ${flag.seconds}, more than the model's ` +
          `${shutdownGrace.formula}; ` +
          `it is kept (never lowered), and the grace period covers it.`,
      });
  } else if (mayWriteFlag && flag !== undefined) {
    changes.push({
      path: containerAt('args', flag.valueIndex),
      value: flag.inline ? `--${SHUTDOWN_GRACE_FLAG}=${W}` : String(W),
      reason: reasonLines(flag.text),
    });
  } else if (mayWriteFlag) {
    changes.push({
      path: containerAt('args', (container.args ?? []).length),
      value: `--${SHUTDOWN_GRACE_FLAG}=${W}`,
      reason: reasonLines(),
    });
  }
  return { changes, findings };
}
