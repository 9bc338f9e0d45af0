/**
 * `drainDuration` merged into `proxy.istio.io/config` text, key by key: pilot-agent applies the
 * annotation over PROXY_CONFIG field by field (pilot/cmd/pilot-agent/config/config.go@1.26.8
 * `getMeshConfig`, "Merging is done by replacement"), so every other field the user set stays.
 */
import { isMap, parseDocument } from 'yaml';
import { parseGoDurationSeconds } from '../../timing/durations.ts';

/** The annotation as read: its drainDuration in seconds when it sets a readable one. */
export type ProxyConfigRead =
  | {
      readonly ok: true;
      readonly text: string;
      readonly drainText?: unknown;
      readonly drainSeconds?: number;
    }
  | { readonly ok: false; readonly problem: string };

/** Returns the annotation text read, or why it cannot be merged into. */
export function readProxyConfigText(value: unknown): ProxyConfigRead {
  if (value === undefined || value === null) return { ok: true, text: '' };
  if (typeof value !== 'string') return { ok: false, problem: 'it is not a string' };
  if (/(^|[\s[{,])[&*!]/m.test(value))
    return { ok: false, problem: 'it uses YAML anchors, aliases or tags' };
  const doc = parseDocument(value, { version: '1.1', uniqueKeys: true });
  if (doc.errors.length > 0) return { ok: false, problem: 'it is not valid YAML' };
  if (doc.contents !== null && !isMap(doc.contents))
    return { ok: false, problem: 'it is not a mapping' };
  const drainText: unknown = doc.get('drainDuration');
  const drainSeconds =
    typeof drainText === 'string' ? parseGoDurationSeconds(drainText) : undefined;
  return {
    ok: true,
    text: value,
    ...(drainText === undefined ? {} : { drainText }),
    ...(drainSeconds === undefined ? {} : { drainSeconds }),
  };
}

/** Returns `text` with `drainDuration` set to `value`, every other field kept. */
export function withDrainDuration(text: string, value: string): string {
  const doc = parseDocument(text, { version: '1.1' });
  if (doc.contents === null) return `drainDuration: ${value}\n`;
  doc.set('drainDuration', value);
  return doc.toString({ lineWidth: 0 });
}
