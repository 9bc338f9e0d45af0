/**
 * `proxyMetadata` entries of the `proxy.istio.io/config` annotation (docs/background.md#istio:
 * "proxyMetadata maps merge by key"; they become the proxy's env at injection). Reading, the safety
 * refusals and the verified minimal edit are proxyConfig.ts's; this names the entries.
 */
import { isRecord } from '../../core/fieldPath.ts';
import { setProxyConfigField } from '../../workloads/istioProxyConfig.ts';
import { scalarText } from '../../core/scalarText.ts';

/** Returns a `proxyMetadata` entry of read ProxyConfig fields as text, if it is set. */
export function proxyMetadataOf(
  fields: Readonly<Record<string, unknown>>,
  name: string,
): string | undefined {
  const metadata = fields['proxyMetadata'];
  const value = isRecord(metadata) ? metadata[name] : undefined;
  return value === undefined || value === null ? undefined : scalarText(value);
}

/**
 * Returns the annotation text with these `proxyMetadata` entries set and everything else kept
 * (the text itself when nothing changes), or undefined when it can't be edited safely. Values stay
 * strings (a `"true"` is written quoted: the setter checks the types it reads back).
 */
export function setProxyMetadata(
  text: string,
  entries: Readonly<Record<string, string>>,
): string | undefined {
  let current: string | undefined = text;
  for (const [name, value] of Object.entries(entries)) {
    current = setProxyConfigField(current, ['proxyMetadata', name], value);
    if (current === undefined) return undefined;
  }
  return current;
}
