/**
 * How long Traefik serves after termination starts, for the mesh proxy that must outlive it
 * (issue #19 item 2c). traefik-drain gives Traefik no preStop: on SIGTERM each TCP entry point
 * keeps accepting for its requestAcceptGraceTimeout S′ (W − P, or the manifest's larger value) and
 * then gives requests in flight up to graceTimeOut R′ (R, or larger), all in parallel, then the
 * UDP entry points stop (`TCPEntryPoint.Shutdown`, pkg/server/server_entrypoint_tcp.go@v3.7.9;
 * `Server.Stop`, pkg/server/server.go@v3.7.9). Traefik proxies to its backends through the pod's
 * mesh proxy, so the proxy must keep forwarding, and keep its inbound listeners open, for all of
 * that: exactly what app-graceful sizes for an app that keeps accepting for W and finishes in R.
 * So the span is the model's inputs with W = the longest accepting span (P + S′) and R = what the
 * slowest entry point still needs after it.
 */
import { preStopSeconds } from '../../workloads/preStop.ts';
import { readStaticConfig } from './staticConfig/read.ts';
import type { EntryPoint } from './staticConfig/read.ts';
import { TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS } from './facts.ts';
import { traefikContainers } from './recognise.ts';
import type { TimingInputs } from '../../timing/model.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { MutatorContext, ServingSpan } from '../types.ts';
import { resolveTimingInputs } from '../shared/timingInputs.ts';

/**
 * Returns how long the Traefik of a workload serves, or undefined when it has not exactly one
 * Traefik container (traefik-drain leaves such pods alone too).
 */
export function traefikServingSpan(
  workload: Workload,
  context: MutatorContext,
): ServingSpan | undefined {
  const containers = traefikContainers(workload.template.spec);
  if (containers.length !== 1) return undefined;
  const container = containers[0]!;
  const { inputs } = resolveTimingInputs(workload, context);
  const W = inputs.drainWindow.value;
  const R = inputs.maxRequest.value;
  const hook = preStopSeconds(container.lifecycle?.preStop, context.spec.kubernetesVersion);
  const P = typeof hook === 'number' ? hook : 0;
  // What each entry point runs with once traefik-drain has set it: its own larger value kept
  // (a file-configured Traefik is not changed; the values it is told to set are these).
  const S = Math.max(W - P, 0);
  const config = readStaticConfig(container);
  const entryPoints =
    config.source === 'flags' || config.source === 'env' ? config.entryPoints : [];
  const { accepting, done, udp } = entryPointSpans(entryPoints, S, R);
  const acceptUntil = P + accepting;
  const doneAt = P + done + udp;
  const spanInputs: TimingInputs = {
    ...inputs,
    drainWindow: {
      value: acceptUntil,
      source: {
        kind: 'derived',
        how:
          `how long Traefik accepts (${P > 0 ? `its preStop ${P} s + ` : ''}` +
          `requestAcceptGraceTimeout ${accepting} s, as traefik-drain sets it for the load ` +
          `balancer's ${W} s: `,
        from: inputs.drainWindow.source,
        after: ')',
      },
      // Traefik's window is built on the load balancer's: a guess there is a guess here.
      ...(inputs.drainWindow.unknown ? { unknown: inputs.drainWindow.unknown } : {}),
    },
    maxRequest: {
      value: doneAt - acceptUntil,
      source: {
        kind: 'derived',
        how:
          `what its slowest entry point still needs after that (graceTimeOut` +
          `${udp > 0 ? `, then the UDP entry points' ${udp} s` : ''}; R = ${R} s from `,
        from: inputs.maxRequest.source,
        after: ')',
      },
    },
  };
  return {
    inputs: spanInputs,
    container: container.name,
    outlives:
      `The mesh proxy must outlive Traefik: it keeps accepting until ` +
      `${acceptUntil} s` +
      (P > 0 ? ` (its preStop, then requestAcceptGraceTimeout)` : ' (requestAcceptGraceTimeout)') +
      ` and its slowest entry point is done by ${doneAt} s, all the while proxying to its ` +
      `backends through the mesh.`,
    stopsAccepting:
      `SIGTERM, which Traefik gets at ${P} s and answers by accepting until ` +
      `${acceptUntil} s (requestAcceptGraceTimeout)`,
  };
}

/**
 * How long the entry points accept (the longest), when the slowest TCP one is done, and the UDP
 * ones' time after that, with each entry point's own larger values kept.
 */
function entryPointSpans(
  entryPoints: readonly EntryPoint[],
  S: number,
  R: number,
): { accepting: number; done: number; udp: number } {
  const whole = (seconds: number | undefined) =>
    seconds === undefined ? undefined : Math.ceil(seconds);
  let accepting = S;
  let done = S + R;
  let udp = 0;
  for (const ep of entryPoints) {
    const ownAccept = whole(ep.lifecycle.requestAcceptGraceTimeout?.seconds);
    const ownGrace = whole(ep.lifecycle.graceTimeOut?.seconds);
    if (ep.protocol === 'udp') {
      // Left as written, stopped after the TCP ones.
      udp = Math.max(udp, (ownAccept ?? 0) + (ownGrace ?? TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS));
      continue;
    }
    const accept = Math.max(ownAccept ?? 0, S);
    accepting = Math.max(accepting, accept);
    done = Math.max(done, accept + Math.max(ownGrace ?? 0, R));
  }
  return { accepting, done, udp };
}
