/**
 * Builds the run's Config from, in rising precedence: defaults, a config document (`--config FILE`
 * or the ResourceList's functionConfig), then CLI flags.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Node } from 'yaml';
import type { core } from 'zod/mini';
import { didYouMean } from '../core/didYouMean.ts';
import { KubeGracefulError } from '../core/errors.ts';
import type { ErrorPlace } from '../core/errors.ts';
import { parseOptions } from '../yaml/options.ts';
import { toData } from '../document/manifest.ts';
import { FLAT_KEYS, readFlatValue } from './flatKeys.ts';
import { CONFIG_API_VERSION, CONFIG_KIND, configSchema, defaultSpec } from './schema.ts';
import { keysAt } from './schemaKeys.ts';
import type { Config } from './schema.ts';
import type { SettingOrigin } from '../core/source.ts';

/** A raw config object plus the words that say where it came from. */
export interface ConfigSource {
  readonly data: unknown;
  readonly origin: string;
  /**
   * Where a path of `data` is in the file, for messages (`cfg.yaml:4:22`); the key's place with
   * `key`, else its value's. Absent for a config that is no file (a ResourceList's functionConfig).
   */
  readonly place?: (path: readonly PropertyKey[], key?: boolean) => ErrorPlace;
}

/**
 * Returns the parsed config document of a file's text; throws E_CONFIG on bad YAML. With `file`,
 * messages name its line and column as `file:line:column`.
 */
export function readConfigText(text: string, origin: string, file?: string): ConfigSource {
  const placeAt = (at: { line?: number; column?: number }): ErrorPlace =>
    file !== undefined && at.line !== undefined ? { file, ...at } : { field: origin, ...at };
  const tooDeep = (at: { line?: number; column?: number } = {}) =>
    new KubeGracefulError(
      'E_CONFIG',
      'nesting too deep to read',
      placeAt(at),
      'A config is a few levels deep; check how the file was generated.',
    );
  const counter = new LineCounter();
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(text, { ...parseOptions(), lineCounter: counter });
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
      placeAt(at),
      'Fix the YAML of the config file.',
    );
  }
  const place = (path: readonly PropertyKey[], key = false): ErrorPlace => {
    const offset = offsetOf(doc.contents, path, key);
    if (offset === undefined) return { field: origin };
    const { line, col } = counter.linePos(offset);
    return placeAt({ line, column: col });
  };
  try {
    return { data: toData(doc), origin, ...(file !== undefined ? { place } : {}) };
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
 * Returns the offset of the node at `path` (its key's with `key`), or of the deepest one there is.
 */
function offsetOf(
  root: Node | null,
  path: readonly PropertyKey[],
  key: boolean,
): number | undefined {
  let node = root;
  let offset = root?.range?.[0];
  for (const step of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(step));
      if (!pair) break;
      const keyOffset = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      node = pair.value as Node | null;
      offset = (step === path.at(-1) && key ? keyOffset : node?.range?.[0]) ?? keyOffset;
    } else if (isSeq(node) && typeof step === 'number') {
      node = node.items[step] as Node | null;
      offset = node?.range?.[0] ?? offset;
    } else break;
  }
  return offset;
}

/** Returns where `path` is in the source's file, or the source's name when that is unknown. */
function placeIn(source: ConfigSource, path: readonly PropertyKey[], key = false): ErrorPlace {
  return source.place ? source.place(path, key) : { field: source.origin };
}

/**
 * Returns the Config from an optional config document (typed kind, or a ConfigMap of flat keys)
 * and flag values keyed by flat name. Unknown keys and bad values throw E_CONFIG naming them.
 */
