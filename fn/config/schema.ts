/**
 * The typed configuration: `apiVersion: kube-graceful.dev/v1alpha1`, `kind: GracefulShutdown`.
 * Defaults target currently supported versions (issue #2: Kubernetes 1.31, Istio 1.26, Linkerd
 * 2.18); each default that shapes a decision is named in the report through `Provenance`.
 */
import * as z from 'zod/mini';
import { useEnglishMessages } from './zodMessages.ts';
import { SLICES } from './slices.ts';
import { seconds } from './kit/fields.ts';
import { LOAD_BALANCER_PROVIDERS } from './providers.ts';
import { NODE_SHUTDOWN_PRESET_NAMES } from '../timing/nodeShutdown.ts';
import { normalizeVersion, VERSION_PATTERN } from '../core/versions.ts';
import { DEFAULT_BUFFER_SECONDS, DEFAULT_MAX_REQUEST_SECONDS } from '../timing/model.ts';
import { DEFAULT_ORIGIN, originText, sourceText } from '../core/source.ts';
import type { SettingOrigin, Source } from '../core/source.ts';

export const CONFIG_API_VERSION = 'kube-graceful.dev/v1alpha1';
export const CONFIG_KIND = 'GracefulShutdown';

function selectorSchema() {
  return z.strictObject({
    kind: z.optional(z.string()),
    name: z.optional(z.string()),
    namespace: z.optional(z.string()),
    labels: z.optional(z.record(z.string(), z.string())),
  });
}

function extraKindSchema() {
  return z.strictObject({
    /** API group, e.g. `argoproj.io`; empty for the core group. */
    group: z.string(),
    kind: z.string(),
    /** Dotted path to the pod template, e.g. `spec.template`. */
    podTemplatePath: z
      .string()
      .check(
        z.regex(/^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*$/, 'expected a dotted path like spec.template'),
      ),
  });
}

type Slice = (typeof SLICES)[number];
/** `spec.<key>` of every registered mutator's slice: its schema, and its defaults. */
type SliceSchemas = { [S in Slice as S['key']]: ReturnType<S['schema']> };
type SliceDefaults = { [S in Slice as S['key']]: S['defaults'] };

/** The mutators' defaults, keyed by their spec key, in the registry's order. */
function sliceDefaults(): SliceDefaults {
  return Object.fromEntries(SLICES.map((slice) => [slice.key, slice.defaults])) as SliceDefaults;
}

/**
 * The settings of a run that has no config, flags or annotations, as data: a run without them never
 * builds the schema nor loads zod's parser (issue #9: start-up; about a tenth of a small chart's
 * run). Each value is written once: here for the run's own settings, in each mutator's settings
 * slice for its own, and the schema below takes its `.default()`s from these objects. The compiler
 * checks that every defaulted field is here (`defaultSpec(): Spec`), and
 * test/config/defaults.test.ts that the schema fills in exactly these.
 */
