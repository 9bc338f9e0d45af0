/**
 * Returns `String(value)` for a value read from parsed YAML where the manifest should hold a
 * scalar (a duration, a label value, a path) and the code compares or quotes its text. A mapping
 * or a list there prints as String() prints it, as the messages always have: typescript-eslint's
 * no-base-to-string would flag that on the typed shapes, and this is the one place that says the
 * choice is deliberate.
 */
export function scalarText(value: unknown): string {
  return String(value);
}
