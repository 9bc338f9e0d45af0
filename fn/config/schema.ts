/**
 * The typed configuration: `apiVersion: kube-graceful.dev/v1alpha1`, `kind: GracefulShutdown`.
 * Defaults target currently supported versions (issue #2: Kubernetes 1.31, Istio 1.26, Linkerd
 * 2.18); each default that shapes a decision is named in the report through `Provenance`.
 */
import * as z from 'zod';
import { LOAD_BALANCER_PROVIDERS } from './providers.ts';
import { normalizeVersion, VERSION_PATTERN } from '../core/versions.ts';

export const CONFIG_API_VERSION = 'kube-graceful.dev/v1alpha1';
export const CONFIG_KIND = 'GracefulShutdown';

/**
 * A mode switch. Config files are read as YAML 1.1 (like Kubernetes), where an unquoted `off` or
 * `on` is a boolean; `mode: off` must still mean "off" rather than fail.
 */
function modeSwitch<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess((value) => (value === false && values.includes('off') ? 'off' : value === true && values.includes('on') ? 'on' : value), z.enum(values));
}

function selectorSchema() {
  return z.strictObject({
    kind: z.string().optional(),
    name: z.string().optional(),
    namespace: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
  });
}

function extraKindSchema() {
  return z.strictObject({
    /** API group, e.g. `argoproj.io`; empty for the core group. */
    group: z.string(),
    kind: z.string(),
    /** Dotted path to the pod template, e.g. `spec.template`. */
    podTemplatePath: z.string().regex(/^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*$/, 'expected a dotted path like spec.template'),
  });
}

/**
 * The settings of a run that has no config, flags or annotations: the schema's defaults, written out
 * so that such a run never builds the schema nor loads zod's parser (issue #9: start-up; about a
 * tenth of a small chart's run). The schema below takes its defaults from here.
 */
export const DEFAULTS = {
  kubernetesVersion: '1.31',
  istioVersion: '1.26',
  linkerdVersion: '2.18',
  sidecarMode: 'auto',
  loadBalancer: {},
  timing: { maxRequestSeconds: 20, bufferSeconds: 5 },
  gateway: { mode: 'env', imageHasShell: false },
  job: { mode: 'auto' },
  app: { mode: 'on', imageHasShell: false, classicDrain: 'exit-on-zero' },
  traefik: { mode: 'on' },
  mesh: { istioInjectedNamespaces: [] as string[], linkerdInjectedNamespaces: [] as string[] },
  include: [] as Selector[],
  exclude: [] as Selector[],
  extraKinds: [] as ExtraKind[],
} as const;

/** Returns a fresh copy of the default settings (callers may change theirs). */
export function defaultSpec(): Spec {
  return structuredClone(DEFAULTS);
}

function buildSpecSchema() {
  // `v1.31.4` is how Kubernetes prints its own version; stored without the `v`.
  const version = z.string().regex(VERSION_PATTERN, 'expected a version like 1.31, 1.31.4 or v1.31.4').transform(normalizeVersion);
  /** Durations are whole seconds; a day is far beyond any real drain and catches unit mistakes (ms). */
  const seconds = z.number().int('expected whole seconds').min(0, 'expected 0 or more seconds').max(86_400, 'expected at most 86400 seconds (one day)');

  return z.strictObject({
    kubernetesVersion: version.default(DEFAULTS.kubernetesVersion),
    istioVersion: version.default(DEFAULTS.istioVersion),
    linkerdVersion: version.default(DEFAULTS.linkerdVersion),
    sidecarMode: z.enum(['auto', 'native', 'classic']).default(DEFAULTS.sidecarMode),
    loadBalancer: z
      .strictObject({
        provider: z.enum(LOAD_BALANCER_PROVIDERS).optional(),
        drainWindowSeconds: seconds.optional(),
      })
      .default({}),
    timing: z
      .strictObject({
        maxRequestSeconds: seconds.default(DEFAULTS.timing.maxRequestSeconds),
        bufferSeconds: seconds.default(DEFAULTS.timing.bufferSeconds),
      })
      .default(DEFAULTS.timing),
    gateway: z
      .strictObject({
        mode: modeSwitch(['env', 'sleep', 'off']).default(DEFAULTS.gateway.mode),
        imageHasShell: z.boolean().default(DEFAULTS.gateway.imageHasShell),
      })
      .default(DEFAULTS.gateway),
    job: z
      .strictObject({
        mode: modeSwitch(['auto', 'native', 'wrap', 'off']).default(DEFAULTS.job.mode),
        mainContainers: z.array(z.string()).optional(),
        /** Whether the main images have /bin/sh for the wrapper; unset: trust the list of images known to have none. */
        imageHasShell: z.boolean().optional(),
        /** Whether the main images have curl or wget for the wrapper's quit call; unset: trust the list of known images. */
        imageHasHttpClient: z.boolean().optional(),
      })
      .default(DEFAULTS.job),
    app: z
      .strictObject({
        mode: modeSwitch(['on', 'off']).default(DEFAULTS.app.mode),
        imageHasShell: z.boolean().default(DEFAULTS.app.imageHasShell),
        classicDrain: z.enum(['exit-on-zero', 'termination-drain']).default(DEFAULTS.app.classicDrain),
        servingContainers: z.array(z.string()).optional(),
      })
      .default(DEFAULTS.app),
    traefik: z
      .strictObject({
        mode: modeSwitch(['on', 'off']).default(DEFAULTS.traefik.mode),
      })
      .default(DEFAULTS.traefik),
    mesh: z
      .strictObject({
        istioInjectedNamespaces: z.array(z.string()).default([]),
        linkerdInjectedNamespaces: z.array(z.string()).default([]),
      })
      .default({ istioInjectedNamespaces: [], linkerdInjectedNamespaces: [] }),
    /** Namespace of resources that name none (e.g. `helm template` without `-n`). */
    namespace: z.string().optional(),
    include: z.array(selectorSchema()).default([]),
    exclude: z.array(selectorSchema()).default([]),
    extraKinds: z.array(extraKindSchema()).default([]),
  });
}

function buildConfigSchema(spec: ReturnType<typeof buildSpecSchema>) {
  return z.strictObject({
    apiVersion: z.literal(CONFIG_API_VERSION),
    kind: z.literal(CONFIG_KIND),
    metadata: z.object({ name: z.string().optional() }).loose().optional(),
    spec: spec.default(() => spec.parse({})),
  });
}

let specSchemaBuilt: ReturnType<typeof buildSpecSchema> | undefined;
let configSchemaBuilt: ReturnType<typeof buildConfigSchema> | undefined;

/** The spec schema, built on first use. */
export function specSchema(): ReturnType<typeof buildSpecSchema> {
  return (specSchemaBuilt ??= buildSpecSchema());
}

/** The whole config document's schema, built on first use. */
export function configSchema(): ReturnType<typeof buildConfigSchema> {
  return (configSchemaBuilt ??= buildConfigSchema(specSchema()));
}

/** The validated settings, defaults filled in. */
export type Spec = z.infer<ReturnType<typeof buildSpecSchema>>;
export type Selector = z.infer<ReturnType<typeof selectorSchema>>;
export type ExtraKind = z.infer<ReturnType<typeof extraKindSchema>>;

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

/** Where a spec field's value came from, in words that read well inside the model's sentences ("W from …"). */
export function sourceText(config: Config, specPath: string, flag: string): string {
  const source = sourceOf(config, specPath);
  return source === 'default' ? `default; set --${flag} to change` : source;
}
