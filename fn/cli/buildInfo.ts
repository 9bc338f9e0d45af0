/** What the bundle was built from: its version and git commit (scripts/build.mjs sets both). */

declare const KUBE_GRACEFUL_VERSION: string | undefined;
declare const KUBE_GRACEFUL_COMMIT: string | undefined;

/** The version printed by `--version` and `version`; `dev` when run from source. */
export const VERSION = typeof KUBE_GRACEFUL_VERSION === 'string' ? KUBE_GRACEFUL_VERSION : 'dev';

/**
 * The commit the bundle was built from (`-dirty` when tracked files differed from it); `unknown`
 * when run from source or built outside a git checkout (an npm tarball).
 */
export const COMMIT = typeof KUBE_GRACEFUL_COMMIT === 'string' ? KUBE_GRACEFUL_COMMIT : 'unknown';
