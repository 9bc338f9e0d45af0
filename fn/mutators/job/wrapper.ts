/**
 * "wrap" mode for Jobs with a mesh sidecar: rewrite the main container's `command` so that,
 * once the original program has exited, a tiny POSIX sh wrapper asks the proxy to quit and then
 * exits with the program's own exit code.
 *
 * Why: a classic (non-native) sidecar keeps running after the main container exits, so the pod
 * never completes (kubernetes/kubernetes#25908, istio/istio#6324, #11659). A preStop hook cannot
 * help: it is "not called if the container crashes or exits" (core/v1 Lifecycle API doc;
 * docs/background.md#kubernetes-pod-termination). The proxies offer a loopback quit call instead
 * (docs/background.md#istio, docs/background.md#linkerd).
 *
 * Pure: no YAML here. The caller decides whether wrapping applies (never in native-sidecar mode:
 * docs/background.md#istio "Never call quitquitquit in native mode", the sidecar would be
 * restarted).
 */

/**
 * A loopback HTTP endpoint that makes a proxy exit when it receives a POST: a mesh proxy, or a
 * sidecar the chart declares that has one (the Cloud SQL Auth Proxy, ./sidecarQuit.ts).
 */
export interface QuitEndpoint {
  readonly mesh: QuitMesh;
  readonly url: string;
}

/**
 * argv[0] of the wrapper script (`$0` for `sh -c`): the word that tells our own wrapper apart,
 * and the prefix sh puts on its own error messages, so users see who printed them.
 */
export const WRAPPER_MARKER = 'kube-graceful-wrap';

/**
 * The shell Kubernetes execs. `/bin/sh` is the one path POSIX images (dash, busybox, bash) share.
 */
const SHELL = '/bin/sh';

// Default ports. Istio: pilot-agent status port 15020, overridable by the pod annotation
// `status.sidecar.istio.io/port` (docs/background.md#istio). Linkerd: proxy admin port 4191,
// overridable by `config.linkerd.io/admin-port` (docs/background.md#linkerd).
const ISTIO_STATUS_PORT = 15020;
const LINKERD_ADMIN_PORT = 4191;

// The only paths we ever embed. Istio: pilot-agent `POST /quitquitquit`, loopback only, POST only,
// 1.3+ (docs/background.md#istio). Linkerd: `POST /shutdown`, 2.10+, needs the pod annotation
// `config.linkerd.io/proxy-admin-shutdown: enabled` since 2.16 (docs/background.md#linkerd).
// Cloud SQL Auth Proxy: `/quitquitquit` on its admin server, with --quitquitquit, v2.1.0+; POST
// (GET too from v2.7.0), exits 0 (cmd/root.go, cmd/errors.go@v2.25.3). Dapr: daprd's
// `POST /v1.0/shutdown` on its HTTP API, a graceful shutdown (pkg/api/http/shutdown.go,
// pkg/api/universal/shutdown.go@v1.18.3; pkg/http/api_shutdown.go@v1.12.0). Consul:
// consul-dataplane's `POST /graceful_shutdown` on its lifecycle port, which quits Envoy after its
// shutdown grace period and exits 0 (pkg/consuldp/lifecycle.go, consul_dataplane.go@v1.9.9).
const QUIT_PATH = {
  istio: '/quitquitquit',
  linkerd: '/shutdown',
  'cloud-sql-proxy': '/quitquitquit',
  dapr: '/v1.0/shutdown',
  consul: '/graceful_shutdown',
} as const;

// 127.0.0.1 rather than `localhost`: both endpoints listen on loopback, and an IP literal cannot
// be resolved to ::1 by an image whose /etc/hosts lists localhost as IPv6 first.
const LOOPBACK = '127.0.0.1';

function checkPort(port: number, what: string): number {
  // The port is embedded in script text that lands in users' manifests: only a plain integer in
  // range may get there (it comes from an annotation, i.e. user-controlled text).
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new RangeError(`${what} must be an integer from 1 to 65535, got ${String(port)}`);
  }
  return port;
}

/**
 * Istio's quit endpoint: `POST http://127.0.0.1:<statusPort>/quitquitquit` (pilot-agent).
 * @param statusPort the pod's `status.sidecar.istio.io/port` annotation as a number; default 15020.
 * @returns the endpoint, mesh `istio`.
 * @throws RangeError when the port is not an integer in 1–65535 (`"0"` disables Istio's status
 *   port, and with it quitquitquit: there is then nothing to call).
 */
