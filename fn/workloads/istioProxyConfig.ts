/**
 * The `proxy.istio.io/config` pod annotation: a YAML document holding ProxyConfig fields
 * (docs/background.md#istio). kube-graceful owns a few keys of it (`drainDuration`,
 * `parentShutdownDuration`, `terminationDrainDuration`, `holdApplicationUntilProxyStarts`,
 * `proxyMetadata` entries); every other key, comment and byte stays as the user wrote it ("merge
 * key by key, keep what you don't own", docs/background.md#istio).
 *
 * A value we cannot edit safely is refused, never rewritten: not YAML, not a mapping, or using
 * anchors, aliases or tags (re-printing those can change what Istio reads, e.g. `!!str 5` comes
 * back as `!!str "5"`). The caller turns a refusal into a warning.
 */
import { Document, isAlias, isMap, isScalar, parseDocument, visit } from 'yaml';
import { isDeepStrictEqual } from 'node:util';
import { toData } from '../document/manifest.ts';
import { setAt } from '../core/fieldPath.ts';
import { spliceSet } from '../document/splice.ts';
import { printableParseOptions, stringifyOptions } from '../yaml/options.ts';
import { TextMemo } from '../core/textMemo.ts';

/** The annotation key, on the pod template (docs/background.md#istio). */
export const PROXY_CONFIG_ANNOTATION = 'proxy.istio.io/config';

/** A readable ProxyConfig annotation, or why it can't be edited. */
export type ProxyConfigRead =
  | { readonly ok: true; readonly text: string; readonly fields: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly problem: string };

/**
 * Returns the annotation's fields (empty when absent or blank), or the reason it can't be edited
 * safely.
 */
export function readProxyConfig(value: unknown): ProxyConfigRead {
  if (value === undefined || value === null) return { ok: true, text: '', fields: {} };
  if (typeof value !== 'string')
    return { ok: false, problem: `the value is a ${typeof value}, not YAML text` };
  const read = readings.get(value, readOnce);
  if ('problem' in read) return { ok: false, problem: read.problem };
  return { ok: true, text: value, fields: read.fields };
}

/**
 * Annotation texts read and edited so far. Many workloads of a stream carry the same annotation
 * (most none at all) and get the same edits, each checked by two parses (issue #16: 2,400 parses
 * of a few dozen distinct texts for 600 meshed Deployments, an eighth of the run).
 */
const readings = new TextMemo<Reading>(256, 4096);
const edited = new TextMemo<string | undefined>(256, 4096);

type Reading =
  { readonly fields: Readonly<Record<string, unknown>> } | { readonly problem: string };

function readOnce(text: string): Reading {
  const parsed = parse(text);
  return 'problem' in parsed ? { problem: parsed.problem } : { fields: parsed.fields };
}

/**
 * Returns the annotation text with the field at `path` (e.g. `['drainDuration']` or
 * `['proxyMetadata', 'MINIMUM_DRAIN_DURATION']`) set to `fieldValue`, every other byte kept where
 * the text allows (a minimal splice, as the engine edits manifests), else the document re-printed;
 * either way checked by re-reading: the result must hold exactly the old fields plus this one.
 * Returns undefined when the value can't be edited safely (see readProxyConfig).
 */
export function setProxyConfigField(
  text: string,
  path: readonly string[],
  fieldValue: string | boolean,
): string | undefined {
  // JSON keeps `true` and `"true"` apart and writes no NUL, so the key tells edits apart.
  const edit = `${JSON.stringify(path)}\u0000${JSON.stringify(fieldValue)}\u0000`;
  return edited.get(edit + text, () => setFieldOnce(text, path, fieldValue));
}

function setFieldOnce(
  text: string,
  path: readonly string[],
  fieldValue: string | boolean,
): string | undefined {
  const parsed = parse(text);
  if ('problem' in parsed) return undefined;
  const expected = setAt(parsed.fields, path, fieldValue) as Record<string, unknown>;
  const spliced =
    parsed.doc.contents === null ? undefined : spliceSet(text, parsed.doc, path, fieldValue);
  if (spliced !== undefined && holds(spliced, expected)) return spliced;
  const doc = parsed.doc.contents === null ? new Document({}, printableParseOptions()) : parsed.doc;
  try {
    const existing = doc.getIn(path, true);
    if (isScalar(existing))
      existing.value = fieldValue; // keeps the user's quoting
    else doc.setIn(path, fieldValue);
  } catch {
    // Something on the way is not a map (e.g. `proxyMetadata: [X]`): refuse, the caller warns.
    return undefined;
  }
  const printed = doc.toString(stringifyOptions());
  return holds(printed, expected) ? printed : undefined;
}

type Parsed = { doc: Document; fields: Record<string, unknown> } | { problem: string };

function parse(text: string): Parsed {
  let doc: Document;
  try {
    doc = parseDocument(text, printableParseOptions());
  } catch (error) {
    return {
      problem:
        `it is not valid YAML ` +
        `(${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    };
  }
  const error = doc.errors[0];
  if (error) return { problem: `it is not valid YAML (${error.message.split('\n')[0]})` };
  let unsafe: string | undefined;
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) unsafe = `it uses the alias *${node.source}`;
      else if (node.anchor) unsafe = `it uses the anchor &${node.anchor}`;
      else if (node.tag) unsafe = `it uses the tag ${node.tag}`;
      return unsafe ? visit.BREAK : undefined;
    },
  });
  if (unsafe) return { problem: `${unsafe}, which kube-graceful does not rewrite` };
  if (doc.contents === null) return { doc, fields: {} };
  if (!isMap(doc.contents)) return { problem: 'it is not a YAML mapping of ProxyConfig fields' };
  const fields = toData(doc);
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields))
    return { problem: 'it is not a YAML mapping of ProxyConfig fields' };
  return { doc, fields: fields as Record<string, unknown> };
}

function holds(text: string, expected: Record<string, unknown>): boolean {
  const again = parse(text);
  return !('problem' in again) && isDeepStrictEqual(again.fields, expected);
}
