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