export function istioQuitEndpoint(statusPort: number = ISTIO_STATUS_PORT): QuitEndpoint {
  const port = checkPort(statusPort, 'Istio status port (status.sidecar.istio.io/port)');
  return { mesh: 'istio', url: `http://${LOOPBACK}:${port}${QUIT_PATH.istio}` };
}

/**
 * Linkerd's quit endpoint: `POST http://127.0.0.1:<adminPort>/shutdown` (linkerd-proxy admin). The
 * endpoint answers only when the pod carries `config.linkerd.io/proxy-admin-shutdown: enabled` (off
 * by default since Linkerd 2.16, docs/background.md#linkerd): the caller must add that annotation.
 * @param adminPort the proxy admin port (`config.linkerd.io/admin-port`); default 4191.
 * @returns the endpoint, mesh `linkerd`.
 * @throws RangeError when the port is not an integer in 1–65535.
 */
export function linkerdQuitEndpoint(adminPort: number = LINKERD_ADMIN_PORT): QuitEndpoint {
  const port = checkPort(adminPort, 'Linkerd admin port');
  return { mesh: 'linkerd', url: `http://${LOOPBACK}:${port}${QUIT_PATH.linkerd}` };
}

/**
 * The Cloud SQL Auth Proxy's quit endpoint: `POST http://127.0.0.1:<adminPort>/quitquitquit`.
 * @param adminPort its `--admin-port` (default 9091, cmd/root.go@v2.25.3).
 * @throws RangeError when the port is not an integer in 1–65535.
 */
export function cloudSqlProxyQuitEndpoint(adminPort: number): QuitEndpoint {
  const port = checkPort(adminPort, 'Cloud SQL Auth Proxy admin port (--admin-port)');
  return {
    mesh: 'cloud-sql-proxy',
    url: `http://${LOOPBACK}:${port}${QUIT_PATH['cloud-sql-proxy']}`,
  };
}

/**
 * Dapr's quit endpoint: `POST http://127.0.0.1:3500/v1.0/shutdown` (daprd's HTTP API; the injector
 * gives daprd port 3500 with no annotation to change it, pkg/injector/patcher/sidecar.go@v1.18.3
 * SidecarHTTPPort). The port is a parameter for tests only.
 * @throws RangeError when the port is not an integer in 1–65535.
 */
export function daprQuitEndpoint(httpPort: number = DAPR_HTTP_PORT): QuitEndpoint {
  const port = checkPort(httpPort, 'Dapr HTTP port');
  return { mesh: 'dapr', url: `http://${LOOPBACK}:${port}${QUIT_PATH.dapr}` };
}

const DAPR_HTTP_PORT = 3500;

/**
 * Consul's quit endpoint: `POST http://127.0.0.1:<port>/graceful_shutdown` (consul-dataplane's
 * lifecycle server; port 20600 unless the pod's
 * `consul.hashicorp.com/sidecar-proxy-lifecycle-graceful-port` says otherwise:
 * control-plane/connect-inject/constants/constants.go@v1.9.11 DefaultGracefulPort).
 * @throws RangeError when the port is not an integer in 1–65535.
 */
export function consulQuitEndpoint(gracefulPort: number = CONSUL_GRACEFUL_PORT): QuitEndpoint {
  const port = checkPort(gracefulPort, 'consul-dataplane graceful port');
  return { mesh: 'consul', url: `http://${LOOPBACK}:${port}${QUIT_PATH.consul}` };
}

const CONSUL_GRACEFUL_PORT = 20600;

/** What a wrapper may ask to quit: the keys of QUIT_PATH, the one list of them. */
type QuitMesh = keyof typeof QUIT_PATH;

function isQuitMesh(mesh: unknown): mesh is QuitMesh {
  return typeof mesh === 'string' && Object.hasOwn(QUIT_PATH, mesh);
}

// Re-validates an endpoint handed in from outside: QuitEndpoint is a plain interface, so a caller
// could build one by hand. Only URLs that our constructors could have produced pass: the port is
// read here, the path must be its mesh's QUIT_PATH exactly.
const ENDPOINT_URL = /^http:\/\/127\.0\.0\.1:([0-9]{1,5})(\/\S*)$/;

function checkEndpoint(endpoint: QuitEndpoint): QuitEndpoint {
  const mesh: unknown = endpoint?.mesh;
  if (!isQuitMesh(mesh)) {
    throw new TypeError(`unknown mesh ${JSON.stringify(mesh)} in quit endpoint`);
  }
  const match = ENDPOINT_URL.exec(String(endpoint.url));
  if (match?.[2] !== QUIT_PATH[mesh]) {
    throw new TypeError(
      `quit endpoint for ${mesh} must be http://${LOOPBACK}:<port>${QUIT_PATH[mesh]}, ` +
        `got ${JSON.stringify(endpoint.url)}`,
    );
  }
  checkPort(Number(match[1]), `${mesh} quit endpoint port`);
  return { mesh, url: endpoint.url };
}

