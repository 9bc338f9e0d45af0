/** Version comparisons for feature gates (`1.30` ≥ `1.29`); versions are `X.Y` or `X.Y.Z`. */

/** Returns true when `version` is at least `minimum` (compared numerically, part by part). */
export function atLeast(version: string, minimum: string): boolean {
  const a = version.split('.').map(Number);
  const b = minimum.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}
