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
  return colon > slash
    ? { repository: withoutDigest.slice(0, colon), tag: withoutDigest.slice(colon + 1) }
    : { repository: withoutDigest, tag: '' };
}

// registry.k8s.io images are mostly built on distroless (kube-webhook-certgen, descheduler,
// metrics-server, kube-state-metrics). These few are known to carry a shell.
const K8S_IMAGES_WITH_SHELL = [
  'registry.k8s.io/busybox',
  'registry.k8s.io/e2e-test-images/',
  'registry.k8s.io/ingress-nginx/controller',
];
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

/**
 * Which HTTP client the wrapper can use to call the quit endpoint; `unknown` when no list names the
 * image.
 */
export type HttpClient = 'curl' | 'wget' | 'none' | 'unknown';

/** An image's HTTP client and, in words, how that is known. */
export interface HttpClientOf {
  readonly client: HttpClient;
  readonly evidence: string;
}

/**
 * Images known to have curl, wget or neither (issue #13 item 11): the wrapper calls the quit
 * endpoint with the first it finds (wrapper.ts), and with neither the proxy is never asked. Matched
 * on the repository without registry default or tag. A list of what is known, not a guess.
 */
const HTTP_CLIENT_IMAGES: ReadonlyArray<{
  readonly repositories: readonly string[];
  readonly tags?: (tag: string) => boolean;
  readonly client: Exclude<HttpClient, 'unknown'>;
  readonly why: string;
}> = [
  // docker-library/python: the full tags build FROM buildpack-deps (curl and wget), -slim FROM
  // debian:*-slim (wget only as a build dependency, purged), -alpine FROM alpine (busybox wget).
  {
    repositories: ['python'],
    tags: (tag) => tag.includes('alpine'),
    client: 'wget',
    why: "python's -alpine tags are alpine, whose busybox has a wget applet",
  },
  {
    repositories: ['python'],
    tags: (tag) => tag.includes('slim'),
    client: 'none',
    why: "python's -slim tags have neither curl nor wget",
  },
  {
    repositories: ['python'],
    client: 'curl',
    why: "python's full tags are built on buildpack-deps, which has curl and wget",
  },
  // busybox's wget applet takes --post-data and -Y off; test/mutators/job/wrapper.test.ts runs the
  // wrapper under busybox.
  {
    repositories: ['busybox', 'registry.k8s.io/busybox'],
    client: 'wget',
    why: 'busybox has a wget applet',
  },
  // Alpine's base image is busybox, applets included.
  { repositories: ['alpine'], client: 'wget', why: "alpine's busybox has a wget applet" },
  { repositories: ['curlimages/curl'], client: 'curl', why: 'curlimages/curl is curl' },
  // The minimal Debian and Ubuntu base images ship neither (apt downloads with its own http
  // method).
  {
    repositories: ['debian', 'ubuntu'],
    client: 'none',
    why: 'the debian and ubuntu base images have neither curl nor wget',
  },
];

/**
 * Returns the repository without `docker.io/`, `index.docker.io/` or `library/`
 * (`docker.io/library/alpine` → `alpine`).
 */
function canonicalRepository(repository: string): string {
  return repository.replace(/^(?:docker\.io|index\.docker\.io)\//, '').replace(/^library\//, '');
}

/**
 * Returns whether the wrapper can call the quit endpoint from this image: the config's answer
 * (`job.imageHasHttpClient`), else the list above, else `unknown`.
 */
export function httpClientOf(
  image: string | undefined,
  imageHasHttpClient: boolean | undefined,
  imageHasShell?: boolean,
): HttpClientOf {
  if (imageHasHttpClient === true)
    return {
      client: 'curl',
      evidence: 'job.imageHasHttpClient is true (curl or wget in the image)',
    };
  if (imageHasHttpClient === false)
    return { client: 'none', evidence: 'job.imageHasHttpClient is false' };
  if (!image) return { client: 'unknown', evidence: 'the container names no image' };
  // An image with no shell has no curl or wget either, unless config says it does have a shell.
  const without = imageHasShell === true ? undefined : knownWithoutShell(image);
  if (without !== undefined) return { client: 'none', evidence: without };
  const { repository: raw, tag } = splitImage(image.trim());
  const repository = canonicalRepository(raw);
  const known = HTTP_CLIENT_IMAGES.find(
    (entry) =>
      entry.repositories.includes(repository) && (entry.tags === undefined || entry.tags(tag)),
  );
  if (known) return { client: known.client, evidence: `${known.why} (${image})` };
  return {
    client: 'unknown',
    evidence: `${image} is not in the list of images known to have curl or wget`,
  };
}
