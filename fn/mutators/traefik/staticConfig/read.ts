/**
 * Where one Traefik container takes its static configuration from, and the entry points it
 * defines there with their life-cycle values. Traefik reads ONE source: a file, else the flags,
 * else the TRAEFIK_* variables (facts.ts STATIC_CONFIG_ORDER).
 */
import type { Container } from '../../../core/kubeObject.ts';
import {
  DEFAULT_CONFIG_DIRECTORY,
  ENV_PREFIX,
  LIFECYCLE_SETTINGS,
  lifecycleSuffix,
} from '../facts.ts';
import type { LifecycleSetting } from '../facts.ts';
import { parseTraefikDurationSeconds } from './duration.ts';
import { lastFlag, parseFlags } from './flags.ts';
import type { Flag } from './flags.ts';

/** A life-cycle value the manifest sets: its text, its seconds (undefined: Traefik cannot read it),
 * where it is. */
export interface LifecycleValue {
  readonly text: string;
  readonly seconds: number | undefined;
  /** Flags: the flag that holds it (the last one with that name). */
  readonly flag?: Flag;
  /** Environment: the variable's name. */
  readonly envName?: string;
}

/** One entry point of the static configuration. */
export interface EntryPoint {
  /** The name as written where its address is set. */
  readonly name: string;
  /** `entryPoints.web` (flags) or `TRAEFIK_ENTRYPOINTS_WEB` (environment), as written. */
  readonly prefix: string;
  readonly address: string;
  /** `:53/udp` is UDP; no suffix or `/tcp` is TCP (`GetProtocol`,
   * pkg/config/static/entrypoints.go@v3.7.9). */
  readonly protocol: 'tcp' | 'udp';
  readonly lifecycle: Partial<Record<LifecycleSetting, LifecycleValue>>;
  /** Flags: index of the last argument that belongs to this entry point (new flags go after it). */
  readonly lastArgIndex?: number;
}

export type StaticConfig =
  | { readonly source: 'file'; readonly evidence: string }
  | {
      readonly source: 'flags';
      readonly flags: readonly Flag[];
      readonly entryPoints: readonly EntryPoint[];
    }
  | { readonly source: 'env'; readonly entryPoints: readonly EntryPoint[] }
  | { readonly source: 'none' };

/** Returns where the container's static configuration comes from, and its entry points. */
export function readStaticConfig(container: Container): StaticConfig {
  const args = Array.isArray(container.args) ? container.args : [];
  const flags = parseFlags(args);
  const file = configFileEvidence(container, flags);
  if (file !== undefined) return { source: 'file', evidence: file };
  if (flags.length > 0) return { source: 'flags', flags, entryPoints: entryPointsFromFlags(flags) };
  const env = (container.env ?? []).filter(
    (e) => typeof e?.name === 'string' && e.name.toUpperCase().startsWith(ENV_PREFIX),
  );
  if (env.length > 0) return { source: 'env', entryPoints: entryPointsFromEnv(env) };
  return { source: 'none' };
}

/**
 * Returns why Traefik will read a file, or undefined: `--configFile` names one, or a volume is
 * mounted where Traefik looks for one by default (/etc/traefik/traefik.{toml,yaml,yml},
 * pkg/cli/loader_file.go@v3.7.9 `loadConfigFiles`). The other default places
 * ($HOME/.config/traefik, ./traefik.*) depend on the image and are not guessed.
 */
function configFileEvidence(container: Container, flags: readonly Flag[]): string | undefined {
  const configFile = lastFlag(flags, 'configfile');
  if (configFile !== undefined) {
    const value = configFile.value === undefined ? '' : `=${configFile.value}`;
    return `args: --${configFile.name}${value}`;
  }
  const mounts =
    (container as { volumeMounts?: Array<{ mountPath?: unknown; name?: unknown }> | null })
      .volumeMounts ?? [];
  for (const mount of mounts) {
    const path = typeof mount?.mountPath === 'string' ? mount.mountPath.replace(/\/+$/, '') : '';
    if (
      path === DEFAULT_CONFIG_DIRECTORY ||
      /^\/etc\/traefik\/traefik\.(toml|yaml|yml)$/.test(path)
    ) {
      return `volumeMounts: volume "${String(mount.name)}" at ${mount.mountPath as string}`;
    }
  }
  return undefined;
}

function entryPointsFromFlags(flags: readonly Flag[]): EntryPoint[] {
  const entryPoints: EntryPoint[] = [];
  for (const flag of flags) {
    const match = /^(entrypoints\.([^.]+))\.address$/i.exec(flag.name);
    if (!match || flag.value === undefined) continue;
    const key = (match[2] ?? '').toLowerCase();
    if (entryPoints.some((ep) => ep.name.toLowerCase() === key)) continue;
    const address = lastFlag(flags, flag.key)?.value ?? flag.value;
    const own = flags.filter((f) => f.key.startsWith(`entrypoints.${key}.`));
    const lifecycle: Partial<Record<LifecycleSetting, LifecycleValue>> = {};
    for (const setting of LIFECYCLE_SETTINGS) {
      const found = lastFlag(flags, `entrypoints.${key}.${lifecycleSuffix(setting)}`.toLowerCase());
      if (found?.value !== undefined)
        lifecycle[setting] = {
          text: found.value,
          seconds: parseTraefikDurationSeconds(found.value),
          flag: found,
        };
    }
    entryPoints.push({
      name: match[2] ?? '',
      prefix: match[1] ?? '',
      address,
      protocol: protocolOf(address),
      lifecycle,
      lastArgIndex: Math.max(...own.map((f) => f.valueIndex ?? f.index)),
    });
  }
  return entryPoints;
}

function entryPointsFromEnv(env: ReadonlyArray<{ name: string; value?: string }>): EntryPoint[] {
  const entryPoints: EntryPoint[] = [];
  for (const variable of env) {
    const match = /^(TRAEFIK_ENTRYPOINTS_(.+))_ADDRESS$/i.exec(variable.name);
    if (!match || typeof variable.value !== 'string') continue;
    const prefix = match[1] ?? '';
    const lifecycle: Partial<Record<LifecycleSetting, LifecycleValue>> = {};
    for (const setting of LIFECYCLE_SETTINGS) {
      const name = `${prefix}_${lifecycleSuffix(setting).replace(/\./g, '_')}`.toUpperCase();
      const found = env.find((e) => e.name.toUpperCase() === name);
      if (found !== undefined) {
        const text = typeof found.value === 'string' ? found.value : '(valueFrom)';
        lifecycle[setting] = {
          text,
          seconds:
            typeof found.value === 'string' ? parseTraefikDurationSeconds(found.value) : undefined,
          envName: found.name,
        };
      }
    }
    entryPoints.push({
      name: match[2] ?? '',
      prefix,
      address: variable.value,
      protocol: protocolOf(variable.value),
      lifecycle,
    });
  }
  return entryPoints;
}

function protocolOf(address: string): 'tcp' | 'udp' {
  const slash = address.indexOf('/');
  return slash !== -1 && address.slice(slash + 1).toLowerCase() === 'udp' ? 'udp' : 'tcp';
}
