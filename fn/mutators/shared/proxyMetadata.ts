/**
 * `proxyMetadata` entries of the `proxy.istio.io/config` annotation (DOMAIN.md §2: "proxyMetadata
 * maps merge by key"). Reading, the safety refusals (not YAML, anchors, aliases, tags) and
 * top-level fields are the gateway mutator's helper (../gateway/proxyConfig.ts); this adds the one
 * thing it lacks, setting an entry one level down, the same way: a minimal splice, else a
 * re-print, and either way verified by re-reading.
 */
import { Document, parseDocument, Scalar } from 'yaml';
import { isDeepStrictEqual } from 'node:util';
import { isRecord } from '../../document/path.ts';
import { spliceSet } from '../../document/splice.ts';
import { parseOptions, stringifyOptions } from '../../yaml/options.ts';
import { readProxyConfig } from '../gateway/proxyConfig.ts';

/** Returns a `proxyMetadata` entry of read ProxyConfig fields as text, if it is set. */
export function proxyMetadataOf(fields: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const metadata = fields['proxyMetadata'];
  const value = isRecord(metadata) ? metadata[name] : undefined;
  return value === undefined || value === null ? undefined : String(value);
}

/**
 * Returns the annotation text with these `proxyMetadata` entries set and everything else kept
 * (the text itself when nothing changes), or undefined when it can't be edited safely.
 */
export function setProxyMetadata(text: string, entries: Readonly<Record<string, string>>): string | undefined {
  let current: string | undefined = text;
  for (const [name, value] of Object.entries(entries)) {
    current = setOne(current, name, value);
    if (current === undefined) return undefined;
  }
  return current;
}

function setOne(text: string, name: string, value: string): string | undefined {
  const read = readProxyConfig(text);
  if (!read.ok) return undefined;
  const metadata = read.fields['proxyMetadata'];
  if (metadata !== undefined && metadata !== null && !isRecord(metadata)) return undefined;
  if (isRecord(metadata) && metadata[name] === value) return text;
  const expected = { ...read.fields, proxyMetadata: { ...(metadata ?? {}), [name]: value } };
  const parsed = parseDocument(text, parseOptions());
  const spliced = parsed.contents === null ? undefined : spliceSet(text, parsed, ['proxyMetadata', name], value);
  if (spliced !== undefined && holds(spliced, expected)) return spliced;
  const doc = parsed.contents === null ? new Document({}, parseOptions()) : parsed;
  // proxyMetadata is a map of strings and Istio reads the YAML as JSON: an unquoted `true` would
  // arrive as a boolean, so values are double-quoted.
  const scalar = new Scalar(value);
  scalar.type = Scalar.QUOTE_DOUBLE;
  doc.setIn(['proxyMetadata', name], scalar);
  const printed = doc.toString(stringifyOptions());
  return holds(printed, expected) ? printed : undefined;
}

function holds(text: string, expected: Record<string, unknown>): boolean {
  const again = readProxyConfig(text);
  return again.ok && isDeepStrictEqual(again.fields, expected);
}
