/**
 * kube-graceful's container image, for real: localhost/kube-graceful:dev built by podman from the
 * working tree's dist/ (scripts/image/build.sh, on the Node 20 base made from Debian packages by
 * scripts/image/base.sh, which `bash scripts/test-deps.sh` sets up), and the tools started the way
 * their docs say: kustomize through `docker` (a shim that runs podman), kpt with
 * KPT_FN_RUNTIME=podman. Both shims record each call (argv as JSON, one line each) and then run the
 * real podman with the same arguments, so tests assert how the tools start the container and
 * what the container did.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './fixtures.ts';
import { run, writeExecutable } from './integration.ts';
import { requireTool } from './tools.ts';

/**
 * The image by its full name: kpt turns a name without a `/` into gcr.io/kpt-fn/<name>
 * (ResolveToImageForCLI, internal/fnruntime/container.go@v1.0.0-beta.56), so a local image needs
 * `localhost/`.
 */
export const IMAGE = 'localhost/kube-graceful:dev';

let built: Promise<string> | undefined;

/**
 * Builds the image from dist/ as it is now (once per test process; podman's layer cache makes a
 * rebuild of an unchanged dist/ a few hundred milliseconds) and returns its name. Throws with
 * the build's output when it fails: a missing base image says to run scripts/test-deps.sh.
 */
export function builtImage(): Promise<string> {
  built ??= run('bash', [join(ROOT, 'scripts', 'image', 'build.sh')], { timeout: 300_000 }).then(
    (result) => {
      if (result.status !== 0)
        throw new Error(
          `building ${IMAGE} failed (exit ${result.status}); run \`bash ` +
            `scripts/test-deps.sh\` first\n${result.stderr}${result.stdout}`,
        );
      return IMAGE;
    },
  );
  return built;
}

/** The real podman. */
export function podmanPath(): string {
  return requireTool('podman');
}

/** One recorded call of a shim: its arguments. */
export type Call = readonly string[];

/** A folder to put first on PATH, holding a recording shim; `calls()` returns what it was asked. */
export interface Shim {
  readonly dir: string;
  calls(): Call[];
}

/**
 * Writes into `dir` (which should hold nothing else) an executable `name` that records its
 * arguments and runs the real podman with them: `docker` for kustomize, `podman` for kpt.
 *
 * One exception: kpt probes its runtime with `podman version` and kills the probe after 5 s
 * (versionCommandTimeout, internal/fnruntime/container.go@v1.0.0-beta.56); on this machine under
 * load kpt failed with `signal: killed … podman must be installed`. The shim answers the probe
 * with `podman --version` of the same binary, which only prints its version.
 */
export function podmanShim(dir: string, name: 'docker' | 'podman'): Shim {
  const log = join(dir, 'calls.log');
  writeFileSync(log, '');
  const podman = podmanPath();
  // Arguments NUL-separated, one call per line (none of the tools' arguments holds a newline).
  writeExecutable(
    join(dir, name),
    `#!/bin/sh
# ${name} -> podman, recording each call (test/helpers/container.ts)
{ printf '%s\\0' "$@"; printf '\\n'; } >>${shellQuote(log)}
[ "$*" = version ] && exec ${shellQuote(podman)} --version
exec ${shellQuote(podman)} "$@"
`,
  );
  return {
    dir,
    calls: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\0').slice(0, -1)),
  };
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Returns the value of a `run` option (`--flag value` or `--flag=value`), or undefined. */
export function optionValue(call: Call, flag: string): string | undefined {
  for (let i = 0; i < call.length; i++) {
    if (call[i] === flag) return call[i + 1];
    if (call[i]!.startsWith(`${flag}=`)) return call[i]!.slice(flag.length + 1);
  }
  return undefined;
}

/** `podman image inspect` of the image: the parts the tests read. */
export interface ImageConfig {
  readonly User: string;
  readonly Entrypoint: readonly string[];
  readonly Cmd?: readonly string[] | null;
  readonly Env: readonly string[];
}

/** Returns the image's config (user, entrypoint, environment). */
export function imageConfig(image: string): ImageConfig {
  const result = spawnSync(
    podmanPath(),
    ['image', 'inspect', '--format', '{{json .Config}}', image],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`podman image inspect ${image}: ${result.stderr}`);
  return JSON.parse(result.stdout) as ImageConfig;
}
