import type { KubeObject } from '../../core/kubeObject.ts';
import type { ProposedFinding } from '../types.ts';
import { resolveAttachments } from './attachment.ts';
import { isConfigMap, readControllerConfig } from './controllerConfig.ts';

/**
 * The findings about one Gateway of an Envoy Gateway class (./attachment.ts): its EnvoyProxy not in
 * the stream, none at all, or its own replacing its class's. Gateways of other controllers, and of
 * classes not in the stream, get none.
 */
export function gatewayFindings(
  gateway: KubeObject,
  objects: readonly KubeObject[],
): ProposedFinding[] {
  const same = (a: KubeObject, b: KubeObject) =>
    a.kind === b.kind &&
    a.metadata?.name === b.metadata?.name &&
    (a.metadata?.namespace ?? '') === (b.metadata?.namespace ?? '');
  const configs = objects.map(readControllerConfig);
  const controllerConfig = configs.find((c) => c.state === 'ok');
  const controllerNames = configs.flatMap((c) => (c.state === 'ok' ? [c.controllerName] : []));
  const defaultSpec = configs.flatMap((c, i) =>
    c.state === 'ok' && c.defaultSpec ? [{ location: c.defaultSpec, object: objects[i]! }] : [],
  )[0];
  const others = objects.filter((o) => !same(o, gateway) && !isConfigMap(o));
  return resolveAttachments([...others, gateway], defaultSpec, {
    ...(controllerNames.length > 0 ? { controllerNames } : {}),
    controllerConfigSeen: controllerConfig !== undefined,
    ...(controllerConfig?.state === 'ok' && controllerConfig.release !== undefined
      ? { release: controllerConfig.release }
      : {}),
  })
    .findings.filter((f) => same(f.gateway, gateway))
    .map((f) => f.finding);
}
