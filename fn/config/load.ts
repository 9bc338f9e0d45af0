/**
 * Builds the run's Config from, in rising precedence: defaults, a config document (`--config FILE`
 * or the ResourceList's functionConfig), then CLI flags.
 */
import { parseDocument } from 'yaml';
import type { core } from 'zod/mini';
import { KubeGracefulError } from '../core/errors.ts';
import { parseOptions } from '../yaml/options.ts';
import { toData } from '../document/manifest.ts';
import { FLAT_KEYS, readFlatValue } from './flatKeys.ts';
import { CONFIG_API_VERSION, CONFIG_KIND, configSchema, defaultSpec } from './schema.ts';
import type { Config } from './schema.ts';

/** A raw config object plus the words that say where it came from. */
export interface ConfigSource {
  readonly data: unknown;
  readonly origin: string;
}

/** Returns the parsed config document of a file's text; throws E_CONFIG on bad YAML. */
export function readConfigText(text: string, origin: string): ConfigSource {
  const tooDeep = (at: { line?: number; column?: number } = {}) =>
    new KubeGracefulError(
      'E_CONFIG',
      'nesting too deep to read',
      { field: origin, ...at },
      'A config is a few levels deep; check how the file was generated.',
    );
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(text, parseOptions());
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep();
    throw error;
  }
  const problem = doc.errors[0];
  if (problem) {
    const pos = problem.linePos?.[0];
    const at = { line: pos?.line, column: pos?.col };
    const message = problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    if (message.includes('Maximum call stack')) throw tooDeep(at);
    throw new KubeGracefulError(
      'E_CONFIG',
      message,
      { field: origin, ...at },
      'Fix the YAML of the config file.',
    );
  }
  try {
    return { data: toData(doc), origin };
  } catch (error) {
    // Hostile input is an input error, not a crash: toData stops alias bombs ("billion laughs")
    // with a ReferenceError, and very deep nesting overflows the stack.
    if (error instanceof RangeError) throw tooDeep();
    throw new KubeGracefulError(
      'E_ALIAS_BOMB',
      `too many alias expansions (${error instanceof Error ? error.message : String(error)})`,
      { field: origin },
      'Expand the anchors in the config, or remove the aliases.',
    );
  }
}

/**
 * Returns the Config from an optional config document (typed kind, or a ConfigMap of flat keys)
 * and flag values keyed by flat name. Unknown keys and bad values throw E_CONFIG naming them.
 */
export function loadConfig(
  source: ConfigSource | undefined,
  flags: Readonly<Record<string, string | undefined>> = {},
): Config {
  const provenance = new Map<string, string>();
  let spec: Record<string, unknown> = {};
  if (source && !isEmptyFunctionInput(source.data)) {
    const data = source.data as { kind?: unknown; apiVersion?: unknown; data?: unknown } | null;
    if (data?.kind === 'ConfigMap') {
      spec = applyFlat(spec, flatEntries(data.data, source.origin), source.origin, provenance);
    } else {
      const typed = parseTyped(data, source.origin);
      spec = typed;
      for (const path of leafPaths(typed)) provenance.set(path, source.origin);
    }
  }
  const flagEntries = Object.entries(flags).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  if (flagEntries.length === 0 && provenance.size === 0 && Object.keys(spec).length === 0)
    return { spec: defaultSpec(), provenance };
  spec = applyFlat(spec, flagEntries, 'flag', provenance);
  const result = configSchema().safeParse({
    apiVersion: CONFIG_API_VERSION,
    kind: CONFIG_KIND,
    spec,
  });
  if (!result.success) throw configError(result.error, source?.origin ?? 'flags', { spec });
  return { spec: result.data.spec, provenance };
}

/**
 * `kpt fn eval … --` with no key=value sends an empty ConfigMap named function-input: no config.
 */
function isEmptyFunctionInput(data: unknown): boolean {
  if (data === null || data === undefined) return true;
  const object = data as { kind?: unknown; data?: unknown };
  return (
    object.kind === 'ConfigMap' &&
    (object.data === undefined ||
      object.data === null ||
      (typeof object.data === 'object' && Object.keys(object.data).length === 0))
  );
}

