/**
 * Contour's Envoy behind a load balancer (issue #26 item 4): the decision. Envoy's preStop holds
 * its SIGTERM until the shutdown-manager's ready file exists, and the shutdown-manager's own
 * preStop writes it at the first poll after `--drain-delay` + `--check-delay` that finds no
 * connection open (./shutdownManager.ts). With both delays at their default 0s, Envoy may exit
 * at t≈0 while a load balancer with IP targets still sends for W. So:
 *
 * - S = `--drain-delay` + `--check-delay` ≥ W: `--check-delay` is raised to W − drain-delay, never
 *   lowered. The check delay, not the drain delay, is what grows: Envoy fails its health checks at
 *   once and closes each connection after its current request, so clients move to other
 *   endpoints while its listeners still accept what the load balancer sends. Where the node
 *   forwards to Envoy only while it is ready (node targets, externalTrafficPolicy Local), the
 *   drain delay grows instead (coveringDelays);
 * - `terminationGracePeriodSeconds` = G = S + R + `--check-interval` + B, never lowered: the
 *   connections still open finish their requests, and the next poll writes the ready file;
 * - both preStop hooks are kept: they are how the pod stops.
 */
import type { FieldPath } from '../../core/fieldPath.ts';
import { reached } from '../../facts/versionGates.ts';
import { coveringGrace } from '../../timing/model.ts';
import type { Derived, TimingInputs } from '../../timing/model.ts';
import {
  CHECK_DELAY_FLAG,
  DRAIN_DELAY_FLAG,
  CONTOUR_SHUTDOWN,
  contourVersion,
  shutdownHook,
  shutdownSettings,
} from './shutdownManager.ts';
import type { ContourEnvoyPod, ShutdownSettings } from './shutdownManager.ts';
import type { CommandFlag, ShutdownHook } from './shutdownManager.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedChange, ProposedFinding } from '../types.ts';
import { sourceLine } from '../../core/source.ts';
import { graceChange } from '../shared/graceChange.ts';

/** The finding codes this logic emits (docs/mutators/contour-drain.md "Findings"). */
export type ContourFindingCode =
  | 'CONTOUR_ENVOY_HOOK_MISSING'
  | 'CONTOUR_SHUTDOWN_HOOK_MISSING'
  | 'CONTOUR_VERSION_UNKNOWN'
  | 'CONTOUR_FLAG_UNREADABLE'
  | 'CONTOUR_MIN_OPEN_CONNECTIONS'
  | 'CONTOUR_DELAY_KEPT'
  | 'CONTOUR_GRACE_KEPT'
  | 'CONTOUR_MESH_NOT_MODELLED';

export interface ContourDecision {
  readonly changes: ProposedChange[];
  readonly findings: ProposedFinding[];
  /** S and G, when the pod has both hooks and a Contour release that has the flags. */
  readonly stopAccepting?: Derived;
  readonly grace?: Derived;
  readonly version?: string;
}

/** The delays the shutdown-manager will run with: as written, or raised so that S covers W. */
interface Delays {
  readonly drainDelay: number;
  readonly checkDelay: number;
}

/**
 * Raises the delay that must cover W, never lowering one. Behind a load balancer that reaches
 * Envoy through its node with externalTrafficPolicy Local (`readinessBound`), the node forwards
 * to the terminating pod only while it passes readiness (kubernetes pkg/proxy/topology.go
 * CategorizeEndpoints), and Envoy's /ready fails from /healthcheck/fail on (envoyproxy/envoy
 * source/server/admin/server_info_handler.cc@74fe365 handlerReady; Contour's readiness probe is
 * /ready, examples/render/contour.yaml@v1.33.6): the drain delay, which comes before that call,
 * must cover W. Otherwise the check delay grows (see the file comment).
 */
function coveringDelays(written: Delays, W: number, readinessBound: boolean): Delays {
  const { drainDelay: D, checkDelay: C } = written;
  if (readinessBound) return { drainDelay: D >= W ? D : Math.ceil(W), checkDelay: C };
  return { drainDelay: D, checkDelay: D + C >= W ? C : Math.ceil(W - D) };
}

/** Returns S (the delays as they will run) and G for the model's inputs. */
function shutdownTiming(
  inputs: TimingInputs,
  settings: ShutdownSettings,
  delays: Delays,
  readinessBound: boolean,
): { stopAccepting: Derived; grace: Derived } {
  const W = inputs.drainWindow.value;
  const R = inputs.maxRequest.value;
  const B = inputs.buffer.value;
  const { drainDelay: D, checkDelay: C } = delays;
  const I = settings.checkInterval.value;
  const S = D + C;
  const sum = `S = drain-delay + check-delay = ${D} + ${C} = ${S}`;
  const stopAccepting: Derived = readinessBound
    ? {
        value: S,
        formula: `${sum}; drain-delay = ${D} ≥ W = ${W}`,
        explanation:
          'The load balancer reaches Envoy through its node with externalTrafficPolicy Local, ' +
          'and the node forwards to the terminating pod only while it passes readiness, which ' +
          "the shutdown-manager's /healthcheck/fail ends after the drain delay: Envoy stays " +
          'ready and accepting until the load balancer has stopped sending.',
      }
    : {
        value: S,
        formula: `${sum} ≥ W = ${W}`,
        explanation:
          "Envoy keeps accepting until the shutdown-manager's first poll after both delays " +
          'finds no connection open, while the load balancer may still send new connections.',
      };
  const grace = coveringGrace(
    'S + R + check-interval + B',
    [S, R, I, B],
    inputs.existingGraceSeconds,
    'Envoy accepts until S, its connections finish their requests (R), the next poll writes ' +
      'the ready file, plus the buffer.',
  );
  return { stopAccepting, grace };
}

