/**
 * Edits to the `data.deployment` overlay text of the Gateway's parameters ConfigMap, made on the
 * parsed document so every key, comment and list item the user wrote stays. Lists are addressed
 * as istiod's strategic merge addresses them: containers and env entries by `name`
 * (deploymentcontroller.go@1.26.8 `strategicMergePatchYAML` with the apps/v1 Deployment's patch
 * strategy), so an entry is added to the user's list, never a list replacing it.
 */
import { Document, isMap, isScalar, isSeq } from 'yaml';
import { PROXY_CONFIG_ANNOTATION, PROXY_CONTAINER } from './facts.ts';
import { buildAt } from '../../core/fieldPath.ts';
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
export function mergeDeploymentOverlay(
  overlay: { readonly document: Document; readonly text: string } | undefined,
  settings: OverlaySettings,
): string | undefined {
  // Block sequences keep the user's indentation (`key:\n- item` or `key:\n  - item`).
  const indentSeq = overlay === undefined || !/^( *)[^\s#-][^\n]*:\n\1- /m.test(overlay.text);
  const doc = overlay?.document ?? new Document({});
  doc.contents ??= doc.createNode({});
  if (!isMap(doc.contents)) return undefined;
  if (
    settings.graceSeconds !== undefined &&
    !setDeep(doc, [...POD_SPEC, 'terminationGracePeriodSeconds'], settings.graceSeconds)
  )
    return undefined;
  if (
    settings.proxyConfig !== undefined &&
    !setDeep(
      doc,
      ['spec', 'template', 'metadata', 'annotations', PROXY_CONFIG_ANNOTATION],
      settings.proxyConfig,
    )
  )
    return undefined;
  if (settings.env.length > 0 && !setEnv(doc, doc.toJS(), settings.env)) return undefined;
  return doc.toString({ lineWidth: 0, indentSeq });
}

/**
 * Sets `path` (map keys only), creating the missing maps as plain maps: yaml's own setIn would
 * make YAML 1.1 `!!omap`s of them. Returns false when a node on the way is not a map.
 */
function setDeep(doc: Document, path: readonly string[], value: unknown): boolean {
  let node: unknown = doc.toJS();
  for (let i = 0; i < path.length; i++) {
    const prefix = path.slice(0, i);
    if (i > 0 && !isMap(doc.getIn(prefix, true))) return false;
    const next =
      node !== null && typeof node === 'object'
        ? (node as Record<string, unknown>)[path[i]!]
        : undefined;
    if (i === path.length - 1) {
      // A scalar already there keeps its node, and so its comment.
      const existing = doc.getIn(path, true);
      if (isScalar(existing)) existing.value = value;
      else doc.setIn(path, doc.createNode(value));
      return true;
    }
    if (next === undefined || next === null) {
      doc.setIn(path.slice(0, i + 1), doc.createNode(buildAt(path.slice(i + 1), value)));
      return true;
    }
    node = next;
  }
  return true;
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
