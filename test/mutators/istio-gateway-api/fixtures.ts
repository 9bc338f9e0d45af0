/** Reads the istio-gateway-api fixtures (test/fixtures/gateways/istio-gateway-api, README there) as
 * parsed objects. */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../fn/core/kubeObject.ts';
import { fixturePath } from '../../helpers/fixtures.ts';

/** Returns the text of a fixture under test/fixtures/gateways/istio-gateway-api. */
export function fixtureText(path: string): string {
  return readFileSync(fixturePath('gateways', 'istio-gateway-api', ...path.split('/')), 'utf8');
}

/** Returns every non-empty document of a fixture as plain data (YAML 1.1, as Kubernetes reads
 * it). */
export function fixtureObjects(path: string): KubeObject[] {
  return parseAllDocuments(fixtureText(path), { version: '1.1' })
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0]!.message}`);
      return doc.toJS() as KubeObject | null;
    })
    .filter((o): o is KubeObject => o !== null && typeof o === 'object');
}

/** Returns the one object of `kind` in a fixture. */
export function only(path: string, kind: string): KubeObject {
  const found = fixtureObjects(path).filter((o) => o.kind === kind);
  if (found.length !== 1) throw new Error(`${path}: ${found.length} ${kind} documents`);
  return found[0]!;
}