export function loadConfig(
  source: ConfigSource | undefined,
  flags: Readonly<Record<string, string | undefined>> = {},
): Config {
  const provenance = new Map<string, SettingOrigin>();
  let spec: Record<string, unknown> = {};
  if (source && !isEmptyFunctionInput(source.data)) {
    const data = source.data as { kind?: unknown; apiVersion?: unknown; data?: unknown } | null;
    if (data?.kind === 'ConfigMap') {
      const at = (key: string) => placeIn(source, ['data', key], true);
      spec = applyFlat(
        spec,
        flatEntries(data.data, source),
        { origin: source.origin, at },
        provenance,
      );
    } else {
      const typed = parseTyped(data, source);
      spec = typed;
      for (const path of leafPaths(typed))
        provenance.set(path, { kind: 'document', document: source.origin });
    }
  }
  const flagEntries = Object.entries(flags).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  if (flagEntries.length === 0 && provenance.size === 0 && Object.keys(spec).length === 0)
    return { spec: defaultSpec(), provenance };
  spec = applyFlat(spec, flagEntries, { origin: 'flag' }, provenance);
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

function parseTyped(data: unknown, source: ConfigSource): Record<string, unknown> {
  const { origin } = source;
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
  if (!result.success) throw configError(result.error, origin, object, source);
  return (object.spec ?? {}) as Record<string, unknown>;
}

/** `no kind`, or `kind "Foo"`: what a config document has where apiVersion and kind should be. */
function found(field: string, value: unknown): string {
  return value === undefined || value === null
    ? `no ${field}`
    : `${field} ${JSON.stringify(value)}`;
}

function flatEntries(data: unknown, source: ConfigSource): Array<[string, string]> {
  const { origin } = source;
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
        `${key}: got ${got}; ConfigMap data values are strings: quote it`,
        source.place ? placeIn(source, ['data', key]) : { field: `${origin} data.${key}` },
        `Quote the value, e.g. ${key}: ` +
          `"${value === null ? '' : String(value)}" (kpt fn eval … -- ${key}=VALUE always ` +
          `sends text).`,
      );
    }
    return [key, value];
  });
}

/**
 * Returns `spec` with the flat `entries` laid over it, noting each one's origin in `provenance`.
 * `from.origin` is `flag` or the config document's name; `from.at` places an entry's error in
 * that document.
 */
function applyFlat(
  spec: Record<string, unknown>,
  entries: Array<[string, string]>,
  from: { readonly origin: string; readonly at?: (name: string) => ErrorPlace },
  provenance: Map<string, SettingOrigin>,
): Record<string, unknown> {
  const { origin, at = () => ({ field: origin }) } = from;
  const next = structuredClone(spec);
  for (const [name, text] of entries) {
    const key = FLAT_KEYS.find((k) => k.name === name);
    if (!key) {
      throw new KubeGracefulError(
        'E_CONFIG',
        `unknown setting ${JSON.stringify(name)}` +
          didYouMean(
            name,
            FLAT_KEYS.map((k) => k.name),
          ),
        at(name),
        `Known settings: ${FLAT_KEYS.map((k) => k.name).join(', ')}.`,
      );
    }
    const read = readFlatValue(key, text);
    if ('error' in read) throw new KubeGracefulError('E_CONFIG', read.error, at(name));
    let node = next;
    for (const part of key.specPath.slice(0, -1))
      node = (node[part] ??= {}) as Record<string, unknown>;
    node[key.specPath.at(-1)!] = read.value;
    provenance.set(
      key.specPath.join('.'),
      origin === 'flag'
        ? { kind: 'flag', flag: name }
        : { kind: 'document', document: origin, key: name },
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

/**
 * An unquoted version (`kubernetesVersion: 1.31`) is a number to YAML, and `1.30` is 1.3: say to
 * quote it rather than "expected string, received number".
 */
function numberForText(field: string, key: string, value: number): string {
  return (
    `${field}: got the number ${value}; quote it (${key}: "${value}"): unquoted, YAML reads ` +
    'it as a number, and a version such as 1.30 as 1.3'
  );
}

/** One message per problem: field, value, what is allowed. */
function configError(
  error: core.$ZodError,
  origin: string,
  input: unknown,
  source?: ConfigSource,
): KubeGracefulError {
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
    if (issue.code === 'unrecognized_keys') {
      const known = keysAt(configSchema(), issue.path);
      const keys = issue.keys.map((key) => `${key}${didYouMean(key, known)}`);
      return (
        `${field}: unknown key${keys.length > 1 ? 's' : ''} ${keys.join(', ')} ` +
        `(not a ${CONFIG_KIND} field)`
      );
    }
    if (issue.code === 'invalid_type' && issue.expected === 'string' && typeof value === 'number')
      return numberForText(field, String(issue.path.at(-1)), value);
    if (issue.code === 'invalid_value')
      return (
        `${field}: got ${JSON.stringify(value)}; ` +
        `expected one of ${issue.values.map(String).join(', ')}`
      );
    return `${field}: ${issue.message}${got}`;
  });
  // The place of the first problem, in the file when there is one (the list names every one).
  const first = error.issues[0];
  const place =
    source && first
      ? first.code === 'unrecognized_keys'
        ? placeIn(source, [...first.path, first.keys[0]!], true)
        : placeIn(source, first.path)
      : { field: origin };
  return new KubeGracefulError(
    'E_CONFIG',
    `invalid config:\n  ${lines.join('\n  ')}`,
    place,
    'See `kube-graceful --help` and docs/configuration.md for every field and ' +
      'its allowed values.',
  );
}
