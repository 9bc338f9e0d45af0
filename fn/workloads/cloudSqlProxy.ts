/**
 * How the Cloud SQL Auth Proxy, run as a regular container beside an app, ends when the pod is
 * deleted: it gets SIGTERM at t = 0 with the app, while the app still serves and queries the
 * database through it. What it does then, by version, from its source:
 * - v2 accepts new connections for `--min-sigterm-delay` (from v2.12.0, cmd/root.go@v2.12.0
 *   "The number of seconds to accept new connections after receiving a TERM signal"), then waits up
 *   to `--max-sigterm-delay` for the open ones and exits at the first check with none open
 *   (internal/proxy/proxy.go@v2.25.3 Client.Close);
 * - v1 waits up to `-term_timeout` and exits at the first check with no open connection
 *   (proxy/proxy/client.go@v1.33.16 Client.Shutdown); 0 by default: it exits at once.
 * Flags may also come from the environment, `CSQL_PROXY_` and the flag's name in capitals with
 * `_` for `-` (cmd/root.go@v2.25.3 "Configuration using environment variables").
 *
 * A native sidecar has none of this to worry about: Kubernetes sends it SIGTERM once the app's
 * containers have exited (KEP-753), the shape of the proxy's own Deployment example from v2.15.0
 * (examples/k8s-sidecar/proxy_with_workload_identity.yaml@v2.15.0).
 */
import type { Container } from '../core/kubeObject.ts';
import { imageTag } from '../core/versions.ts';
import { CLOUD_SQL_PROXY, reached } from '../facts/versionGates.ts';
import { parseGoDurationSeconds } from '../timing/durations.ts';
import { CLOUD_SQL_PROXY_V1, CLOUD_SQL_PROXY_V2, productOf } from './declaredSidecars.ts';

export const MIN_SIGTERM_DELAY_FLAG = '--min-sigterm-delay';
const MIN_SIGTERM_DELAY = CLOUD_SQL_PROXY.minSigtermDelay;

/** The proxy's major version and its image's version, when the tag names one. */
export interface CloudSqlProxy {
  readonly major: 1 | 2;
  /** `X.Y.Z` from the image tag, or undefined for a tag that names no version. */
  readonly version?: string;
}

/** Returns the Cloud SQL Auth Proxy a container runs, or undefined for any other image. */
export function cloudSqlProxyOf(container: Container): CloudSqlProxy | undefined {
  const product = productOf(container.image)?.product;
  if (product !== CLOUD_SQL_PROXY_V1 && product !== CLOUD_SQL_PROXY_V2) return undefined;
  const version = /^v?(\d+\.\d+\.\d+)/.exec(imageTag(container.image))?.[1];
  return { major: product === CLOUD_SQL_PROXY_V1 ? 1 : 2, ...(version ? { version } : {}) };
}

/** True when the image has `--min-sigterm-delay` (v2.12.0 or later). */
export function hasMinSigtermDelay(proxy: CloudSqlProxy): boolean {
  return (
    proxy.major === 2 && proxy.version !== undefined && reached(MIN_SIGTERM_DELAY, proxy.version)
  );
}

/** What a classic proxy does after SIGTERM, each duration with where it was read. */
export interface SigtermBehaviour {
  /** Seconds it still accepts new connections (v2 `--min-sigterm-delay`; 0 otherwise). */
  readonly acceptsFor: DurationSetting;
  /** Seconds it then waits at most for open connections, exiting at the first with none. */
  readonly waitsFor: DurationSetting;
}

/** A duration the proxy reads, whether the container sets it, and in words where it came from. */
interface DurationSetting {
  readonly seconds: number;
  readonly set: boolean;
  readonly source: string;
}

/** Returns what the proxy in `container` does after SIGTERM, as its flags set it. */
export function sigtermBehaviour(container: Container, proxy: CloudSqlProxy): SigtermBehaviour {
  if (proxy.major === 1)
    return {
      acceptsFor: { seconds: 0, set: false, source: 'v1 has no such delay' },
      waitsFor: durationFlag(container, ['-term_timeout', '--term_timeout'], undefined, 'v1'),
    };
  const acceptsFor = hasMinSigtermDelay(proxy)
    ? durationFlag(container, [MIN_SIGTERM_DELAY_FLAG], 'CSQL_PROXY_MIN_SIGTERM_DELAY', 'v2')
    : {
        seconds: 0,
        set: false,
        source:
          `${MIN_SIGTERM_DELAY_FLAG} exists from v${MIN_SIGTERM_DELAY.since} ` +
          `(${MIN_SIGTERM_DELAY.source})`,
      };
  return {
    acceptsFor,
    waitsFor: durationFlag(
      container,
      ['--max-sigterm-delay'],
      'CSQL_PROXY_MAX_SIGTERM_DELAY',
      'v2',
    ),
  };
}

/** The words the proxy's process is given: its command, then its args. */
export function proxyWords(container: Container): string[] {
  return [...(container.command ?? []), ...(container.args ?? [])].map(String);
}

/**
 * Returns the last of `flags` among the proxy's words and its value (`--flag=v`, or the next word
 * after `--flag`: undefined when there is none), as Go's flag package and pflag keep the last.
 */
export function lastFlag(
  words: readonly string[],
  flags: readonly string[],
): { readonly flag: string; readonly value: string | undefined } | undefined {
  let found: { flag: string; value: string | undefined } | undefined;
  words.forEach((word, i) => {
    for (const flag of flags) {
      if (word === flag) found = { flag, value: words[i + 1] };
      else if (word.startsWith(`${flag}=`)) found = { flag, value: word.slice(flag.length + 1) };
    }
  });
  return found;
}

/**
 * Reads a Go duration flag (`--flag=10s` or `--flag 10s`; the last one wins, as Go's flag package
 * and pflag keep it), else its environment variable, else 0.
 */
function durationFlag(
  container: Container,
  flags: readonly string[],
  env: string | undefined,
  major: string,
): DurationSetting {
  const found = lastFlag(proxyWords(container), flags);
  const fromEnv = env === undefined ? undefined : container.env?.find((e) => e.name === env)?.value;
  const text = found?.value ?? fromEnv;
  const name = found?.flag ?? (fromEnv !== undefined ? env! : flags[0]!);
  if (text === undefined)
    return { seconds: 0, set: false, source: `${name} not set, ${major} default 0` };
  const seconds = parseGoDurationSeconds(text);
  return seconds === undefined || seconds < 0
    ? { seconds: 0, set: true, source: `${name} ${JSON.stringify(text)} is not a duration` }
    : { seconds, set: true, source: `${name} ${text}` };
}
