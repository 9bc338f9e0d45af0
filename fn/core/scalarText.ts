/**
 * Returns `String(value)` for a value read from parsed YAML where the manifest should hold a
 * scalar (a duration, a label value, a path) and the code compares or quotes its text.
 *
 * typescript-eslint's no-base-to-string is right about these values: the parsed shapes allow a
 * mapping or a list where a scalar belongs, and String() prints those as `[object Object]` or
 * `a,b`. The messages have always printed exactly that, and must stay byte-identical, so the
 * choice is deliberate; it is made here once, for about twenty call sites in fourteen files,
 * instead of a disable comment with the same reason at each of them. eemeli/yaml makes the same
 * choice once, with a reasoned disable where it calls String() on an unknown key
 * (src/nodes/addPairToJSMap.ts@v2.9.0); here the parameter is `unknown`, which the rule does
 * not check, so no disable is needed. Quoting non-scalars (JSON.stringify) instead would be a
 * message change, for its own issue.
 */
export function scalarText(value: unknown): string {
  return String(value);
}

/**
 * Returns a value read from parsed YAML as a message quotes it: a string in JSON quotes, a number
 * or a bigint by its digits (JSON.stringify throws on a bigint), `.nan`/`.inf` as YAML writes
 * them, and a map or a list named, not printed (`[object Object]` says nothing).
 */
export function valueForMessage(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return '.nan';
    if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf';
    return String(value);
  }
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Uint8Array) return 'binary data (a !!binary value)';
  return 'a map';
}
