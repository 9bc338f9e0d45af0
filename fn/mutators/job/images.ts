/**
 * Images known to have no `/bin/sh`, which the Job wrapper needs (issue #4). A list of what is
 * known, not a guess about everything else: an image not named here may still lack a shell (one
 * built FROM distroless, or from scratch), which is why the docs recommend native sidecars first.
 */

/** The repository path (no tag, no digest) and the tag of an image reference. */
function splitImage(image: string): { repository: string; tag: string } {
  const withoutDigest = image.split('@', 1)[0] ?? '';
  const slash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  return colon > slash ? { repository: withoutDigest.slice(0, colon), tag: withoutDigest.slice(colon + 1) } : { repository: withoutDigest, tag: '' };
}

// registry.k8s.io images are mostly built on distroless (kube-webhook-certgen, descheduler,
// metrics-server, kube-state-metrics). These few are known to carry a shell.
const K8S_IMAGES_WITH_SHELL = ['registry.k8s.io/busybox', 'registry.k8s.io/e2e-test-images/', 'registry.k8s.io/ingress-nginx/controller'];
// Chainguard images are shell-less except the `-dev` variants and these base images.
const CHAINGUARD_WITH_SHELL = new Set(['wolfi-base', 'busybox', 'bash']);

/**
 * Returns why the image is known to have no `/bin/sh`, or undefined when it is not known to lack
 * one.
 */
export function knownWithoutShell(image: string | undefined): string | undefined {
  if (!image) return undefined;
  const { repository, tag } = splitImage(image.trim());
  if (repository.startsWith('gcr.io/distroless/')) {
    // The :debug variants add busybox under /busybox, not /bin/sh.
    return 'gcr.io/distroless images have no /bin/sh';
  }
  if (repository.startsWith('cgr.dev/chainguard/')) {
    const name = repository.slice('cgr.dev/chainguard/'.length);
    if (tag.endsWith('-dev') || CHAINGUARD_WITH_SHELL.has(name)) return undefined;
    return 'cgr.dev/chainguard images other than the -dev variants have no shell';
  }
  if (repository.startsWith('registry.k8s.io/')) {
    if (K8S_IMAGES_WITH_SHELL.some((prefix) => repository.startsWith(prefix))) return undefined;
    return 'most registry.k8s.io images are built on distroless and have no /bin/sh';
  }
  // Istio's and others' `-distroless` tags (e.g. proxyv2:1.24.0-distroless; istio/istio#47779).
  if (tag.endsWith('-distroless')) return 'images tagged -distroless have no shell';
  return undefined;
}
