/**
 * The Contour facts contour-drain relies on (issue #26 item 4), read at projectcontour/contour
 * v1.33.6, as rows of the compatibility table (the flag names and defaults are in
 * ./shutdownManager.ts).
 */
import type { Constraint } from '../../compat/constraint.ts';
import { CHECK_DELAY_ZERO, CONTOUR_SHUTDOWN } from './shutdownManager.ts';

export const CONTOUR_COMPATIBILITY: readonly Constraint[] = [
  {
    id: 'contour-shutdown-manager',
    product: 'Contour',
    setting:
      "the Envoy pod's two preStop hooks: Envoy's `httpGet :8090/shutdown` and the " +
      "shutdown-manager's `contour envoy shutdown`",
    versions: `v${CONTOUR_SHUTDOWN.since}+`,
    breaks:
      "Envoy's hook returns only when the ready file exists, which `contour envoy shutdown` " +
      'writes at the first poll after --drain-delay + --check-delay that finds ≤ ' +
      '--min-open-connections open: with both delays 0s, Envoy may exit at t≈0 while a load ' +
      'balancer still sends for W',
    sources: [
      'projectcontour/contour cmd/contour/shutdownmanager.go@v1.33.6 (shutdownHandler, ' +
        'shutdownReadyHandler, registerShutdown)',
      'projectcontour/contour examples/render/contour.yaml@v1.33.6 (the envoy DaemonSet, ' +
        'terminationGracePeriodSeconds 300)',
    ],
    enforcedBy:
      'contour-drain keeps both hooks and raises --check-delay so that drain-delay + ' +
      'check-delay ≥ W; app-graceful never adds a sleep in front of them',
  },
  {
    id: 'contour-check-delay-default',
    product: 'Contour',
    setting: '`contour envoy shutdown --check-delay` default',
    versions: `0s from v${CHECK_DELAY_ZERO.since}; 60s in v1.20.0 and v1.21.x`,
    breaks: 'the earliest the ready file can be written, and so Envoy stop, moves with it',
    sources: [
      'projectcontour/contour cmd/contour/shutdownmanager.go@v1.22.0 (Default("0s"))',
      'projectcontour/contour cmd/contour/shutdownmanager.go@v1.21.0 (Default("60s"))',
    ],
    enforcedBy: 'contour-drain reads the default by the release the image names',
  },
  {
    id: 'envoy-healthcheck-fail-keeps-listening',
    product: 'Contour',
    setting: "Envoy's admin `POST /healthcheck/fail`",
    versions: 'Envoy 1.x',
    breaks:
      'it fails health checks and makes every connection close after its current request ' +
      '(drain close), but closes no listener: Envoy still accepts new connections until it exits',
    sources: [
      'envoyproxy/envoy source/server/drain_manager_impl.cc@01b4432da5b4 (drainClose: true ' +
        'while health check failed)',
      'https://www.envoyproxy.io/docs/envoy/latest/operations/admin#post--healthcheck-fail',
    ],
    enforcedBy: 'contour-drain draws Envoy accepting until its SIGTERM, not until the POST',
  },
];
