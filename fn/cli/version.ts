/** The version kube-graceful reports: set at build time (scripts/build.mjs); `dev` from source. */
declare const KUBE_GRACEFUL_VERSION: string | undefined;

export const VERSION = typeof KUBE_GRACEFUL_VERSION === 'string' ? KUBE_GRACEFUL_VERSION : 'dev';
