/**
 * Sidecars a chart declares itself, as entries of a run-to-completion pod's `containers` (issue
 * #30): long-running helpers that do not exit when the work does, so a Job whose pod runs one as
 * a regular container never completes (kubernetes/kubernetes#25908). Mesh proxies are the
 * injectors' (fn/workloads/meshProxies.ts); these are the chart's.
 *
 * A container is a sidecar when its image is one of the products below (a proxy, a collector, a
 * log shipper: each serves until it is signalled), or when the settings name it (`job.sidecars`,
 * `kube-graceful.dev/job-sidecars`). Nothing else is guessed: an unknown second container may be
 * the work.
 */
import type { Container } from '../core/kubeObject.ts';

/** A product recognised by image, with where its sidecar use for Jobs is documented. */
export interface SidecarProduct {
  readonly product: string;
  /** The image repository, matched without registry host or tag. */
  readonly repository: RegExp;
  readonly source: string;
}

/** The product whose quit endpoint the Job wrapper calls (fn/mutators/job/sidecarQuit.ts). */
export const CLOUD_SQL_PROXY_V2 = 'Cloud SQL Auth Proxy v2';
export const CLOUD_SQL_PROXY_V1 = 'Cloud SQL Auth Proxy v1';

const PRODUCTS: readonly SidecarProduct[] = [
  {
    // v2: gcr.io/cloud-sql-connectors/cloud-sql-proxy and its regional mirrors (README.md@v2.25.3
    // "Container Images"); it serves until it is signalled or asked to quit (cmd/root.go@v2.25.3).
    product: CLOUD_SQL_PROXY_V2,
    repository: /(?:^|\/)cloud-sql-connectors\/cloud-sql-proxy$/,
    source:
      'GoogleCloudPlatform/cloud-sql-proxy examples/k8s-sidecar/job_with_sidecar.yaml@v2.25.3 ' +
      '(a Job runs the proxy as a native sidecar)',
  },
  {
    // v1: gcr.io/cloudsql-docker/gce-proxy and its regional mirrors (README.md@v1.33.16).
    product: CLOUD_SQL_PROXY_V1,
    repository: /(?:^|\/)cloudsql-docker\/gce-proxy$/,
    source:
      'GoogleCloudPlatform/cloud-sql-proxy README.md@v1.33.16 (a long-running proxy ' +
      'until SIGTERM, -term_timeout)',
  },
  {
    // The collector's community images, on Docker Hub and ghcr.io (opentelemetry-helm-charts
    // charts/opentelemetry-collector/UPGRADING.md@opentelemetry-collector-0.170.0): it receives
    // and exports telemetry until it is signalled.
    product: 'OpenTelemetry Collector',
    repository: new RegExp(
      '(?:^|/)(?:otel|opentelemetry-collector-releases)/opentelemetry-collector(?:-k8s|-contrib)?$',
    ),
    source:
      'open-telemetry/opentelemetry-helm-charts charts/opentelemetry-collector/UPGRADING.md' +
      '@opentelemetry-collector-0.170.0 (its images)',
  },
  {
    // The Agent on every registry the Datadog chart offers (DataDog/helm-charts
    // charts/datadog/values.yaml@datadog-3.240.0 `registry`: registry.datadoghq.com,
    // gcr.io/datadoghq and its eu./asia. mirrors, datadoghq.azurecr.io, public.ecr.aws/datadog,
    // docker.io/datadog): it collects until it is signalled. The cluster agent is not it.
    product: 'Datadog Agent',
    repository: new RegExp(
      '(?:(?:^|/)(?:datadoghq|datadog)|' +
        '^(?:registry\\.datadoghq\\.com|datadoghq\\.azurecr\\.io))/agent$',
    ),
    source: 'DataDog/helm-charts charts/datadog/values.yaml@datadog-3.240.0 (its registries)',
  },
  {
    // fluent/fluent-bit on Docker Hub and cr.fluentbit.io (dockerfiles/README.md@v4.2.8): a log
    // processor that runs until it is signalled.
    product: 'Fluent Bit',
    repository: /(?:^|\/)fluent\/fluent-bit$/,
    source: 'fluent/fluent-bit dockerfiles/README.md@v4.2.8 (its image)',
  },
];

/** A container of the pod that is a sidecar, and how that is known. */
export interface DeclaredSidecar {
  readonly name: string;
  /** The product, or undefined for a container the settings name. */
  readonly product?: string;
  /** Why it is taken for a sidecar, for reasons and explain. */
  readonly evidence: string;
}

/**
 * Returns the sidecars among `containers`: those of a known image, and those `named` (the
 * settings' list; names that match no container are returned apart).
 */
export function declaredSidecars(
  containers: readonly Container[],
  named: readonly string[] | undefined,
  namedBy: string,
): { sidecars: DeclaredSidecar[]; missing: string[] } {
  const sidecars: DeclaredSidecar[] = [];
  for (const container of containers) {
    if (named?.includes(container.name)) {
      sidecars.push({ name: container.name, evidence: `named in ${namedBy}` });
      continue;
    }
    const known = productOf(container.image);
    if (known)
      sidecars.push({
        name: container.name,
        product: known.product,
        evidence: `image ${String(container.image)} is the ${known.product} (${known.source})`,
      });
  }
  const missing = (named ?? []).filter((name) => !containers.some((c) => c.name === name));
  return { sidecars, missing };
}

/** Returns the product an image is, or undefined. */
export function productOf(image: unknown): SidecarProduct | undefined {
  if (typeof image !== 'string') return undefined;
  const repository = image.replace(/@.*$/, '').replace(/:[^/:]*$/, '');
  return PRODUCTS.find((p) => p.repository.test(repository));
}
