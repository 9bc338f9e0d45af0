/**
 * Validates objects against the Kubernetes OpenAPI schemas shipped by `kubernetes-models`, so a
 * test fails when kube-graceful writes a field the API server would reject.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse } from 'yaml';

const require = createRequire(import.meta.url);

/**
 * The EnvoyProxy CRD's spec.shutdown schema at v1.9.0
 * (test/fixtures/gateways/envoy-gateway/README.md says where it is from).
 */
interface ShutdownSchema {
  readonly properties: Record<string, { readonly type: string; readonly pattern?: string }>;
}

/**
 * Throws when an EnvoyProxy's spec.shutdown has a field the v1.9.0 CRD does not know or would
 * refuse; other fields are not checked.
 */
function validateEnvoyProxyShutdown(object: {
  spec?: { shutdown?: Record<string, unknown> };
}): void {
  const schema = parse(
    readFileSync(
      new URL(
        '../fixtures/gateways/envoy-gateway/crd-v1.9.0-envoyproxy-shutdown-schema.yaml',
        import.meta.url,
      ),
      'utf8',
    ),
  ) as ShutdownSchema;
  for (const [field, value] of Object.entries(object.spec?.shutdown ?? {})) {
    const property = schema.properties[field];
    if (!property) throw new Error(`EnvoyProxy spec.shutdown.${field}: not in the CRD schema`);
    if (typeof value !== property.type)
      throw new Error(`EnvoyProxy spec.shutdown.${field}: ${typeof value}, not ${property.type}`);
    if (property.pattern && !new RegExp(property.pattern).test(String(value)))
      throw new Error(
        `EnvoyProxy spec.shutdown.${field}: ${String(value)} does not match ${property.pattern}`,
      );
  }
}

/**
 * Throws an Error naming the field when `object` is not a valid object of its kind; unknown kinds
 * are skipped and return false.
 */
export function validateKubernetesObject(object: { apiVersion?: string; kind?: string }): boolean {
  const { apiVersion = '', kind = '' } = object;
  if (kind === 'EnvoyProxy' && apiVersion.startsWith('gateway.envoyproxy.io/')) {
    validateEnvoyProxyShutdown(object as { spec?: { shutdown?: Record<string, unknown> } });
    return true;
  }
  const module = apiVersion.includes('/')
    ? `kubernetes-models/${apiVersion}/${kind}`
    : `kubernetes-models/${apiVersion}/${kind}`;
  let Model: new (data: unknown) => { validate(): void };
  try {
    Model = (require(module) as Record<string, new (data: unknown) => { validate(): void }>)[kind]!;
  } catch {
    return false;
  }
  new Model(object).validate();
  return true;
}
