/**
 * The containers the meshes inject their proxies as. The names are fixed by the injectors, and
 * every reader and writer of a proxy container takes them from here.
 */

/** Istio's sidecar and gateway proxy (pkg/kube/inject/inject.go@1.26.0: ProxyContainerName). */
export const ISTIO_PROXY = 'istio-proxy';
/** Linkerd's proxy (pkg/k8s/labels.go@stable-2.14.0: ProxyContainerName). */
export const LINKERD_PROXY = 'linkerd-proxy';

/** A mesh kube-graceful knows. */
export type Mesh = 'istio' | 'linkerd';

/** The proxy container of each mesh. */
export const MESH_PROXY: Readonly<Record<Mesh, typeof ISTIO_PROXY | typeof LINKERD_PROXY>> = {
  istio: ISTIO_PROXY,
  linkerd: LINKERD_PROXY,
};

/** The names of every mesh proxy container: never an app's main or serving container. */
export const MESH_PROXY_CONTAINERS: ReadonlySet<string> = new Set([ISTIO_PROXY, LINKERD_PROXY]);
