/** Which containers run Traefik: by image, never by the container's or workload's name. */
import type { Container, PodSpec } from '../../core/kubeObject.ts';

/**
 * Returns true when the image's repository is `traefik` (`traefik:v3.7`, `docker.io/traefik:v3.7.11`,
 * `docker.io/library/traefik@sha256:…`, a mirror's `registry.example/proxy/traefik:v3`). Traefik Hub
 * (`traefik-hub`) is another binary and is not matched.
 */
export function isTraefikImage(image: string | undefined): boolean {
  if (typeof image !== 'string') return false;
  const withoutDigest = image.split('@')[0] ?? '';
  const lastSegment = withoutDigest.split('/').pop() ?? '';
  const repository = lastSegment.split(':')[0] ?? '';
  return repository === 'traefik';
}

/** Returns the pod's app containers that run Traefik. */
export function traefikContainers(spec: PodSpec | null | undefined): Container[] {
  return (spec?.containers ?? []).filter((c) => isTraefikImage(c.image));
}