function parseTyped(data: unknown, origin: string): Record<string, unknown> {
  const object = data as { apiVersion?: unknown; kind?: unknown; spec?: unknown } | null;
  if (!object || typeof object !== 'object' || Array.isArray(object)) {
    throw new KubeGracefulError(
      'E_CONFIG',
      'the config is not a mapping',
      { field: origin },
      `Write a ${CONFIG_KIND} document (apiVersion: ${CONFIG_API_VERSION}).`,
    );
  }
  if (object.apiVersion !== CONFIG_API_VERSION || object.kind !== CONFIG_KIND) {
    throw new KubeGracefulError(
      'E_CONFIG',
      `unsupported config: ${found('apiVersion', object.apiVersion)} ` +
        `and ${found('kind', object.kind)}`,
      { field: origin },
      `Use apiVersion: ${CONFIG_API_VERSION} with kind: ${CONFIG_KIND}, ` +
        `or a ConfigMap whose data keys are the flag names (e.g. kube-version: "1.31").`,
    );
  }
  const result = configSchema().safeParse(object);
  if (!result.success) throw configError(result.error, origin, object);
  return (object.spec ?? {}) as Record<string, unknown>;
}

/** `no kind`, or `kind "Foo"`: what a config document has where apiVersion and kind should be. */
function found(field: string, value: unknown): string {
  return value === undefined || value === null
    ? `no ${field}`
    : `${field} ${JSON.stringify(value)}`;
}

function flatEntries(data: unknown, origin: string): Array<[string, string]> {
  if (data === undefined || data === null) return [];
  if (typeof data !== 'object' || Array.isArray(data))
    throw new KubeGracefulError('E_CONFIG', 'ConfigMap data is not a mapping', { field: origin });
  return Object.entries(data).map(([key, value]) => {
    // ConfigMap data is map[string]string. An unquoted value has already lost its text: `1.30`
    // reads as the number 1.3 (Kubernetes 1.3), `0644` as 420. Refuse it rather than guess.
    if (typeof value !== 'string') {
      const got = value === null ? 'null' : `the ${typeof value} ${String(value)}`;
      throw new KubeGracefulError(
        'E_CONFIG',
        `${key}: got ${got}; ConfigMap data values are strings`,
        { field: `${origin} data.${key}` },
        `Quote the value, e.g. ${key}: ` +
          `"${value === null ? '' : String(value)}" (kpt fn eval … -- ${key}=VALUE always ` +
          `sends text).`,
      );
    }
    return [key, value];
  });
}

function applyFlat(
  spec: Record<string, unknown>,
  entries: Array<[string, string]>,
  origin: string,
  provenance: Map<string, string>,
): Record<string, unknown> {
  const next = structuredClone(spec);
  for (const [name, text] of entries) {
    const key = FLAT_KEYS.find((k) => k.name === name);
    if (!key) {
      throw new KubeGracefulError(
        'E_CONFIG',
        `unknown setting ${JSON.stringify(name)}`,
        { field: origin },
        `Known settings: ${FLAT_KEYS.map((k) => k.name).join(', ')}.`,
      );
    }
    const read = readFlatValue(key, text);
    if ('error' in read) throw new KubeGracefulError('E_CONFIG', read.error, { field: origin });
    let node = next;
    for (const part of key.specPath.slice(0, -1))
      node = (node[part] ??= {}) as Record<string, unknown>;
    node[key.specPath.at(-1)!] = read.value;
    provenance.set(
      key.specPath.join('.'),
      origin === 'flag' ? `flag --${name}` : `${origin} (${name})`,
    );
  }
  return next;
}

function leafPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return prefix ? [prefix] : [];
  return Object.entries(value).flatMap(([key, child]) =>
    leafPaths(child, prefix ? `${prefix}.${key}` : key),
  );
}

/** One message per problem: field, value, what is allowed. */
function configError(error: core.$ZodError, origin: string, input: unknown): KubeGracefulError {
  const lines = error.issues.map((issue) => {
    const field = issue.path.map(String).join('.') || '(top level)';
    const value = issue.path.reduce<unknown>(
      (node, key) =>
        node && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined,
      input,
    );
    const got =
      value === undefined || issue.code === 'unrecognized_keys'
        ? ''
        : ` (got ${JSON.stringify(value)})`;
    if (issue.code === 'unrecognized_keys')
      return (
        `${field}: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} ` +
        `(not a ${CONFIG_KIND} field)`
      );
    if (issue.code === 'invalid_value')
      return (
        `${field}: got ${JSON.stringify(value)}; ` +
        `expected one of ${issue.values.map(String).join(', ')}`
      );
    return `${field}: ${issue.message}${got}`;
  });
  return new KubeGracefulError(
    'E_CONFIG',
    `invalid config:\n  ${lines.join('\n  ')}`,
    { field: origin },
    'See `kube-graceful --help` and the README section "Configuration" for every field and ' +
      'its allowed values.',
  );
}