const DEFAULTS = {
  kubernetesVersion: '1.31',
  istioVersion: '1.26',
  linkerdVersion: '2.18',
  sidecarMode: 'auto',
  loadBalancer: {},
  timing: { maxRequestSeconds: DEFAULT_MAX_REQUEST_SECONDS, bufferSeconds: DEFAULT_BUFFER_SECONDS },
  ...sliceDefaults(),
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
  const version = () =>
    z.pipe(
      z.string().check(z.regex(VERSION_PATTERN, 'expected a version like 1.31, 1.31.4 or v1.31.4')),
      z.transform(normalizeVersion),
    );
  // Object and list defaults are functions: each parse gets its own copy to change.
  const fresh =
    <T>(value: T) =>
    () =>
      structuredClone(value);

  return z.strictObject({
    kubernetesVersion: z._default(version(), DEFAULTS.kubernetesVersion),
    istioVersion: z._default(version(), DEFAULTS.istioVersion),
    linkerdVersion: z._default(version(), DEFAULTS.linkerdVersion),
    sidecarMode: z._default(z.enum(['auto', 'native', 'classic']), DEFAULTS.sidecarMode),
    loadBalancer: z._default(
      z.strictObject({
        provider: z.optional(z.enum(LOAD_BALANCER_PROVIDERS)),
        drainWindowSeconds: z.optional(seconds()),
      }),
      fresh(DEFAULTS.loadBalancer),
    ),
    timing: z._default(
      z.strictObject({
        maxRequestSeconds: z._default(seconds(), DEFAULTS.timing.maxRequestSeconds),
        bufferSeconds: z._default(seconds(), DEFAULTS.timing.bufferSeconds),
        nodeShutdownBudgetSeconds: z.optional(seconds()),
        nodeShutdownPreset: z.optional(z.enum(NODE_SHUTDOWN_PRESET_NAMES)),
      }),
      DEFAULTS.timing,
    ),
    ...(Object.fromEntries(SLICES.map((slice) => [slice.key, slice.schema()])) as SliceSchemas),
    mesh: z._default(
      z.strictObject({
        istioInjectedNamespaces: z._default(
          z.array(z.string()),
          fresh(DEFAULTS.mesh.istioInjectedNamespaces),
        ),
        linkerdInjectedNamespaces: z._default(
          z.array(z.string()),
          fresh(DEFAULTS.mesh.linkerdInjectedNamespaces),
        ),
      }),
      fresh(DEFAULTS.mesh),
    ),
    /** Namespace of resources that name none (e.g. `helm template` without `-n`). */
    namespace: z.optional(z.string()),
    include: z._default(z.array(selectorSchema()), fresh(DEFAULTS.include)),
    exclude: z._default(z.array(selectorSchema()), fresh(DEFAULTS.exclude)),
    extraKinds: z._default(z.array(extraKindSchema()), fresh(DEFAULTS.extraKinds)),
  });
}

function buildConfigSchema(spec: ReturnType<typeof buildSpecSchema>) {
  return z.strictObject({
    apiVersion: z.literal(CONFIG_API_VERSION),
    kind: z.literal(CONFIG_KIND),
    metadata: z.optional(z.looseObject({ name: z.optional(z.string()) })),
    spec: z._default(spec, () => spec.parse({})),
  });
}

let specSchemaBuilt: ReturnType<typeof buildSpecSchema> | undefined;
let configSchemaBuilt: ReturnType<typeof buildConfigSchema> | undefined;

/** The spec schema, built on first use. */
export function specSchema(): ReturnType<typeof buildSpecSchema> {
  useEnglishMessages();
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

/** Where each setting came from (a flag, a config document, an annotation), keyed by spec path. */
type Provenance = ReadonlyMap<string, SettingOrigin>;

/** The configuration one run uses. */
export interface Config {
  readonly spec: Spec;
  readonly provenance: Provenance;
}

/** Returns each set field's origin in words, keyed by spec path: the reports' `sources`. */
export function provenanceText(config: Config): Record<string, string> {
  return Object.fromEntries(
    [...config.provenance].map(([path, origin]) => [path, originText(origin)]),
  );
}

/** Returns where a spec field's value came from (the default when nothing set it). */
export function originOf(config: Config, specPath: string): SettingOrigin {
  return config.provenance.get(specPath) ?? DEFAULT_ORIGIN;
}

/** Returns where a spec field's value came from, in words ("default", "flag --x", …). */
export function sourceOf(config: Config, specPath: string): string {
  return originText(originOf(config, specPath));
}

/** Returns a spec field's source: where it was set, and the flag that sets it. */
export function settingSource(config: Config, specPath: string, flag: string): Source {
  return { kind: 'setting', origin: originOf(config, specPath), flag };
}

/**
 * Where a spec field's value came from, in words that read well inside the model's sentences ("W
 * from …").
 */
export function settingText(config: Config, specPath: string, flag: string): string {
  return sourceText(settingSource(config, specPath, flag));
}