// First line of the script: names kube-graceful and the issue, and lets isWrapped recognise the
// wrapper even if a later version changes the rest of the script.
const SCRIPT_HEADER =
  '# kube-graceful: ask the mesh proxy to quit when this program exits, ' +
  'so the Job can complete (kubernetes/kubernetes#25908)';

// What a user sees in the Job's log when the image has neither client. The two ways out:
// an HTTP client in the image, or a native sidecar, which does not block Job completion (KEP-753,
// docs/background.md#kubernetes-pod-termination, docs/background.md#istio "native sidecars solve
// this problem entirely").
const NO_CLIENT_HINT =
  'the Job will not complete: add curl or wget to the image, or run the proxy as a native sidecar';

/**
 * The script body. Every line is POSIX sh that dash, busybox ash and bash agree on
 * (test/mutators/job/wrapper.test.ts runs it under each). Line by line, why:
 *
 * - `quit()`: one POST per endpoint. curl first; else wget (busybox wget has `--post-data` but no
 *   timeout option in Debian's build, so none is passed); else one clear line. `--noproxy '*'` /
 *   `-Y off`: an `http_proxy` in the container's env must not send a loopback call to a proxy
 *   server. A failed call only prints a line: the program's exit code is what the Job reports.
 * - `kg_` names: variables the wrapper sets before starting the program would change the
 *   program's environment if the container exported a variable of the same name (`pid`, `sig`).
 *   They are set empty first so that an inherited value is never used as a PID to kill.
 * - `trap` before the program starts: a TERM that arrives at once must not kill the wrapper and
 *   orphan the program (or, as PID 1 without a handler, be dropped by the kernel). A signal that
 *   arrives before `$!` is known is forwarded right after (`[ -z "$kg_sig" ] || kill`): a program
 *   can be running before the wrapper has run its next line (the tests hit that window). What no
 *   sh script can close: a TERM that reaches the forked child before it has reset the inherited
 *   trap and exec'd is lost (measured in the tests' own programs). That window is microseconds at
 *   container start; the kubelet's SIGKILL at the end of the grace period remains the backstop.
 *   INT is forwarded as TERM because POSIX makes an asynchronous list inherit SIGINT *ignored*
 *   (XCU 2.11 "Signals and Error Handling"), and dash/ash mark it hard-ignored, so a forwarded
 *   INT would be dropped by any program that does not install its own handler.
 * - `exec 3<&0` / `<&3 3<&-`: an asynchronous list gets /dev/null as stdin (XCU 2.9.3); fd 3
 *   hands the container's real stdin to the program, and is closed in the program. fd 0 is
 *   always open in a container: runc leaves a nil stdin to Go's os/exec, which opens /dev/null.
 * - the wait loop: `wait` returns 128+signal as soon as a trapped signal arrives, while the program
 *   may still be running; and the shell can reap the program during that interrupted wait, so "is
 *   the pid still alive" (`kill -0`) is not a safe test: measured here, it lost the program's
 *   status (143 instead of its 42) in 18 of 30 tries under dash, and the race test in
 *   test/mutators/job/wrapper.test.ts catches it under dash, busybox and bash alike. Instead the
 *   trap sets `kg_sig`, and `wait` is repeated until one returns with no trap in between: dash,
 *   busybox and bash all keep an exited job's status for a repeated `wait "$kg_pid"` until a new
 *   job is created (none is, in the loop; dash jobs.c frees a waited job only in makejob).
 * - `exit "$kg_rc"`: the program's status: its exit code, or 128+N when signal N killed it.
 *
 * No `$(` and no `$$` anywhere: Kubernetes expands `$(VAR)` and turns `$$` into `$` in `command`
 * before exec (core/v1 Container.command doc), which would corrupt the script.
 */
