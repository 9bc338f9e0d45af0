/**
 * Reading one overlay of a parameters or class-defaults ConfigMap (`data.deployment`,
 * `data.service`): YAML text that istiod applies to the object it generated with a strategic merge
 * patch (`strategicMergePatchYAML` in deploymentcontroller.go@1.26.8 and
 * gatewaycommon/deploymentcontroller.go@1.30.3: the Deployment's and Service's own patch strategy,
 * so `containers` and `env` merge by `name`, maps key by key, scalars replace).
 */
import { parseDocument } from 'yaml';
import type { Document } from 'yaml';
import type { ConfigMapObject } from './objects.ts';

/** An overlay as read: absent, its document and plain data, or why it cannot be used. */
export type OverlayRead =
  | { readonly state: 'absent' }
  | {
      readonly state: 'ok';
      readonly text: string;
      readonly document: Document;
      readonly data: Record<string, unknown>;
    }
  | { readonly state: 'unreadable'; readonly problem: string };

/**
 * YAML 1.1, as the Kubernetes YAML readers istiod uses (sigs.k8s.io/yaml over go-yaml) read it:
 * `on`, `yes` are booleans there too.
 */
const PARSE_OPTIONS = { version: '1.1', prettyErrors: false, uniqueKeys: true } as const;

/** Returns the overlay `key` of `configMap` (absent when the ConfigMap or the key is). */
export function readOverlay(configMap: ConfigMapObject | undefined, key: string): OverlayRead {
  const value = configMap?.data?.[key];
  if (value === undefined || value === null) return { state: 'absent' };
  if (typeof value !== 'string')
    return { state: 'unreadable', problem: `data.${key} is not a string` };
  return readOverlayText(value, `data.${key}`);
}

/** Returns the overlay text parsed, or why it can't be merged into by kube-graceful. */
function readOverlayText(text: string, where: string): OverlayRead {
  const document = parseDocument(text, PARSE_OPTIONS);
  if (document.errors.length > 0)
    return {
      state: 'unreadable',
      problem: `${where} is not valid YAML (${document.errors[0]!.message.split('\n')[0]!})`,
    };
  // Anchors, aliases and tags could make one edit reach another place: left to the user.
  if (/(^|[\s[{,])[&*!]/m.test(text))
    return { state: 'unreadable', problem: `${where} uses YAML anchors, aliases or tags` };
  const data: unknown = document.toJS();
  if (data === null || data === undefined) return { state: 'ok', text, document, data: {} };
  if (typeof data !== 'object' || Array.isArray(data))
    return { state: 'unreadable', problem: `${where} is not a mapping` };
  return { state: 'ok', text, document, data: data as Record<string, unknown> };
}

/** Returns the value at `path` in plain data, or undefined. Numbers index lists. */
export function dig(root: unknown, ...path: ReadonlyArray<string | number>): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/** Returns the list item whose `name` is `name`, with its index, from a list that may not be
 * one. */
export function namedItem(
  list: unknown,
  name: string,
): { readonly index: number; readonly item: Record<string, unknown> } | undefined {
  if (!Array.isArray(list)) return undefined;
  const index = list.findIndex(
    (entry) =>
      entry !== null &&
      typeof entry === 'object' &&
      (entry as Record<string, unknown>)['name'] === name,
  );
  return index < 0 ? undefined : { index, item: list[index] as Record<string, unknown> };
}
