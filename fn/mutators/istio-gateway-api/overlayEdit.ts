/**
 * Edits to the `data.deployment` overlay text of the Gateway's parameters ConfigMap, made on the
 * parsed document so every key, comment and list item the user wrote stays. Lists are addressed
 * as istiod's strategic merge addresses them: containers and env entries by `name`
 * (deploymentcontroller.go@1.26.8 `strategicMergePatchYAML` with the apps/v1 Deployment's patch
 * strategy), so an entry is added to the user's list, never a list replacing it.
 */
import { Document, isMap, isSeq } from 'yaml';
import { PROXY_CONFIG_ANNOTATION, PROXY_CONTAINER } from './facts.ts';
import { dig, namedItem } from './overlayText.ts';

/** What to set in the overlay. */
export interface OverlaySettings {
  readonly graceSeconds?: number;
  readonly env: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  readonly proxyConfig?: string;
}

const POD_SPEC = ['spec', 'template', 'spec'] as const;

/**
 * Returns the overlay text with `settings` merged in: `document` is the user's overlay (changed in
 * place), or undefined for a new one. Returns undefined when a list on the way is not a list (the
 * caller reports the overlay as not mergeable).
 */
export function mergeDeploymentOverlay(document: Document | undefined, settings: OverlaySettings): string | undefined {
  const doc = document ?? new Document({});
  if (doc.contents === null) doc.contents = doc.createNode({});
  if (!isMap(doc.contents)) return undefined;
  const data: unknown = doc.toJS();
  if (settings.graceSeconds !== undefined) doc.setIn([...POD_SPEC, 'terminationGracePeriodSeconds'], settings.graceSeconds);
  if (settings.proxyConfig !== undefined) doc.setIn(['spec', 'template', 'metadata', 'annotations', PROXY_CONFIG_ANNOTATION], settings.proxyConfig);
  if (settings.env.length > 0 && !setEnv(doc, data, settings.env)) return undefined;
  return doc.toString({ lineWidth: 0 });
}

function setEnv(doc: Document, data: unknown, env: OverlaySettings['env']): boolean {
  const containersPath = [...POD_SPEC, 'containers'];
  const containers = dig(data, ...containersPath);
  const entries = env.map(({ name, value }) => ({ name, value }));
  if (containers === undefined || containers === null) {
    doc.setIn(containersPath, doc.createNode([{ name: PROXY_CONTAINER, env: entries }]));
    return true;
  }
  if (!isSeq(doc.getIn(containersPath, true))) return false;
  const proxy = namedItem(containers, PROXY_CONTAINER);
  if (proxy === undefined) {
    doc.addIn(containersPath, doc.createNode({ name: PROXY_CONTAINER, env: entries }));
    return true;
  }
  const envPath = [...containersPath, proxy.index, 'env'];
  const list = proxy.item['env'];
  if (list === undefined || list === null) {
    doc.setIn(envPath, doc.createNode(entries));
    return true;
  }
  if (!isSeq(doc.getIn(envPath, true))) return false;
  for (const entry of entries) {
    const existing = namedItem(list, entry.name);
    if (existing === undefined) doc.addIn(envPath, doc.createNode(entry));
    else doc.setIn([...envPath, existing.index, 'value'], entry.value);
  }
  return true;
}
