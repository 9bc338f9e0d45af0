/**
 * wrap mode for a sidecar the chart declares (fn/workloads/declaredSidecars.ts): the wrapper can
 * end it only where it has a quit endpoint. The Cloud SQL Auth Proxy v2 has one: with
 * `--quitquitquit` (from v2.1.0) its admin server, on `localhost:--admin-port` (default 9091),
 * takes `POST /quitquitquit` and the proxy exits 0 (cmd/root.go, cmd/errors.go@v2.25.3); the
 * proxy's own Job example for kubelets without native sidecars does exactly this
 * (examples/k8s-sidecar/job_with_shutdown_hook.yaml@v2.25.3). Flags may also come from
 * `CSQL_PROXY_*` environment variables (cmd/root.go@v2.25.3 "Configuration using environment
 * variables").
 */
import type { Container } from '../../core/kubeObject.ts';
import { envOf } from '../../compat/pod.ts';
import { imageTag } from '../../core/versions.ts';
import { CLOUD_SQL_PROXY, reached } from '../../facts/versionGates.ts';
import type { DeclaredSidecar } from '../../workloads/declaredSidecars.ts';
import { CLOUD_SQL_PROXY_V2 } from '../../workloads/declaredSidecars.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedChange } from '../types.ts';
import { cloudSqlProxyQuitEndpoint } from './wrapper.ts';
import { appendArg } from '../shared/containerArgs.ts';
import { lastFlag, proxyWords } from '../../workloads/cloudSqlProxy.ts';
import type { QuitEndpoint } from './wrapper.ts';

const QUIT_FLAG = '--quitquitquit';
const QUIT = CLOUD_SQL_PROXY.quitQuitQuit;
const ADMIN_PORT_FLAG = '--admin-port';
const ADMIN_PORT_ENV = 'CSQL_PROXY_ADMIN_PORT';
const QUIT_ENV = 'CSQL_PROXY_QUITQUITQUIT';
const DEFAULT_ADMIN_PORT = 9091;

/** How the wrapper ends one declared sidecar: its endpoint and the flag it needs. */
export interface SidecarQuit {
  readonly name: string;
  readonly endpoint: QuitEndpoint;
  readonly changes: ProposedChange[];
}

/** Returns how the wrapper can end the sidecar, or why it cannot. */
export function sidecarQuit(
  workload: Workload,
  sidecar: DeclaredSidecar,
): SidecarQuit | { readonly problem: string } {
  const container = workload.containers.find((c) => c.name === sidecar.name);
  if (!container || sidecar.product !== CLOUD_SQL_PROXY_V2)
    return { problem: 'it has no quit endpoint kube-graceful knows' };
  const tag = imageTag(container.image);
  const version = /^v?(\d+\.\d+\.\d+)/.exec(tag)?.[1];
  if (version === undefined)
    return {
      problem:
        `its image tag ${JSON.stringify(tag)} names no version, and ${QUIT_FLAG} exists from ` +
        `v${QUIT.since}`,
    };
  if (!reached(QUIT, version))
    return { problem: `${QUIT_FLAG} exists from v${QUIT.since}, and the image is v${version}` };
  const words = proxyWords(container);
  const port = adminPort(words, container);
  if (port === undefined)
    return { problem: `its admin port (${ADMIN_PORT_FLAG}, ${ADMIN_PORT_ENV}) is not a port` };
  const changes: ProposedChange[] = [];
  if (!hasQuitFlag(words, container)) {
    changes.push(
      appendArg(
        workload,
        container,
        QUIT_FLAG,
        `${QUIT_FLAG} opens POST /quitquitquit on the proxy's admin server ` +
          `(localhost:${port}), which the main containers' wrapper calls when the program ` +
          `exits; the proxy then exits 0 (${QUIT.source}; from v${QUIT.since}, ` +
          `the image is v${version}).`,
      ),
    );
  }
  return { name: sidecar.name, endpoint: cloudSqlProxyQuitEndpoint(port), changes };
}

/** True when the flag is already given (`--quitquitquit`, `=true`) or set in the environment. */
function hasQuitFlag(words: readonly string[], container: Container): boolean {
  if (words.some((w) => w === QUIT_FLAG || w === `${QUIT_FLAG}=true`)) return true;
  return envOf(container, QUIT_ENV) === 'true';
}

/** The admin port: `--admin-port N`, `--admin-port=N`, the environment, or 9091. */
function adminPort(words: readonly string[], container: Container): number | undefined {
  const flag = lastFlag(words, [ADMIN_PORT_FLAG]);
  const text = flag ? flag.value : envOf(container, ADMIN_PORT_ENV);
  if (text === undefined) return DEFAULT_ADMIN_PORT;
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  return port >= 1 && port <= 65535 ? port : undefined;
}

/**
 * The URL the wrapper calls to end this container, when it is the Cloud SQL Auth Proxy v2 and runs
 * with the quit flag (for explain: whether the main containers' wrapper ends it).
 */
export function quitUrlOf(container: Container | undefined, product?: string): string | undefined {
  if (!container || product !== CLOUD_SQL_PROXY_V2) return undefined;
  const words = proxyWords(container);
  const port = adminPort(words, container);
  if (port === undefined || !hasQuitFlag(words, container)) return undefined;
  return cloudSqlProxyQuitEndpoint(port).url;
}
