/**
 * The config's own documentation, generated from the schema that validates it (issue #28 item 7):
 * a JSON Schema for editors (docs/config.schema.json, shipped in the npm package) and a field
 * reference (docs/configuration.md). Nothing here is written by hand: the fields, types, enums and
 * ranges are zod's, the defaults `defaultSpec()`'s, the flat names and their help fn/config's flat
 * keys. scripts/config-docs.ts writes both; test/config/reference.test.ts fails when either is
 * stale.
 */
import * as z from 'zod/mini';
import { CONFIG_API_VERSION, CONFIG_KIND, configSchema, defaultSpec } from './schema.ts';
import { FLAT_KEYS } from './flatKeys.ts';
import { VERSION_PATTERN } from '../core/versions.ts';

/** A JSON Schema node, as far as the reference reads it. */
interface Node {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly properties?: Readonly<Record<string, Node>>;
  readonly items?: Node;
  readonly anyOf?: readonly Node[];
}

/**
 * Returns the JSON Schema of a `GracefulShutdown` document. Draft-07: the draft
 * yaml-language-server (VS Code's YAML extension, Neovim's yamlls) has supported longest. The
 * schema describes what a user writes (`io: 'input'`): a version is text that may start with `v`,
 * and every field with a default may be left out.
 */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configSchema(), {
    io: 'input',
    target: 'draft-7',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  const { $schema, ...rest } = schema;
  return {
    $schema,
    $id: 'https://kube-graceful.dev/schemas/gracefulshutdown-v1alpha1.json',
    title: `${CONFIG_KIND} (${CONFIG_API_VERSION})`,
    description:
      "kube-graceful's configuration: a file given with --config, or a kpt or kustomize " +
      'functionConfig. Field reference: docs/configuration.md.',
    ...rest,
  };
}

/** One leaf field of `spec`. */
interface Field {
  readonly path: readonly string[];
  readonly node: Node;
}

function leaves(node: Node, path: readonly string[]): Field[] {
  if (node.properties && !node.items)
    return Object.entries(node.properties).flatMap(([name, child]) =>
      leaves(child, [...path, name]),
    );
  return [{ path, node }];
}

function typeOf(node: Node): string {
  if (node.enum) return 'one of';
  if (node.type === 'array') return `list of ${node.items ? typeOf(node.items) : 'values'}`;
  if (node.anyOf) return node.anyOf.map(typeOf).join(' or ');
  if (node.type === 'object') return 'map';
  return Array.isArray(node.type) ? node.type.join(' or ') : String(node.type ?? 'any');
}

function allowed(node: Node): string {
  if (node.enum) return node.enum.map((v) => `\`${String(v)}\``).join(', ');
  if (node.pattern === VERSION_PATTERN.source) return 'a version: `1.31`, `1.31.4`, `v1.31.4`';
  if (node.minimum !== undefined && node.maximum !== undefined)
    return `${node.minimum}–${node.maximum}`;
  if (node.items?.properties)
    return `entries with ${Object.keys(node.items.properties)
      .map((k) => `\`${k}\``)
      .join(', ')}`;
  return '';
}

function defaultOf(path: readonly string[]): string {
  let value: unknown = defaultSpec();
  for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
  if (value === undefined) return '';
  if (Array.isArray(value) && value.length === 0) return 'none';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/** Markdown table cells: no pipe or line break of their own. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** Returns docs/configuration.md: every `spec` field with its flat name, default and values. */
/** The fields table's heading rows, then one row per field of `spec` under `under`. */
function fieldsTable(under: readonly string[] = []): string[] {
  const schema = configJsonSchema() as { properties: { spec: Node } };
  const rows = leaves(schema.properties.spec, [])
    .filter(({ path }) => under.every((key, i) => path[i] === key))
    .map(({ path, node }) => {
      const flat = FLAT_KEYS.find((k) => k.specPath.join('.') === path.join('.'));
      return (
        `| \`spec.${path.join('.')}\` | ${flat ? `\`${flat.name}\`` : ''} | ${typeOf(node)} | ` +
        `${cell(allowed(node))} | ${cell(defaultOf(path))} | ${cell(flat?.help ?? '')} |`
      );
    });
  return [
    '| field | flat name | type | allowed | default | meaning |',
    '|---|---|---|---|---|---|',
    ...rows,
  ];
}

/**
 * Returns the settings table of one mutator's slice (`spec.<key>`), as its doc page's Settings
 * section shows it (scripts/mutator-docs.ts).
 */
export function sliceSettingsMarkdown(key: string): string {
  return fieldsTable([key]).join('\n');
}

export function configReferenceMarkdown(): string {
  return [
    '# Configuration reference',
    '',
    '<!-- Generated by `npm run docs:config` from fn/config/schema.ts and fn/config/flatKeys.ts;',
    '     test/config/reference.test.ts fails when it is stale. Do not edit by hand. -->',
    '',
    `A \`${CONFIG_KIND}\` document (\`apiVersion: ${CONFIG_API_VERSION}\`) is read from`,
    '`--config FILE`, or as the `functionConfig` of a kpt or kustomize function. Every field is',
    'optional. A field with a flat name is also a CLI flag (`--NAME`), a key of a ConfigMap',
    'functionConfig (`kpt fn eval … -- NAME=VALUE`) and a per-workload annotation',
    '(`kube-graceful.dev/NAME`); where several set it, the annotation wins over the flag, and the',
    'flag over the file.',
    '',
    '## Editor support',
    '',
    '[config.schema.json](config.schema.json) is its JSON Schema (draft-07), shipped in the npm',
    "package. With the YAML language server (VS Code's YAML extension, yamlls), the first line",
    'of a config file points at it, from a clone or from an installed package:',
    '',
    '```yaml',
    '# yaml-language-server: $schema=./node_modules/kube-graceful/docs/config.schema.json',
    `apiVersion: ${CONFIG_API_VERSION}`,
    `kind: ${CONFIG_KIND}`,
    'spec:',
    '  kubernetesVersion: "1.31"',
    '```',
    '',
    'A field the schema does not know, a value outside its enum or range, and a version written',
    'as a number (`1.31` unquoted) are marked there as kube-graceful would refuse them.',
    '',
    '## Fields',
    '',
    ...fieldsTable(),
    '',
  ].join('\n');
}
