/**
 * The Traefik facts traefik-drain relies on (issue #19 item 3), as rows of the compatibility table.
 * Rows whose breach shows in the written pod carry a check (./compatibilityChecks.ts); the others
 * need W or R, which a pod does not show, and are enforced by the decision.
 */
import type { Constraint } from '../../compat/constraint.ts';
import * as check from './compatibilityChecks.ts';

export const TRAEFIK_COMPATIBILITY: readonly Constraint[] = [
  {
    id: 'traefik-ping-terminating-status',
    product: 'Traefik',
    setting:
      '`/ping` answers `ping.terminatingStatusCode` (503 unless set) from SIGTERM on: a ' +
      'readiness probe on /ping fails while requestAcceptGraceTimeout still keeps Traefik ' +
      'accepting',
    versions: 'v2.11.53, v3.7.9',
    breaks:
      'behind node targets with externalTrafficPolicy Local the node stops forwarding once ' +
      'Traefik is unready, and drops what the load balancer still sends',
    sources: [
      'traefik pkg/ping/ping.go@v2.11.53, @v3.7.9 (SetDefaults, ServeHTTP)',
      'traefik cmd/traefik/traefik.go@v2.11.53, @v3.7.9 (signal.NotifyContext, Ping.WithContext)',
    ],
    enforcedBy:
      'traefik-drain writes --ping.terminatingStatusCode=200 there (fn/mutators/traefik/' +
      'pingEdit.ts; test/mutators/traefik/node-local.test.ts)',
  },
  {
    id: 'traefik-stops-accepting-on-sigterm',
    product: 'Traefik',
    setting: '`entryPoints.<name>.transport.lifeCycle.requestAcceptGraceTimeout` (default 0)',
    versions:
      'v2.0+ (per entry point; v1.7 had one global `lifeCycle`, ' +
      'configuration/configuration.go@v1.7.34)',
    breaks:
      'at 0 an entry point closes its listener the moment Traefik gets SIGTERM: ' +
      'connections the load balancer still sends are refused',
    sources: [
      'traefik pkg/server/server_entrypoint_tcp.go@v2.0.0, @v2.11.53, ' +
        '@v3.7.9 (TCPEntryPoint.Shutdown: sleep requestAcceptGraceTimeout, ' +
        'then server.Shutdown)',
      'traefik pkg/config/static/static_config.go@v3.7.9 (LifeCycle.SetDefaults sets only ' +
        'GraceTimeOut)',
    ],
    enforcedBy:
      'the traefik-drain mutator (fn/mutators/traefik; ' +
      "test/mutators/traefik and the traefik-* golden cases on the chart's renders)",
  },
  {
    id: 'traefik-grace-timeout-default',
    product: 'Traefik',
    setting: '`entryPoints.<name>.transport.lifeCycle.graceTimeOut` (default 10 s)',
    versions: 'v2.0+',
    breaks:
      'requests still in flight after graceTimeOut are closed: ' +
      'a longest request R above 10 s is cut',
    sources: [
      'traefik pkg/config/static/static_config.go@v2.0.0, @v2.11.53, ' +
        '@v3.7.9 (DefaultGraceTimeout = 10 * time.Second)',
    ],
    enforcedBy:
      'the traefik-drain mutator (fn/mutators/traefik; ' +
      "test/mutators/traefik and the traefik-* golden cases on the chart's renders)",
  },
  {
    id: 'traefik-shutdown-order',
    product: 'Traefik',
    setting: 'entry points on SIGTERM: TCP ones in parallel, then UDP ones',
    versions: 'v2.2+ (UDP entry points); TCP in parallel from v2.0',
    breaks:
      'the pod lives P + max over TCP entry points (requestAcceptGraceTimeout + ' +
      "graceTimeOut) + the UDP ones' own after SIGTERM; " +
      'a terminationGracePeriodSeconds below that kills Traefik with requests in flight',
    sources: [
      'traefik pkg/server/server.go@v2.11.53, @v3.7.9 (Server.Stop: tcpEntryPoints.Stop, ' +
        'then udpEntryPoints.Stop)',
      'traefik pkg/server/server_entrypoint_udp.go@v3.7.9 (UDPEntryPoint.Shutdown)',
    ],
    check: check.traefikGraceCoversShutdown,
  },
  {
    id: 'traefik-serves-open-connections',
    product: 'Traefik',
    setting:
      'during `requestAcceptGraceTimeout` an entry point keeps serving the connections already ' +
      'open, not only new ones; its servers shut down only after it',
    versions: 'v2.0+',
    breaks:
      'requests on open keep-alive connections may arrive until P + S′, not only until W, and ' +
      "need R′ from then: a load balancer's deregistration delay below P + S′ + R′ cuts them " +
      '(LB_DEREGISTRATION_TOO_SHORT, and explain draws the same span)',
    sources: [
      'traefik pkg/server/server_entrypoint_tcp.go@v2.11.53, @v3.7.9 (TCPEntryPoint.Shutdown: ' +
        'sleep requestAcceptGraceTimeout, then Shutdown the servers with graceTimeOut)',
    ],
    enforcedBy:
      'the traefik-drain mutator (fn/mutators/traefik/timing.ts loadBalancerChecks and ' +
      'timeline.ts; test/mutators/traefik/wired.test.ts on chart-41.3.0-nlb-lifecycle.yaml)',
  },
  {
    id: 'traefik-flag-order',
    product: 'Traefik',
    setting:
      'static configuration flags are read in any order; parsing stops at `--` or at ' +
      'the first argument that is not a flag',
    versions: 'v2.0+ (paerser)',
    breaks:
      'a flag after `--` or after a positional argument is never read: added life-cycle flags ' +
      'go at the end of `args` only when every argument is a flag (each as an item of its own, ' +
      'so comments stay), else before that point',
    sources: ['traefik/paerser flag/flagparser.go@v0.2.0 (parseOne, setValue)'],
    enforcedBy:
      'the traefik-drain mutator (fn/mutators/traefik/args.ts argItems; ' +
      'test/mutators/traefik/manifests.test.ts, args-comments.test.ts)',
  },
  {
    id: 'traefik-ping-terminating',
    product: 'Traefik',
    setting: '`/ping` during shutdown (`ping.terminatingStatusCode`, default 503)',
    versions: 'v2.0+ (503); the status code is configurable from v2.3',
    breaks:
      'nothing: /ping answers 503 from SIGTERM on, ' +
      'while requestAcceptGraceTimeout keeps the entry points accepting, ' +
      "so a readiness probe or a load balancer's health check on /ping fails while Traefik " +
      'still serves',
    sources: [
      'traefik pkg/ping/ping.go@v2.0.0, @v2.11.53, @v3.7.9 (WithContext: ' +
        'terminating once the signal context is done)',
      'traefik cmd/traefik/traefik.go@v3.7.9 (signal.NotifyContext SIGINT, SIGTERM; ' +
        'Ping.WithContext(ctx))',
    ],
    enforcedBy:
      'the traefik-drain mutator (fn/mutators/traefik; ' +
      "test/mutators/traefik and the traefik-* golden cases on the chart's renders)",
  },
  {
    id: 'traefik-one-static-source',
    product: 'Traefik',
    setting: 'static configuration from ONE source: a file, else flags, else `TRAEFIK_*` variables',
    versions: 'v2.0+',
    breaks:
      'a lifeCycle flag added to a Traefik that reads a file (`--configFile`, ' +
      'or /etc/traefik/traefik.{toml,yaml,yml}) is ignored; ' +
      'one added to a Traefik configured by variables switches it to flags and drops every ' +
      'variable',
    sources: [
      'traefik cmd/traefik/traefik.go@v3.7.9 (loaders: file, flag, env)',
      'traefik pkg/cli/loader_file.go@v3.7.9 (loadConfigFiles: /etc/traefik/traefik, ' +
        '$XDG_CONFIG_HOME/traefik, $HOME/.config/traefik, ./traefik)',
      'paerser cli/commands.go@v0.2.0 (stops at the first loader that is done)',
    ],
    check: check.traefikOneStaticSource,
  },
  {
    id: 'traefik-duration-bare-seconds',
    product: 'Traefik',
    setting: 'lifeCycle durations: digits alone are seconds, else a Go duration',
    versions: 'v2.0+',
    breaks: 'a value that is neither fails to decode and Traefik does not start',
    sources: [
      'paerser types/duration.go@v0.2.0 (Duration.Set: strconv.ParseInt, then time.ParseDuration)',
      'traefik pkg/types/duration.go@v2.0.0',
    ],
    check: check.traefikDurationsReadable,
  },
  {
    id: 'traefik-chart-lifecycle-values',
    product: 'Traefik',
    setting:
      'Helm chart `ports.<name>.transport.lifeCycle` → ' +
      '`--entryPoints.<name>.transport.lifeCycle.*` args; ' +
      '`deployment.terminationGracePeriodSeconds` (default 60)',
    versions:
      'traefik-helm-chart v28.0.0+ (lifeCycle values); ' +
      'grace period 60 from before v28 through v41.3.0',
    breaks:
      'older charts cannot set the lifeCycle from values: the args must be added after rendering',
    sources: [
      'traefik-helm-chart traefik/templates/_podtemplate.tpl@v41.3.0, @v40.3.0, ' +
        '@v28.0.0 (absent before: commit 47e0f28a "feat(ports): add transport options")',
      'traefik-helm-chart traefik/values.yaml@v41.3.0 (terminationGracePeriodSeconds: 60)',
    ],
    enforcedBy:
      'the traefik-drain mutator (fn/mutators/traefik; ' +
      "test/mutators/traefik and the traefik-* golden cases on the chart's renders)",
  },
];
