/**
 * The ingress-nginx facts ingress-nginx-drain relies on (issue #26 item 3), read at the chart
 * 4.15.1 and its controller v1.15.1, as rows of the compatibility table (the flag names and
 * defaults are in ./controller.ts).
 */
import type { Constraint } from '../../compat/constraint.ts';
import { SHUTDOWN_FLAGS } from './controller.ts';

export const INGRESS_NGINX_COMPATIBILITY: readonly Constraint[] = [
  {
    id: 'ingress-nginx-healthz-at-shutdown',
    product: 'ingress-nginx',
    setting:
      'the controller fails `/healthz` from SIGTERM on (`/wait-shutdown` sends it at once), ' +
      'however long `--shutdown-grace-period` keeps nginx accepting',
    versions: 'controller-v1.0.0 … controller-v1.15.1',
    breaks:
      'behind node targets with `externalTrafficPolicy: Local` the node stops forwarding to the ' +
      "controller once its probe fails (20 s with the chart's), before a longer W ends",
    sources: [
      'kubernetes/ingress-nginx internal/ingress/controller/nginx.go@controller-v1.15.1 (Stop)',
      'kubernetes/ingress-nginx internal/ingress/controller/checker.go@controller-v1.0.0 and ' +
        '@controller-v1.15.1 (Check: isShuttingDown)',
    ],
    enforcedBy:
      'ingress-nginx-drain: explain draws it and INGRESS_NGINX_NODE_LOCAL names the threshold ' +
      '(fn/mutators/ingress-nginx/timeline.ts, fn/mutators/shared/nodeLocalReadiness.ts; ' +
      'test/mutators/ingress-nginx/node-local.test.ts)',
  },
  {
    id: 'ingress-nginx-wait-shutdown-stops-at-once',
    product: 'ingress-nginx',
    setting: "the chart's preStop `exec /wait-shutdown`",
    versions: 'controller v1.0.0+ (chart 4.x)',
    breaks:
      'it sends SIGTERM to the controller at t=0 and returns only when nginx has exited: it is ' +
      'not a delay, so nothing keeps nginx accepting but `--shutdown-grace-period`',
    sources: [
      'kubernetes/ingress-nginx cmd/waitshutdown/main.go@controller-v1.15.1',
      'kubernetes/ingress-nginx charts/ingress-nginx/values.yaml@helm-chart-4.15.1 ' +
        '(controller.lifecycle, terminationGracePeriodSeconds 300)',
    ],
    enforcedBy:
      'ingress-nginx-drain keeps the hook and draws it as modelled; app-graceful never adds a ' +
      'sleep in front of it (fn/mutators/app/index.ts)',
  },
  {
    id: 'ingress-nginx-shutdown-grace-period',
    product: 'ingress-nginx',
    setting: '`--shutdown-grace-period` (default 0), `--post-shutdown-grace-period` (default 10)',
    versions: `controller v${SHUTDOWN_FLAGS.since}+ (cmd/nginx/flags.go@controller-v1.0.0)`,
    breaks:
      'on SIGTERM /healthz fails at once and nginx keeps accepting only for ' +
      '--shutdown-grace-period, then `nginx -s quit` closes the listeners: at 0, behind a load ' +
      'balancer that still sends for W, connections are refused from t≈0; the controller exits ' +
      '--post-shutdown-grace-period after nginx',
    sources: [
      'kubernetes/ingress-nginx internal/ingress/controller/nginx.go@controller-v1.15.1 (Stop: ' +
        'sleep ShutdownGracePeriod, then nginx -s quit)',
      'kubernetes/ingress-nginx internal/ingress/controller/checker.go@controller-v1.15.1 ' +
        '(Check fails while isShuttingDown)',
      'kubernetes/ingress-nginx pkg/flags/flags.go@controller-v1.15.1 (pflag, ExitOnError)',
      'kubernetes/ingress-nginx pkg/util/process/sigterm.go@controller-v1.15.1 (HandleSigterm)',
    ],
    enforcedBy:
      'ingress-nginx-drain sets --shutdown-grace-period = W (never lowered) on controllers ' +
      `≥ v${SHUTDOWN_FLAGS.since} and the grace period ≥ P + R + post + B`,
  },
  {
    id: 'ingress-nginx-worker-shutdown-timeout',
    product: 'ingress-nginx',
    setting: 'ConfigMap `worker-shutdown-timeout` (default 240s)',
    versions: 'controller v1.15.1',
    breaks: 'nginx workers cut the requests still in flight when it runs out after nginx -s quit',
    sources: [
      'kubernetes/ingress-nginx internal/ingress/controller/config/config.go@controller-v1.15.1',
    ],
    enforcedBy:
      'ingress-nginx-drain draws the default; a value set in the ConfigMap is not read yet',
  },
];
