/**
 * The istio-proxy container's `PROXY_CONFIG` env of a pod injected at render time: ProxyConfig as
 * JSON, written by the injection template (`protoToJSON .ProxyConfig`,
 * manifests/charts/istio-control/istio-discovery/files/injection-template.yaml@1.28.10) and read by
 * pilot-agent before the `proxy.istio.io/config` annotation is applied over it
 * (pilot/cmd/pilot-agent/config/config.go@1.28.10 getMeshConfig).
 */

/** The JSON object, or why it can't be edited safely. */
export type ProxyConfigEnvRead =
  | { readonly ok: true; readonly fields: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly problem: string };

/** Returns PROXY_CONFIG's fields (empty when absent or blank). */
export function readProxyConfigEnv(text: string | undefined): ProxyConfigEnvRead {
  if (text === undefined || text.trim() === '') return { ok: true, fields: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'PROXY_CONFIG on istio-proxy is not JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, problem: 'PROXY_CONFIG on istio-proxy is not a JSON object' };
  return { ok: true, fields: value as Record<string, unknown> };
}

/**
 * Returns PROXY_CONFIG's text with top-level `fields` set, every other field kept, as one JSON
 * line.
 */
export function setProxyConfigEnvFields(
  text: string | undefined,
  fields: Readonly<Record<string, string>>,
): string | undefined {
  const read = readProxyConfigEnv(text);
  if (!read.ok) return undefined;
  return `${JSON.stringify({ ...read.fields, ...fields })}\n`;
}
