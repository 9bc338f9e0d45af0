/**
 * The typed configuration: `apiVersion: kube-graceful.dev/v1alpha1`, `kind: GracefulShutdown`.
 * Defaults target currently supported versions (issue #2: Kubernetes 1.31, Istio 1.26, Linkerd
 * 2.18); each default that shapes a decision is named in the report through `Provenance`.
 */
import * as z from 'zod';
import { LOAD_BALANCER_PROVIDERS } from './providers.ts';

export const CONFIG_API_VERSION = 'kube-graceful.dev/v1alpha1';
export const CONFIG_KIND = 'GracefulShutdown';

const version = z.string().regex(/^\d+\.\d+(?:\.\d+)?$/, 'expected a version like 1.31 or 1.31.2');
/** Durations are whole seconds; a day is far beyond any real drain and catches unit mistakes (ms). */
const seconds = z.number().int('expected whole seconds').min(0, 'expected 0 or more seconds').max(86_400, 'expected at most 86400 seconds (one day)');

/**
 * A mode switch. Config files are read as YAML 1.1 (like Kubernetes), where an unquoted `off` or
 * `on` is a boolean; `mode: off` must still mean "off" rather than fail.
 */
function modeSwitch<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess((value) => (value === false && values.includes('off') ? 'off' : value === true && values.includes('on') ? 'on' : value), z.enum(values));
}

const selector = z.strictObject({
  kind: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
});

const extraKind = z.strictObject({
  /** API group, e.g. `argoproj.io`; empty for the core group. */
  group: z.string(),
  kind: z.string(),
  /** Dotted path to the pod template, e.g. `spec.template`. */
  podTemplatePath: z.string().regex(/^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*$/, 'expected a dotted path like spec.template'),
});

export const specSchema = z.strictObject({
  kubernetesVersion: version.default('1.31'),
  istioVersion: version.default('1.26'),
  linkerdVersion: version.default('2.18'),
  sidecarMode: z.enum(['auto', 'native', 'classic']).default('auto'),
  loadBalancer: z
    .strictObject({
      provider: z.enum(LOAD_BALANCER_PROVIDERS).optional(),
      drainWindowSeconds: seconds.optional(),
    })
    .default({}),
  timing: z
    .strictObject({
      maxRequestSeconds: seconds.default(20),
      bufferSeconds: seconds.default(5),
    })
    .default({ maxRequestSeconds: 20, bufferSeconds: 5 }),
  gateway: z
    .strictObject({
      mode: modeSwitch(['env', 'sleep', 'off']).default('env'),
      imageHasShell: z.boolean().default(false),
    })
    .default({ mode: 'env', imageHasShell: false }),
  job: z
    .strictObject({
      mode: modeSwitch(['auto', 'native', 'wrap', 'off']).default('auto'),
      mainContainers: z.array(z.string()).optional(),
      /** Whether the main images have /bin/sh for the wrapper; unset: trust the list of images known to have none. */
      imageHasShell: z.boolean().optional(),
    })
    .default({ mode: 'auto' }),
  app: z
    .strictObject({
      mode: modeSwitch(['on', 'off']).default('on'),
      imageHasShell: z.boolean().default(false),
      classicDrain: z.enum(['exit-on-zero', 'termination-drain']).default('exit-on-zero'),
      servingContainers: z.array(z.string()).optional(),
    })
    .default({ mode: 'on', imageHasShell: false, classicDrain: 'exit-on-zero' }),
  mesh: z
    .strictObject({
      istioInjectedNamespaces: z.array(z.string()).default([]),
      linkerdInjectedNamespaces: z.array(z.string()).default([]),
    })
    .default({ istioInjectedNamespaces: [], linkerdInjectedNamespaces: [] }),
  /** Namespace of resources that name none (e.g. `helm template` without `-n`). */
  namespace: z.string().optional(),
  include: z.array(selector).default([]),
  exclude: z.array(selector).default([]),
  extraKinds: z.array(extraKind).default([]),
});

export const configSchema = z.strictObject({
  apiVersion: z.literal(CONFIG_API_VERSION),
  kind: z.literal(CONFIG_KIND),
  metadata: z.object({ name: z.string().optional() }).loose().optional(),
  spec: specSchema.default(specSchema.parse({})),
});

/** The validated settings, defaults filled in. */
export type Spec = z.infer<typeof specSchema>;
export type Selector = z.infer<typeof selector>;
export type ExtraKind = z.infer<typeof extraKind>;

/** Where each setting came from: `default`, `config FILE`, `functionConfig`, `flag --x`. Keyed by spec path. */
export type Provenance = ReadonlyMap<string, string>;

/** The configuration one run uses. */
export interface Config {
  readonly spec: Spec;
  readonly provenance: Provenance;
}

/** Returns where a spec field's value came from ("default" when nothing set it). */
export function sourceOf(config: Config, specPath: string): string {
  return config.provenance.get(specPath) ?? 'default';
}
