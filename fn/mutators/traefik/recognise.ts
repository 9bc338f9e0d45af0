/**
 * Recognises Traefik by structure: a container whose image repository is `traefik`. Never by the
 * container's, workload's or Service's name, nor by labels: the Helm chart lets users rename all of
 * them (`fullnameOverride`, `deployment.labels`; traefik/traefik-helm-chart
 * traefik/values.yaml@v41.3.0), and plain manifests name them freely (traefik/traefik
 * docs/content/reference/dynamic-configuration/kubernetes-gateway-traefik-lb-svc.yml@v3.7.9 names
 * its container `traefik` only by choice). The image is what runs the binary whose shutdown the
 * traefik-drain mutator plans.
 *
 * One home for this fact: traefik-drain claims these pods, and app-graceful leaves them alone (it
 * would otherwise add a preStop sleep in front of Traefik's own requestAcceptGraceTimeout).
 */
import type { Container, PodSpec, PodTemplate } from '../../core/kubeObject.ts';

/**
 * Returns true when the image's repository is `traefik` (`traefik:v3.7`,
 * `docker.io/traefik:v3.7.11`, `docker.io/library/traefik@sha256:…`, a mirror's
 * `registry.example/proxy/traefik:v3`). Traefik Hub (`traefik-hub`) is another binary and is not
 * matched.
 */
function isTraefikImage(image: string | undefined): boolean {
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

/** Returns true when an app container of the pod runs Traefik. */
export function runsTraefik(template: PodTemplate): boolean {
  return traefikContainers(template.spec).length > 0;
}
