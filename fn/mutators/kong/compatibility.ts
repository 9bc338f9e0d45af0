/**
 * The Kong facts kong-drain relies on (issue #26 item 5), read at Kong/kong 3.9.3 and the chart
 * Kong/charts kong-3.4.1, as rows of the compatibility table (./kongQuit.ts).
 */
import type { Constraint } from '../../compat/constraint.ts';
import { KONG_QUIT, KONG_QUIT_READ_UP_TO } from './kongQuit.ts';

export const KONG_COMPATIBILITY: readonly Constraint[] = [
  {
    id: 'kong-ready-during-quit-wait',
    product: 'Kong',
    setting:
      '`kong quit --wait` leaves nginx untouched while it waits; `/status/ready` fails only on ' +
      'a POST of status `draining`',
    versions: '3.9.3 (read)',
    breaks:
      'nothing for the proxy: behind node targets with `externalTrafficPolicy: Local` it stays ' +
      'ready while it accepts; a pod is ready only while every container is, so a co-located ' +
      'ingress controller decides when the node stops forwarding',
    sources: ['Kong/kong kong/cmd/quit.lua@3.9.3', 'Kong/kong kong/status/ready.lua@3.9.3'],
    enforcedBy:
      'kong-drain explain (fn/mutators/kong/explain.ts kongTraffic, timeline.ts; ' +
      'test/mutators/kong/node-local.test.ts)',
  },
  {
    id: 'kong-quit',
    product: 'Kong',
    setting: 'preStop `kong quit --wait=N [--timeout=T]`',
    versions:
      `Kong ${KONG_QUIT.since}–${KONG_QUIT_READ_UP_TO} ` +
      '(kong/cmd/quit.lua unchanged from 2.0.0 to 3.9.3)',
    breaks:
      'nginx keeps accepting only for --wait (default 0; the chart writes 15), then SIGQUIT ' +
      'closes its listeners; after --timeout (default 10, at least 1) kong quit stops nginx with ' +
      'SIGTERM, cutting the requests still in flight',
    sources: [
      'Kong/kong kong/cmd/quit.lua@3.9.3',
      'Kong/kong kong/cmd/utils/nginx_signals.lua@3.9.3 (quit: QUIT, stop: TERM)',
      'Kong/charts charts/kong/values.yaml@kong-3.4.1 (lifecycle, ' +
        'terminationGracePeriodSeconds 30)',
    ],
    enforcedBy:
      'kong-drain sets --wait ≥ W and --timeout ≥ R (never lowered) and the grace period ≥ ' +
      'P + R + B',
  },
  {
    id: 'kong-ingress-controller-not-behind-lb',
    product: 'Kong',
    setting: "the chart's `ingress-controller` container",
    versions: 'chart kong-3.4.1',
    breaks:
      'it serves the admission webhook and metrics, not the proxy Service: a load balancer ' +
      'preStop on it only holds the control plane',
    sources: [
      'Kong/charts charts/kong/templates/_helpers.tpl@kong-3.4.1 (kong.controller-container: ' +
        'no lifecycle)',
      'Kong/charts charts/kong/templates/service-kong-proxy.yaml@kong-3.4.1',
    ],
    enforcedBy: 'kong-drain plans the proxy container only; app-graceful leaves Kong pods alone',
  },
];
