/**
 * What istio-proxy does when the Job wrapper POSTs pilot-agent's `/quitquitquit`, by version
 * (issue #13 item 10). The Job completes only once the proxy has exited, so this is when it does.
 *
 * - From 1.26 the handler first disables the drain (`s.disableDrain()`,
 *   pilot/cmd/pilot-agent/status/server.go@1.26.0 handleQuit; istio/istio#55424), and the agent
 *   exits at once (pkg/envoy/agent.go@1.26.0 terminate: "already drained, exiting immediately").
 * - Before 1.26 the quit takes the SIGTERM path: 1.21–1.25 cancel the agent (`s.shutdown`,
 *   server.go@1.21.0, @1.25.0), 1.20 sends SIGTERM to itself (`notifyExit`, server.go@1.20.0). The
 *   agent then drains and waits terminationDrainDuration (default 5 s), or, with
 *   EXIT_ON_ZERO_ACTIVE_CONNECTIONS, MINIMUM_DRAIN_DURATION and then polls every second until no
 *   connection is active (pkg/envoy/agent.go@1.24.0 terminate).
 */
import { ISTIO, reached } from '../../facts/versionGates.ts';

/**
 * The drain settings a pre-1.26 quit waits for (as the pod's proxy config sets them, or Istio's
 * defaults).
 */
export interface QuitDrain {
  readonly exitOnZero: boolean;
  readonly minimumDrainSeconds: number;
  readonly terminationDrainSeconds: number;
}

/** When istio-proxy is gone after the quit call, and in words why. */
export interface QuitExit {
  /**
   * Seconds after the call; with exit-on-zero, the earliest (it waits for zero connections after).
   */
  readonly seconds: number;
  readonly atLeast: boolean;
  readonly text: string;
}

/**
 * Returns when istio-proxy exits after `/quitquitquit` at this Istio version and with these drain
 * settings.
 */
export function istioQuitExit(istioVersion: string, drain: QuitDrain): QuitExit {
  if (reached(ISTIO.quitSkipsDrain, istioVersion)) {
    return {
      seconds: 0,
      atLeast: false,
      text:
        `exits at once without draining (Istio ${istioVersion} ≥ ` +
        `${ISTIO.quitSkipsDrain.since}, istio/istio#55424)`,
    };
  }
  if (drain.exitOnZero) {
    return {
      seconds: drain.minimumDrainSeconds,
      atLeast: true,
      text:
        `drains first (Istio ${istioVersion} < ${ISTIO.quitSkipsDrain.since}: ` +
        `quitquitquit takes the SIGTERM path): ` +
        `waits MINIMUM_DRAIN_DURATION (${drain.minimumDrainSeconds} s), ` +
        `then exits once no connection is active`,
    };
  }
  return {
    seconds: drain.terminationDrainSeconds,
    atLeast: false,
    text:
      `drains first (Istio ${istioVersion} < ${ISTIO.quitSkipsDrain.since}: ` +
      `quitquitquit takes the SIGTERM path): ` +
      `exits after terminationDrainDuration (${drain.terminationDrainSeconds} s)`,
  };
}