/** Where the decision writes: the pod template's fields and the shutdown-manager's. */
interface Places {
  readonly at: (...path: FieldPath) => FieldPath;
  readonly managerAt: (...path: FieldPath) => FieldPath;
}

/** The shutdown-manager's preStop command: where its words are, and why a delay moves. */
interface DelayEdit {
  readonly hookLength: number;
  readonly commandAt: (index: number) => FieldPath;
  readonly reason: readonly string[];
}

/** The change that writes one raised delay into the shutdown-manager's preStop command. */
function delayChange(
  name: string,
  flag: CommandFlag | undefined,
  seconds: number,
  edit: DelayEdit,
): ProposedChange {
  const text = `${seconds}s`;
  return {
    path: edit.commandAt(flag ? flag.valueIndex : edit.hookLength),
    value: flag && !flag.inline ? text : `--${name}=${text}`,
    reason: [
      `--${name} = ${text}: ${edit.reason[0]}` + (flag ? ` (was ${flag.text})` : ''),
      ...edit.reason.slice(1),
    ].join('\n'),
  };
}

/** A pod whose shutdown sequence kube-graceful models: its hook, release and settings. */
interface Modelled {
  readonly hook: ShutdownHook;
  readonly version: string;
  readonly settings: ShutdownSettings;
}

/** Returns a finding-only decision: the pod is left alone. */
function leftAlone(
  finding: ProposedFinding & { readonly code: ContourFindingCode },
  version?: string,
): ContourDecision {
  return { changes: [], findings: [finding], ...(version === undefined ? {} : { version }) };
}

/**
 * Returns the pod's hook, release and settings when both hooks are there, the release is one
 * read and every flag parses; otherwise the decision that leaves the pod alone, with why.
 */
function modelledPod(
  pod: ContourEnvoyPod,
  places: Places,
  W: number,
): { ok: true; pod: Modelled } | { ok: false; decision: ContourDecision } {
  const manager = pod.shutdownManager;
  const { at, managerAt } = places;
  if (pod.envoy === undefined)
    return {
      ok: false,
      decision: leftAlone({
        severity: 'warning',
        code: 'CONTOUR_ENVOY_HOOK_MISSING',
        path: at('spec', 'containers'),
        message:
          `Container "${manager.name}" runs Contour's shutdown-manager, but no container's ` +
          `preStop asks its /shutdown: Envoy gets SIGTERM at t=0 and exits while the load ` +
          `balancer still sends for W = ${W} s. Give the Envoy container ` +
          `preStop.httpGet {path: /shutdown, port: 8090} as Contour's examples/render do; ` +
          `the pod is left alone.`,
      }),
    };
  const hook = shutdownHook(manager);
  if (hook === undefined)
    return {
      ok: false,
      decision: leftAlone({
        severity: 'warning',
        code: 'CONTOUR_SHUTDOWN_HOOK_MISSING',
        path: managerAt('lifecycle', 'preStop'),
        message:
          `Container "${manager.name}" has no preStop exec "contour envoy shutdown": nothing ` +
          `writes the ready file Envoy's /shutdown waits for, so Envoy is stopped only by the ` +
          `grace deadline, mid-request. Give it the preStop of Contour's examples/render; ` +
          `the pod is left alone.`,
      }),
    };
  const version = contourVersion(manager);
  if (version === undefined || !reached(CONTOUR_SHUTDOWN, version))
    return {
      ok: false,
      decision: leftAlone({
        severity: 'warning',
        code: 'CONTOUR_VERSION_UNKNOWN',
        path: managerAt('image'),
        message:
          `The shutdown-manager's image (${String(manager.image)}) names no Contour release ` +
          `≥ v${CONTOUR_SHUTDOWN.since}, the oldest whose shutdown sequence kube-graceful ` +
          `models; an unknown flag would fail the hook, so none is added. On such a release, ` +
          `set --${CHECK_DELAY_FLAG} so that drain-delay + check-delay ≥ ${W}s by hand.`,
      }),
    };
  const settings = shutdownSettings(hook, version);
  if (settings.unreadable.length > 0)
    return {
      ok: false,
      decision: leftAlone(
        {
          severity: 'warning',
          code: 'CONTOUR_FLAG_UNREADABLE',
          path: managerAt('lifecycle', 'preStop', 'exec', 'command'),
          message:
            `contour envoy shutdown cannot parse ${settings.unreadable.join(', ')} (a Go ` +
            `duration such as 180s, or a whole number): the hook fails and Envoy waits for a ` +
            `ready file never written. It is left as written; fix the flag.`,
        },
        version,
      ),
    };
  return { ok: true, pod: { hook, version, settings } };
}

