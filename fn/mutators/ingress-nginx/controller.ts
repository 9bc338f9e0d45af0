/**
 * Recognises the ingress-nginx controller and reads what its shutdown depends on (issue #26 item
 * 3). One home for these facts: the ingress-nginx-drain mutator plans these pods, app-graceful
 * leaves them alone (a preStop sleep in front of `/wait-shutdown` would replace the chart's
 * hook), and its compatibility rows (fn/mutators/ingress-nginx/compatibility.ts) cite the same
 * sources.
 *
 * How the controller stops, read at kubernetes/ingress-nginx controller-v1.15.1 (chart 4.15.1):
 * - the chart's preStop `exec /wait-shutdown` (charts/ingress-nginx/values.yaml@helm-chart-4.15.1
 *   `controller.lifecycle`) sends SIGTERM to the controller at once and returns when nginx has
 *   exited (cmd/waitshutdown/main.go);
 * - on SIGTERM the controller fails /healthz at once (internal/ingress/controller/checker.go
 *   `isShuttingDown`), keeps nginx serving for `--shutdown-grace-period` seconds (default 0), then
 *   runs `nginx -s quit`, which closes the listeners and lets the workers finish the requests in
 *   flight, up to the ConfigMap's `worker-shutdown-timeout` (default 240s)
 *   (internal/ingress/controller/nginx.go `Stop`; internal/ingress/controller/config/config.go);
 * - when nginx is gone it waits `--post-shutdown-grace-period` (default 10) and exits
 *   (pkg/util/process/sigterm.go `HandleSigterm`; both flags in pkg/flags/flags.go, a pflag set
 *   with ExitOnError: an unknown flag stops the controller from starting). Both flags exist since
 *   controller-v1.0.0 (cmd/nginx/flags.go@controller-v1.0.0).
 */
import type { Container, PodSpec, PodTemplate } from '../../core/kubeObject.ts';
import { imageTag } from '../../core/versions.ts';
import type { VersionGate } from '../../facts/versionGates.ts';

/** The controller's binary, the first argument of the chart's container (`args`). */
const CONTROLLER_BINARY = '/nginx-ingress-controller';
/** The chart's preStop command (charts/ingress-nginx/values.yaml@helm-chart-4.15.1). */
const WAIT_SHUTDOWN = '/wait-shutdown';
/** `--shutdown-grace-period`: seconds nginx keeps serving after SIGTERM (default 0). */
export const SHUTDOWN_GRACE_FLAG = 'shutdown-grace-period';
export const SHUTDOWN_GRACE_DEFAULT_SECONDS = 0;
/** `--post-shutdown-grace-period`: seconds the controller waits after nginx exits (default 10). */
export const POST_SHUTDOWN_GRACE_FLAG = 'post-shutdown-grace-period';
export const POST_SHUTDOWN_GRACE_DEFAULT_SECONDS = 10;
/** The ConfigMap's `worker-shutdown-timeout` default: how long nginx workers finish requests. */
export const WORKER_SHUTDOWN_TIMEOUT_DEFAULT_SECONDS = 240;
/** The first controller release with both flags. */
export const SHUTDOWN_FLAGS = {
  product: 'ingress-nginx',
  since: '1.0.0',
  source: 'kubernetes/ingress-nginx cmd/nginx/flags.go@controller-v1.0.0',
} as const satisfies VersionGate;

/**
 * Returns true when the container runs the controller binary: its `args` or `command` name
 * `/nginx-ingress-controller` (the chart's `args[0]`; images of forks and mirrors keep the binary).
 * Never by name or label: the chart lets users rename everything.
 */
function runsControllerBinary(container: Container): boolean {
  const words = [...(container.command ?? []), ...(container.args ?? [])];
  return words.some((w) => typeof w === 'string' && w.trim() === CONTROLLER_BINARY);
}

/** Returns the pod's app containers that run the ingress-nginx controller. */
export function ingressNginxContainers(spec: PodSpec | null | undefined): Container[] {
  return (spec?.containers ?? []).filter(runsControllerBinary);
}

/** Returns true when an app container of the pod runs the ingress-nginx controller. */
export function runsIngressNginx(template: PodTemplate): boolean {
  return ingressNginxContainers(template.spec).length > 0;
}

/** Returns true when the preStop is the chart's `exec /wait-shutdown`. */
export function isWaitShutdown(preStop: unknown): boolean {
  if (typeof preStop !== 'object' || preStop === null) return false;
  const exec = (preStop as Record<string, unknown>)['exec'];
  if (typeof exec !== 'object' || exec === null) return false;
  const command = (exec as Record<string, unknown>)['command'];
  return (
    Array.isArray(command) &&
    command.length === 1 &&
    typeof command[0] === 'string' &&
    command[0].trim() === WAIT_SHUTDOWN
  );
}

/** One integer flag as written: its value, and where it is in `args`. */
export interface IntFlag {
  /** The value as pflag reads it, or undefined when it is not a whole number. */
  readonly seconds: number | undefined;
  readonly text: string;
  /** The index of the item holding the value (`--x=5`: the flag's own; `--x 5`: the next). */
  readonly valueIndex: number;
  /** True when the value shares its item with the flag name (`--x=5`). */
  readonly inline: boolean;
}

/**
 * Returns the last occurrence of `--name` in `args` (pflag keeps the last), or undefined. pflag
 * accepts `--name=value` and `--name value`; a single dash is a shorthand, not this flag.
 */
export function readIntFlag(container: Container, name: string): IntFlag | undefined {
  const args = container.args ?? [];
  let found: IntFlag | undefined;
  for (let i = 0; i < args.length; i++) {
    const item = args[i];
    if (typeof item !== 'string') continue;
    if (item === '--') break;
    if (item.startsWith(`--${name}=`)) {
      const text = item.slice(name.length + 3);
      found = { seconds: wholeSeconds(text), text, valueIndex: i, inline: true };
    } else if (item === `--${name}` && i + 1 < args.length) {
      const text = String(args[i + 1]);
      found = { seconds: wholeSeconds(text), text, valueIndex: i + 1, inline: false };
      i++;
    }
  }
  return found;
}

function wholeSeconds(text: string): number | undefined {
  return /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/**
 * Returns the controller version the image tag names (`v1.15.1`, `v1.15.1@sha256:…`), or undefined
 * for a tag that names none (a digest only, `latest`, a fork's own scheme).
 */
export function controllerVersion(container: Container): string | undefined {
  return /^v?(\d+\.\d+\.\d+)/.exec(imageTag(container.image))?.[1];
}
