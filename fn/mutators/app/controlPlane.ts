/**
 * Mesh and cluster control-plane components, which app-graceful leaves alone unless an `include`
 * selector names them. Their shutdown is designed by their own projects (istiod drains xDS clients
 * itself; a CNI or node agent that sleeps holds a node's rollout), and a wrong delay there hurts
 * every pod, not one app. Recognised by structure and namespace, never by release names: labels and
 * names are user-settable (docs/background.md#istio). Gateways are not handled here: the
 * gateway-drain mutator owns them.
 */
import { labelsOf } from '../../core/kubeObject.ts';
import type { Container } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';

/**
 * `kube-system` is where Kubernetes and the cluster provider run their own components
 * (kube-proxy, CNI, CoreDNS, node agents; Kubernetes docs, "Initial namespaces"). They are
 * managed, and often reconciled back, by the provider: not this tool's to change.
 */
const SYSTEM_NAMESPACE = 'kube-system';

/** Image names (last path segment, without tag or digest) of Istio's control-plane components. */
const ISTIO_CONTROL_PLANE_IMAGES: Readonly<Record<string, string>> = {
  pilot: 'istiod (image istio/pilot runs pilot-discovery)',
  'install-cni': 'istio-cni node agent (image istio/install-cni)',
  ztunnel: 'Istio ambient ztunnel node proxy (image istio/ztunnel)',
};

/**
 * Host directories of the CNI specification (binaries and network configs). Only a CNI plugin
 * installer mounts them (istio-cni, linkerd-cni, Calico, Cilium, Flannel, aws-node): a pod that
 * does is part of node networking, whatever it is called.
 */
const CNI_HOST_PATHS = ['/opt/cni/bin', '/etc/cni/net.d'];

/** Linkerd's charts label every control-plane pod with this (destination, identity, injector). */
const LINKERD_CONTROL_PLANE_LABEL = 'linkerd.io/control-plane-component';

/** Returns why the workload is a control-plane component, or undefined for an ordinary app. */
export function controlPlaneReason(workload: Workload): string | undefined {
  if (workload.ref.namespace === SYSTEM_NAMESPACE)
    return `it runs in ${SYSTEM_NAMESPACE}, where the cluster's own components live`;
  const labels = labelsOf(workload.template.metadata);
  // istiod's chart hard-codes `app: istiod` on its pods; the image check catches renamed installs.
  if (labels['app'] === 'istiod') return 'it is istiod (pod label app: istiod)';
  const containers: Container[] = [
    ...(workload.template.spec?.initContainers ?? []),
    ...workload.containers,
  ];
  for (const container of containers) {
    const image = imageName(container.image);
    const component = image === undefined ? undefined : ISTIO_CONTROL_PLANE_IMAGES[image];
    if (component) return `it is the ${component}`;
    if (
      [...(container.command ?? []), ...(container.args ?? [])].some((word) =>
        /(^|\/)pilot-discovery$/.test(String(word)),
      )
    ) {
      return 'it is istiod (runs pilot-discovery)';
    }
  }
  if (labels[LINKERD_CONTROL_PLANE_LABEL] !== undefined)
    return (
      `it is Linkerd's ${labels[LINKERD_CONTROL_PLANE_LABEL]} ` +
      `(pod label ${LINKERD_CONTROL_PLANE_LABEL})`
    );
  const volumes =
    (
      workload.template.spec as
        { volumes?: Array<{ hostPath?: { path?: string } }> } | null | undefined
    )?.volumes ?? [];
  const cni = volumes
    .map((v) => v.hostPath?.path?.replace(/\/+$/, ''))
    .find((path) => path !== undefined && CNI_HOST_PATHS.includes(path));
  if (cni) return `it installs a CNI plugin (mounts host path ${cni})`;
  return undefined;
}

/** Returns an image's name without registry path, tag or digest (`docker.io/istio/pilot:1.30` →
 * `pilot`). */
function imageName(image: string | undefined): string | undefined {
  if (!image) return undefined;
  const withoutDigest = image.split('@')[0]!;
  const last = withoutDigest.slice(withoutDigest.lastIndexOf('/') + 1);
  return last.split(':')[0];
}
