/**
 * How kube-graceful reads and writes YAML: the way Kubernetes' go-yaml reads manifests.
 *
 * YAML 1.1 keeps `defaultMode: 0644` octal and makes new strings such as `yes`/`off` come out
 * quoted (CONTRACTS.md, "YAML handling"). The 1.1 timestamp, omap, pairs, set and sexagesimal
 * tags are dropped so such values keep their text instead of turning into dates or numbers.
 */
import type { CreateNodeOptions, DocumentOptions, ParseOptions, SchemaOptions, ToStringOptions, ToJSOptions } from 'yaml';

/** Tags of the yaml-1.1 schema that would rewrite values Kubernetes reads as plain strings. */
const DROPPED_TAGS = new Set([
  'tag:yaml.org,2002:timestamp',
  'tag:yaml.org,2002:omap',
  'tag:yaml.org,2002:pairs',
  'tag:yaml.org,2002:set',
]);

/** Limits that keep hostile input (alias bombs, absurd nesting) bounded in time and memory. */
export const MAX_ALIAS_COUNT = 100;
export const MAX_NESTING_DEPTH = 500;

/** Returns the options every `parseDocument` call in kube-graceful uses. */
export function parseOptions(): ParseOptions & DocumentOptions & SchemaOptions {
  return {
    version: '1.1',
    intAsBigInt: true,
    uniqueKeys: true,
    prettyErrors: true, // errors carry linePos: line and column for messages
    keepSourceTokens: false,
    // Written strings are quoted wherever a full YAML 1.1 reader (PyYAML, ruamel, yaml-1.1 schema)
    // would take them for something else: `1:30` (sexagesimal 90), `2001-01-01` (a date) are
    // strings to Kubernetes but not to every tool in a pipeline. Only changes how new values are
    // printed (and adds parse warnings, which are ignored). Issue #8, test/reliability/.
    compat: 'yaml-1.1',
    customTags: (tags) =>
      tags.filter((tag) => {
        const id = typeof tag === 'string' ? tag : tag.tag;
        // Sexagesimal ints/floats (`1:30` → 90) share the int/float tags with a `format: 'TIME'`.
        if (typeof tag === 'object' && 'format' in tag && tag.format === 'TIME') return false;
        return !DROPPED_TAGS.has(id);
      }),
  };
}

/** Returns the options for turning a parsed document into plain data. */
export function toJsOptions(): ToJSOptions {
  return { maxAliasCount: MAX_ALIAS_COUNT };
}

/** Returns the options for everything kube-graceful writes as YAML text. */
export function stringifyOptions(indentSeq = true): ToStringOptions & SchemaOptions & DocumentOptions & CreateNodeOptions {
  // No anchors/aliases for objects used twice (e.g. one resourceRef in many KRM results): kpt's
  // kyaml rejects an alias where it expects a mapping.
  return { ...parseOptions(), lineWidth: 0, minContentWidth: 0, flowCollectionPadding: false, indentSeq, aliasDuplicateObjects: false };
}
