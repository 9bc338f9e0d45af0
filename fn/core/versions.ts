/**
 * Versions as users write them and as feature gates compare them. Kubernetes prints its own
 * versions with a `v` (`kubectl version`: `v1.31.4`), users type `1.31`; both mean the same.
 */

/** The forms a version setting accepts: `1.31`, `1.31.4`, `v1.31.4`. */
export const VERSION_PATTERN = /^v?\d+\.\d+(?:\.\d+)?$/;

/**
 * Returns the version without its leading `v` (`v1.31.4` → `1.31.4`); other text is returned as is.
 */
export function normalizeVersion(version: string): string {
  return VERSION_PATTERN.test(version) ? version.replace(/^v/, '') : version;
}

/**
 * Returns true when `version` is at least `minimum` (compared numerically, part by part; a leading
 * `v` is ignored).
 */
export function atLeast(version: string, minimum: string): boolean {
  const a = normalizeVersion(version).split('.').map(Number);
  const b = normalizeVersion(minimum).split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

/**
 * Returns the tag of a container image (`ghcr.io/org/img:v1.2.3@sha256:…` → `v1.2.3`), or ''
 * when it has none (a digest only, or no tag). A registry port (`host:5000/img`) is not a tag.
 */
export function imageTag(image: unknown): string {
  const text = typeof image === 'string' ? image : '';
  const last = (text.split('@')[0] ?? '').split('/').pop() ?? '';
  return last.includes(':') ? last.slice(last.indexOf(':') + 1) : '';
}
