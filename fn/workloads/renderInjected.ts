/**
 * Pods whose mesh proxy was injected at render time (`istioctl kube-inject`, `linkerd inject
 * --manual`): the proxy container is already in the template, so no webhook will inject (or
 * re-inject) it, and the pod annotations that configure injection do nothing any more. The
 * settings live where the injector wrote them (issue #13 item 13):
 * - Istio: ProxyConfig as JSON in the istio-proxy container's `PROXY_CONFIG` env (the injection
 *   template writes it; pilot-agent reads it, then applies `proxy.istio.io/config` from the
 *   downward-API annotations file over it: pilot/cmd/pilot-agent/config/config.go@1.28.10
 *   getMeshConfig), and `proxyMetadata` as plain env entries of istio-proxy
 *   (manifests/charts/istio-control/istio-discovery/files/injection-template.yaml@1.28.10).
 * - Linkerd: env of linkerd-proxy, and `proxy-wait-before-exit-seconds` as a preStop
 *   `exec: [/bin/sleep, "N"]` on linkerd-proxy (charts/partials/templates/_proxy.tpl@version-2.18).
 */
import type { Container, PodTemplate } from '../core/kubeObject.ts';
import { annotationsOf } from '../core/kubeObject.ts';
import { ISTIO_PROXY, LINKERD_PROXY } from './meshProxies.ts';

/** A proxy found in the template, and whether it runs as a native sidecar. */
export interface RenderInjectedProxy {
  readonly container: typeof ISTIO_PROXY | typeof LINKERD_PROXY;
  readonly native: boolean;
  readonly evidence: string;
}

/** Istio's injector records what it added here; kube-inject output always carries it. */
const ISTIO_STATUS = 'sidecar.istio.io/status';
/** `linkerd inject` stamps the proxy version on the pod template. */
const LINKERD_PROXY_VERSION = 'linkerd.io/proxy-version';

function find(
  template: PodTemplate,
  name: string,
): { container: Container; native: boolean } | undefined {
  const init = (template.spec?.initContainers ?? []).find((c) => c?.name === name);
  if (init) return { container: init, native: init.restartPolicy === 'Always' };
  const main = (template.spec?.containers ?? []).find((c) => c?.name === name);
  return main ? { container: main, native: false } : undefined;
}

/** Returns the istio-proxy that `istioctl kube-inject` put into the template, if any. */
export function renderInjectedIstio(template: PodTemplate): RenderInjectedProxy | undefined {
  if (annotationsOf(template.metadata)[ISTIO_STATUS] === undefined) return undefined;
  const found = find(template, ISTIO_PROXY);
  if (!found) return undefined;
  return {
    container: ISTIO_PROXY,
    native: found.native,
    evidence:
      `istio-proxy already in the pod template (${ISTIO_STATUS} set: ` +
      `injected at render time, e.g. istioctl ` +
      `kube-inject)${found.native ? ' as a native sidecar' : ''}`,
  };
}

/** Returns the linkerd-proxy that `linkerd inject --manual` put into the template, if any. */
export function renderInjectedLinkerd(template: PodTemplate): RenderInjectedProxy | undefined {
  if (annotationsOf(template.metadata)[LINKERD_PROXY_VERSION] === undefined) return undefined;
  const found = find(template, LINKERD_PROXY);
  if (!found) return undefined;
  return {
    container: LINKERD_PROXY,
    native: found.native,
    evidence:
      `linkerd-proxy already in the pod template (${LINKERD_PROXY_VERSION} set: ` +
      `injected at render time, e.g. linkerd inject ` +
      `--manual)${found.native ? ' as a native sidecar' : ''}`,
  };
}

/** Returns the istio-proxy container's `PROXY_CONFIG` text (JSON), if it has a literal one. */
export function proxyConfigEnvText(template: PodTemplate): string | undefined {
  const proxy = find(template, ISTIO_PROXY)?.container;
  const entry = (proxy?.env ?? []).find((e) => e?.name === 'PROXY_CONFIG');
  return typeof entry?.value === 'string' ? entry.value : undefined;
}
