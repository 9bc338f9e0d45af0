/**
 * Validates objects against the Kubernetes OpenAPI schemas shipped by `kubernetes-models`, so a
 * test fails when kube-graceful writes a field the API server would reject.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Throws an Error naming the field when `object` is not a valid object of its kind; unknown kinds
 * are skipped and return false. */
export function validateKubernetesObject(object: { apiVersion?: string; kind?: string }): boolean {
  const { apiVersion = '', kind = '' } = object;
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
