/**
 * How kube-graceful reads and writes YAML: the way Kubernetes' go-yaml reads manifests.
 *
 * YAML 1.1 keeps `defaultMode: 0644` octal and makes new strings such as `yes`/`off` come out
 * quoted, as Kubernetes' go-yaml reads and writes them (gopkg.in/yaml.v2@v2.4.0 resolve.go). The
 * 1.1 timestamp, omap, pairs, set and sexagesimal tags are dropped so such values keep their text
 * instead of turning into dates or numbers.
 */
import type {
  CreateNodeOptions,
  DocumentOptions,
  ParseOptions,
  ScalarTag,
  SchemaOptions,
  Tags,
  ToStringOptions,
  ToJSOptions,
} from 'yaml';
import { withEscapedStrings } from './escapedStrings.ts';

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

/** The last schema tags customTags was given, and what it made of them. */
let lastTags: { readonly given: Tags; readonly made: Tags } | undefined;

/**
 * The YAML 1.1 tags kube-graceful reads with: the yaml-1.1 schema less the dropped ones. yaml
 * calls this for every document with a copy of the same schema tags (getTags in
 * yaml/dist/schema/tags.js@2.9.x, which then copies what it returns): the list is made once and
 * reused while the tags given are the same objects (issue #16: once per document was 1.5% of a
 * dense stream's run).
 */
function customTags(tags: Tags): Tags {
  if (lastTags?.given.length === tags.length && lastTags.given.every((tag, i) => tag === tags[i]))
    return lastTags.made;
  const made = makeTags(tags);
  lastTags = { given: tags, made };
  return made;
}

function makeTags(tags: Tags): Tags {
  // The string tag writes control characters as escapes (escapedStrings.ts): every string
  // kube-graceful writes, through a splice or a document printed whole, is written with it.
  return withEscapedStrings(tags)
    .filter((tag) => {
      const id = typeof tag === 'string' ? tag : tag.tag;
      // Sexagesimal ints/floats (`1:30` → 90) share the int/float tags with a `format: 'TIME'`.
      if (typeof tag === 'object' && 'format' in tag && tag.format === 'TIME') return false;
      return !DROPPED_TAGS.has(id);
    })
    .map((tag) =>
      typeof tag === 'object' && tag.tag === INT_TAG && !('collection' in tag && tag.collection)
        ? // yaml declares ScalarTag.resolve as a method, but its int tags' resolve are arrow
          // functions that never read `this` (yaml src/schema/yaml-1.1/int.ts@v2.9.0): calling
          // it unbound is safe.
          // eslint-disable-next-line @typescript-eslint/unbound-method
          { ...tag, resolve: safeIntResolve(tag.resolve) }
        : tag,
    );
}

const INT_TAG = 'tag:yaml.org,2002:int';

/**
 * Ints are read as bigint (`intAsBigInt`) so that huge ones keep every digit through a tree edit;
 * those a number holds exactly become numbers at once, which is what mutators compare and write
 * (cheaper than a pass over the data after parsing, issue #9).
 */
function safeIntResolve(resolve: ScalarTag['resolve']): ScalarTag['resolve'] {
  return (...args) => {
    const value = resolve(...args);
    return typeof value === 'bigint' && value >= MIN_SAFE && value <= MAX_SAFE
      ? Number(value)
      : value;
  };
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Returns the options for reading a document (and for editing its text: splices print their new
 * values with stringifyOptions). No `compat` schema here: it would test every scalar a second time
 * against all yaml-1.1 tags only to warn, about a fifth of the time a parse takes (issue #9).
 */
export function parseOptions(): ParseOptions & DocumentOptions & SchemaOptions {
  return {
    version: '1.1',
    intAsBigInt: true,
    uniqueKeys: true,
    prettyErrors: true, // errors carry linePos: line and column for messages
    // The library's warnings (e.g. "Keys with collection values will be stringified", for a valid
    // complex key `? [a, b]`) would go to stderr through process.emitWarning (yaml src/log.ts
    // `warn`): our messages are our own. Errors still come back in doc.errors.
    logLevel: 'error',
    keepSourceTokens: false,
    customTags,
  };
}

/**
 * Returns the options for a document that is edited as a tree and printed back whole. Written
 * strings are quoted wherever a full YAML 1.1 reader (PyYAML, ruamel, yaml-1.1 schema) would take
 * them for something else: `1:30` (sexagesimal 90), `2001-01-01` (a date) are strings to
 * Kubernetes but not to every tool in a pipeline. Issue #8, test/reliability/.
 */
export function printableParseOptions(): ParseOptions & DocumentOptions & SchemaOptions {
  return { ...parseOptions(), compat: 'yaml-1.1' };
}

/** Returns the options for turning a parsed document into plain data. */
export function toJsOptions(): ToJSOptions {
  return { maxAliasCount: MAX_ALIAS_COUNT };
}

/** Returns the options for everything kube-graceful writes as YAML text. */
export function stringifyOptions(
  indentSeq = true,
): ToStringOptions & SchemaOptions & DocumentOptions & CreateNodeOptions {
  // No anchors/aliases for objects used twice (e.g. one resourceRef in many KRM results): kpt's
  // kyaml rejects an alias where it expects a mapping.
  return {
    ...printableParseOptions(),
    lineWidth: 0,
    minContentWidth: 0,
    flowCollectionPadding: false,
    indentSeq,
    aliasDuplicateObjects: false,
  };
}
