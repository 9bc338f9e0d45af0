/**
 * What `patches` says instead of a patch for Envoy Gateway's config (issue #27 item 10). The
 * config is one string in the ConfigMap (`data["envoy-gateway.yaml"]`), so a kustomize patch can
 * only replace it whole, image tags and all, and a Flux HelmRelease carrying it would undo every
 * later chart upgrade. The gateway-helm chart renders that string from `config.envoyGateway` merged
 * over its defaults (charts/gateway-helm/templates/envoy-gateway-config.yaml@v1.9.0): a field at
 * path P of the document is the value `config.envoyGateway.P`. So the fields kube-graceful set
 * become Helm values the release can carry instead.
 */
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { formatPath } from '../../core/fieldPath.ts';
import type { FieldPath } from '../../core/fieldPath.ts';
import { isRecord } from '../../core/fieldPath.ts';
import { CONTROLLER_CONFIG_KEY } from './controllerConfig.ts';

/** True when a change record sets Envoy Gateway's config text. */
export function setsControllerConfig(path: FieldPath): boolean {
  return path.length === 2 && path[0] === 'data' && path[1] === CONTROLLER_CONFIG_KEY;
}

/** The leaves that differ between two documents, as paths from the root, with the new value. */
function changedLeaves(
  before: unknown,
  after: unknown,
  path: readonly string[],
): Array<{ path: readonly string[]; value: unknown }> {
  if (isDeepStrictEqual(before, after)) return [];
  if (isRecord(after) && (isRecord(before) || before === undefined))
    return Object.entries(after).flatMap(([key, value]) =>
      changedLeaves(isRecord(before) ? before[key] : undefined, value, [...path, key]),
    );
  return [{ path, value: after }];
}

/**
 * Returns `--set-string`-ready lines (`config.envoyGateway.envoyProxy.shutdown.drainTimeout=205s`)
 * for the fields the new config text sets over the old one.
 */
export function helmValuesFor(before: string, after: string): string[] {
  const read = (text: string): unknown => parse(text, { version: '1.1' });
  return changedLeaves(read(before), read(after), []).map(({ path, value }) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return `config.envoyGateway.${formatPath(path)}=${text}`;
  });
}
