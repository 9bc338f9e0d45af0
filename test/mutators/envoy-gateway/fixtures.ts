// Reads the real Envoy Gateway inputs of test/fixtures/gateways/envoy-gateway as plain objects.
import { readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../fn/core/kubeObject.ts';

const DIR = new URL('../../fixtures/gateways/envoy-gateway/', import.meta.url);

/** Every document of a fixture file, parsed in YAML 1.1 mode as kube-graceful reads manifests. */
export function fixture(name: string): KubeObject[] {
  return parseAllDocuments(readFileSync(new URL(name, DIR), 'utf8'), { version: '1.1' })
    .map((document) => document.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null && typeof object === 'object');
}

/** The EnvoyProxy objects of a fixture (typed loosely so tests can vary a field). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function envoyProxies(name: string): Array<KubeObject & { spec: any }> {
  return fixture(name).filter((o) => o.kind === 'EnvoyProxy') as Array<
    KubeObject & { spec: unknown }
  >;
}

/** The chart's controller ConfigMap and its `envoy-gateway.yaml` (the EnvoyGateway config)
 * parsed. */
export function envoyGatewayConfig(name: string): { configMap: KubeObject; config: unknown } {
  const configMap = fixture(name).find(
    (o) => o.kind === 'ConfigMap' && o.metadata?.name === 'envoy-gateway-config',
  );
  if (configMap === undefined) throw new Error(`${name}: no envoy-gateway-config ConfigMap`);
  const text = (configMap as { data?: Record<string, string> }).data?.['envoy-gateway.yaml'] ?? '';
  return { configMap, config: parse(text, { version: '1.1' }) };
}

/** The one element of a list; throws when there is not exactly one. */
export function only<T>(items: readonly T[]): T {
  if (items.length !== 1) throw new Error(`expected exactly one, got ${items.length}`);
  return items[0] as T;
}