/** Returns the changes and findings for one pod that runs Contour's shutdown-manager. */
export function decideContour(
  workload: Workload,
  inputs: TimingInputs,
  pod: ContourEnvoyPod,
  options: {
    /**
     * The load balancer reaches Envoy through its node with externalTrafficPolicy Local, on a
     * Kubernetes whose kube-proxy forwards to a terminating pod while it is ready: Envoy must stay
     * ready until W (see coveringDelays).
     */
    readonly readinessBound: boolean;
  },
): ContourDecision {
  const at = (...path: FieldPath): FieldPath => [...workload.templatePath, ...path];
  const managerAt = (...path: FieldPath): FieldPath =>
    at('spec', 'containers', { key: 'name', equals: pod.shutdownManager.name }, ...path);
  const places: Places = { at, managerAt };
  const W = inputs.drainWindow.value;
  const modelled = modelledPod(pod, places, W);
  if (!modelled.ok) return modelled.decision;
  const { hook, version, settings } = modelled.pod;
  const findings: ProposedFinding[] = [];
  if (settings.minOpen.value > 0)
    findings.push({
      severity: 'warning',
      code: 'CONTOUR_MIN_OPEN_CONNECTIONS',
      path: managerAt('lifecycle', 'preStop', 'exec', 'command', hook.minOpen!.valueIndex),
      message:
        `--min-open-connections is ${settings.minOpen.value}: Envoy gets SIGTERM with up to ` +
        `that many connections still open, and the requests on them are cut. It is kept; set ` +
        `it to 0 (the default) for no request to be cut.`,
    });
  const written: Delays = {
    drainDelay: settings.drainDelay.value,
    checkDelay: settings.checkDelay.value,
  };
  const delays = coveringDelays(written, W, options.readinessBound);
  const { stopAccepting, grace } = shutdownTiming(inputs, settings, delays, options.readinessBound);
  const edit: DelayEdit = {
    hookLength: hook.command.length,
    commandAt: (index) => managerAt('lifecycle', 'preStop', 'exec', 'command', index),
    reason: [
      `${stopAccepting.formula}. ${stopAccepting.explanation}`,
      sourceLine('W', inputs.drainWindow.source),
    ],
  };
  const changes: ProposedChange[] = [];
  if (delays.drainDelay !== written.drainDelay)
    changes.push(delayChange(DRAIN_DELAY_FLAG, hook.drainDelay, delays.drainDelay, edit));
  if (delays.checkDelay !== written.checkDelay)
    changes.push(delayChange(CHECK_DELAY_FLAG, hook.checkDelay, delays.checkDelay, edit));
  if (changes.length === 0 && written.drainDelay + written.checkDelay > W)
    findings.push({
      severity: 'info',
      code: 'CONTOUR_DELAY_KEPT',
      path: managerAt('lifecycle', 'preStop', 'exec', 'command'),
      message:
        `drain-delay + check-delay is ${written.drainDelay + written.checkDelay} s, more than ` +
        `W = ${W} s; it is kept (never lowered), and the grace period covers it.`,
    });
  const graceOutcome = graceDecision(inputs, { stopAccepting, grace, settings }, places);
  changes.push(...graceOutcome.changes);
  findings.push(...graceOutcome.findings);
  return { changes, findings, stopAccepting, grace, version };
}

/** The grace period: written when G needs more, or kept (never lowered) with a finding. */
function graceDecision(
  inputs: TimingInputs,
  timing: { stopAccepting: Derived; grace: Derived; settings: ShutdownSettings },
  places: Places,
): { changes: ProposedChange[]; findings: ProposedFinding[] } {
  const { stopAccepting, grace, settings } = timing;
  const existing = inputs.existingGraceSeconds;
  const change = graceChange(places.at('spec', 'terminationGracePeriodSeconds'), grace, inputs);
  if (change !== undefined) return { changes: [change], findings: [] };
  const modelled =
    stopAccepting.value +
    inputs.maxRequest.value +
    settings.checkInterval.value +
    inputs.buffer.value;
  if (existing === undefined || existing <= modelled) return { changes: [], findings: [] };
  return {
    changes: [],
    findings: [
      {
        severity: 'info',
        code: 'CONTOUR_GRACE_KEPT',
        path: places.at('spec', 'terminationGracePeriodSeconds'),
        message:
          `terminationGracePeriodSeconds ${existing} is more than the model's S + R + ` +
          `check-interval + B; it is kept (never lowered).`,
      },
    ],
  };
}