function scriptBody(endpoints: readonly QuitEndpoint[]): string {
  const lines = [
    SCRIPT_HEADER,
    'quit() {',
    '  if command -v curl >/dev/null 2>&1; then',
    `    curl -fsS --noproxy '*' --max-time 5 -X POST "$2" >/dev/null || echo ` +
      `"${WRAPPER_MARKER}: could not ask the $1 proxy to quit ($2)" >&2`,
    '  elif command -v wget >/dev/null 2>&1; then',
    `    wget -q -Y off -O- --post-data= "$2" >/dev/null || echo "${WRAPPER_MARKER}: ` +
      `could not ask the $1 proxy to quit ($2)" >&2`,
    '  else',
    `    echo "${WRAPPER_MARKER}: neither curl nor wget in the image; ` +
      `the $1 proxy was not asked to quit (${NO_CLIENT_HINT})" >&2`,
    '  fi',
    '}',
    '# forward TERM and INT to the program (INT as TERM: a background program ignores INT)',
    'kg_pid=',
    'kg_sig=',
    `trap 'kg_sig=1; kill -TERM "$kg_pid" 2>/dev/null' TERM INT`,
    'exec 3<&0',
    '"$@" <&3 3<&- &',
    'kg_pid=$!',
    '[ -z "$kg_sig" ] || kill -TERM "$kg_pid"',
    '# a trapped signal ends wait early: wait again until the program has really exited',
    'while :; do',
    '  kg_sig=',
    '  wait "$kg_pid"',
    '  kg_rc=$?',
    '  [ -n "$kg_sig" ] || break',
    'done',
    ...endpoints.map((e) => `quit ${e.mesh} ${e.url}`),
    'exit "$kg_rc"',
  ];
  return lines.join('\n');
}

/**
 * Wraps a container's `command` so the mesh proxies are asked to quit once the program exits.
 *
 * Kubernetes execs `command + args`, so the container's existing `args` follow the original
 * command in `"$@"`; the wrapper never re-parses them. `$(VAR)` references in them are expanded
 * by Kubernetes before sh sees argv, exactly as before wrapping.
 *
 * @param command the container's `command` (non-empty: without one the image ENTRYPOINT runs,
 *   which the manifest does not show, so there is nothing to wrap). An already wrapped command is
 *   unwrapped first, so wrapping twice gives the same result as wrapping once with `endpoints`.
 * @param endpoints the proxies to ask, each called exactly once, in the given order (duplicates
 *   by URL dropped).
 * @returns `['/bin/sh', '-c', SCRIPT, 'kube-graceful-wrap', ...command]`; SCRIPT depends only on
 *   the endpoints.
 * @throws TypeError for an empty command or endpoint list, or an endpoint that is not one of ours;
 *   RangeError for a port outside 1–65535.
 */
export function wrapCommand(
  command: readonly string[],
  endpoints: readonly QuitEndpoint[],
): string[] {
  const original = unwrapCommand(command) ?? command;
  if (original.length === 0) {
    throw new TypeError(
      'cannot wrap an empty command: the image ENTRYPOINT is not known from the manifest',
    );
  }
  for (const arg of original) {
    if (typeof arg !== 'string')
      throw new TypeError(`command elements must be strings, got ${typeof arg}`);
  }
  const unique: QuitEndpoint[] = [];
  for (const endpoint of endpoints) {
    const checked = checkEndpoint(endpoint);
    if (!unique.some((e) => e.url === checked.url)) unique.push(checked);
  }
  if (unique.length === 0) {
    throw new TypeError('wrapping needs at least one quit endpoint');
  }
  return [SHELL, '-c', scriptBody(unique), WRAPPER_MARKER, ...original];
}

/**
 * Recognises a command produced by {@link wrapCommand} (any version: it checks the shell, the
 * marker argument and the script's first line, not the whole script).
 * @returns true when `command` is our wrapper, false otherwise (including `undefined`).
 */
export function isWrapped(command: readonly string[] | null | undefined): boolean {
  return (
    // `command:` with no value is null in the parsed manifest: not wrapped.
    Array.isArray(command) &&
    command.length >= 5 &&
    command[0] === SHELL &&
    command[1] === '-c' &&
    command[3] === WRAPPER_MARKER &&
    ((command[2] as string | undefined)?.split('\n', 1)[0] ?? '') === SCRIPT_HEADER
  );
}

/**
 * The quit URLs a wrapped command calls, read back from the lines {@link scriptBody} writes
 * (`quit MESH URL`, one per endpoint): the writer and the reader of that line live here together.
 * @returns the URLs in order, or none when `command` is not our wrapper.
 */
export function wrappedQuitUrls(command: readonly string[] | null | undefined): string[] {
  if (!command || !isWrapped(command)) return [];
  const lines = new RegExp(`^quit (?:${Object.keys(QUIT_PATH).join('|')}) (\\S+)$`, 'gm');
  return [...(command[2] ?? '').matchAll(lines)].map((m) => m[1]!);
}

/**
 * The original command inside our wrapper, for `explain` and for idempotent re-runs.
 * @returns a copy of the wrapped program's command, or `undefined` when `command` is not wrapped.
 */
export function unwrapCommand(command: readonly string[]): string[] | undefined {
  return isWrapped(command) ? command.slice(4) : undefined;
}
