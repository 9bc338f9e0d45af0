/**
 * What Traefik does with its entry points' life-cycle settings, each fact with the upstream file
 * and tag it was read from (docs/mutators/traefik-drain.md has the same facts for users).
 */

/**
 * `graceTimeOut` when nothing sets it: 10 s (`DefaultGraceTimeout`, set by `LifeCycle.SetDefaults`
 * in pkg/config/static/static_config.go@v2.0.0, @v2.11.53 and @v3.7.9). `requestAcceptGraceTimeout`
 * has no default: 0, so an entry point stops accepting the moment Traefik gets SIGTERM.
 */
export const TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS = 10;

/**
 * The two settings, as flag name suffixes after `entryPoints.<name>.` (case-insensitive: paerser
 * lowercases every flag name before matching, flag/flagparser.go@v0.2.0 `setValue`).
 *
 * On SIGTERM each entry point sleeps `requestAcceptGraceTimeout` with its listener still open, then
 * gives in-flight requests `graceTimeOut` before it closes what is left (`TCPEntryPoint.Shutdown`,
 * pkg/server/server_entrypoint_tcp.go@v2.0.0, @v2.11.53, @v3.7.9).
 */
export const LIFECYCLE_SETTINGS = ['requestAcceptGraceTimeout', 'graceTimeOut'] as const;
export type LifecycleSetting = (typeof LIFECYCLE_SETTINGS)[number];

/** `transport.lifeCycle.<setting>` below an entry point. */
export function lifecycleSuffix(setting: LifecycleSetting): string {
  return `transport.lifeCycle.${setting}`;
}

/**
 * Where Traefik looks for a static configuration file when no `--configFile` is given
 * (`loadConfigFiles`, pkg/cli/loader_file.go@v3.7.9: base paths × toml, yaml, yml). A file found
 * there wins over every flag and environment variable (next comment).
 */
export const DEFAULT_CONFIG_DIRECTORY = '/etc/traefik';

/**
 * Traefik reads its static configuration from ONE source: the first loader that finds something
 * wins, in the order file, flags, environment (`loaders` in cmd/traefik/traefik.go@v3.7.9;
 * paerser cli/commands.go@v0.2.0 stops at the first `done`). So a flag added to a container that
 * reads a file is ignored, and a flag added to one configured by `TRAEFIK_*` variables would
 * switch it to flags and drop every variable.
 */
export const STATIC_CONFIG_ORDER =
  'file, then flags, then TRAEFIK_* environment variables (cmd/traefik/traefik.go@v3.7.9 loaders)';

/** Prefix of the environment variables Traefik reads (paerser env `DefaultNamePrefix`,
 * pkg/cli/loader_env.go@v3.7.9). */
export const ENV_PREFIX = 'TRAEFIK_';

/**
 * What `/ping` answers once Traefik has got SIGTERM: `ping.terminatingStatusCode`, 503 when unset
 * (pkg/ping/ping.go@v2.11.53, @v3.7.9 SetDefaults, ServeHTTP; the handler's context is the one
 * SIGTERM cancels, cmd/traefik/traefik.go@v2.11.53, @v3.7.9 signal.NotifyContext). A readiness
 * probe on /ping then fails from SIGTERM on; any code from 200 to 399 keeps it passing.
 */
export const PING_TERMINATING_STATUS = {
  flag: 'ping.terminatingStatusCode',
  defaultCode: 503,
  /** The code kube-graceful writes where Traefik must stay ready while it drains. */
  servingCode: 200,
} as const;
