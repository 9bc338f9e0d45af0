/**
 * Which mesh will inject a sidecar into a workload's pods: never in the namespaces the mesh's
 * injector skips; else pod labels and annotations first (an explicit opt-out wins), then a
 * Namespace in the stream, then namespaces the config names as injected. A proxy already in the
 * template (injected at render time) is recognised as such. Without an Istio sidecar, whether
 * Istio ambient mode captures the pods.
 */
import type { Spec } from '../config/schema.ts';
import { namespaceNamed } from './inventory.ts';
import type { Inventory } from './inventory.ts';
import { annotationsOf, labelsOf } from '../core/kubeObject.ts';
import { renderInjectedIstio, renderInjectedLinkerd } from './renderInjected.ts';
import type { RenderInjectedProxy } from './renderInjected.ts';
import type { Workload } from './workload.ts';

/** Why a mesh proxy is in the pods; `renderInjected` when the template already holds it. */
interface MeshEvidence {
  readonly evidence: string;
  readonly renderInjected?: RenderInjectedProxy;
}

/** The meshes whose proxy the pods get, each with the evidence that decided it. */
export interface MeshMembership {
  readonly istio?: MeshEvidence;
  readonly linkerd?: MeshEvidence;
  /** Istio ambient mode: no sidecar; ztunnel on the node carries the pod's traffic. */
  readonly ambient?: { readonly evidence: string };
}

const ISTIO_INJECT = 'sidecar.istio.io/inject';

/**
 * Namespaces Istio's injector never injects into, whatever the pod or namespace says: checked in
 * injectRequired before any label (pkg/kube/inject/initializer.go@1.30.0 IgnoredNamespaces,
 * pkg/kube/inject/inject.go@1.30.0; the same list in @1.20.0).
 */
const ISTIO_IGNORED_NAMESPACES: readonly string[] = [
  'kube-system',
  'kube-public',
  'kube-node-lease',
  'local-path-storage',
];

/**
 * Namespaces the linkerd-control-plane chart's proxy-injector webhook does not see: its default
 * namespaceSelector excludes them by `kubernetes.io/metadata.name` (charts/linkerd-control-plane/
 * values.yaml@version-2.15 and @version-2.18, proxyInjector.namespaceSelector).
 */
const LINKERD_IGNORED_NAMESPACES: readonly string[] = ['kube-system', 'cert-manager'];

/**
 * Returns why a mesh does not inject into the namespace (Linkerd: unless config lists it), or
 * undefined when it may.
 */
export function meshIgnoresNamespace(
  mesh: 'istio' | 'linkerd',
  namespace: string | undefined,
): string | undefined {
  if (namespace === undefined) return undefined;
  if (mesh === 'istio' && ISTIO_IGNORED_NAMESPACES.includes(namespace)) {
    return (
      `Istio never injects into namespace ${namespace} (IgnoredNamespaces, ` +
      `pkg/kube/inject/initializer.go@1.30.0)`
    );
  }
  if (mesh === 'linkerd' && LINKERD_IGNORED_NAMESPACES.includes(namespace)) {
    return (
      `Linkerd's proxy injector does not see namespace ${namespace} (the chart's default ` +
      `proxyInjector.namespaceSelector, ` +
      `charts/linkerd-control-plane/values.yaml@version-2.18)`
    );
  }
  return undefined;
}
const LINKERD_INJECT = 'linkerd.io/inject';

/** Returns the meshes that inject into this workload's pods. */
export function detectMesh(workload: Workload, inventory: Inventory, spec: Spec): MeshMembership {
  const namespace = workload.ref.namespace;
  const istioRendered = renderInjectedIstio(workload.template);
  const linkerdRendered = renderInjectedLinkerd(workload.template);
  // A proxy already in the template is there whatever the labels say: no webhook removes it.
  const sidecar = istioRendered
    ? istioRendered.evidence
    : istio(workload, inventory, spec, namespace);
  return {
    ...optional('istio', sidecar, istioRendered),
    ...optional(
      'linkerd',
      linkerdRendered ? linkerdRendered.evidence : linkerd(workload, inventory, spec, namespace),
      linkerdRendered,
    ),
    // A pod with a sidecar is not captured by ztunnel (podHasSidecar in
    // cni/pkg/util/podutil.go@1.24.6).
    ...optional(
      'ambient',
      sidecar === undefined ? ambient(workload, inventory, namespace) : undefined,
    ),
  };
}

function optional<K extends string>(
  key: K,
  evidence: string | undefined,
  renderInjected?: RenderInjectedProxy,
): Partial<Record<K, MeshEvidence>> {
  return (
    evidence === undefined
      ? {}
      : { [key]: { evidence, ...(renderInjected ? { renderInjected } : {}) } }
  ) as Partial<Record<K, MeshEvidence>>;
}

function istio(
  workload: Workload,
  inventory: Inventory,
  spec: Spec,
  namespace: string | undefined,
): string | undefined {
  if (meshIgnoresNamespace('istio', namespace)) return undefined;
  const labels = labelsOf(workload.template.metadata);
  const annotations = annotationsOf(workload.template.metadata);
  // The label is what current Istio reads; the annotation is the older form. Either says yes or no.
  const pod = labels[ISTIO_INJECT] ?? annotations[ISTIO_INJECT];
  if (pod === 'false') return undefined;
  if (pod === 'true')
    return (
      `pod template ${labels[ISTIO_INJECT] !== undefined ? 'label' : 'annotation'} ` +
      `${ISTIO_INJECT}: "true"`
    );
  const ns = namespaceNamed(inventory, namespace);
  const nsLabels = labelsOf(ns?.metadata);
  if (nsLabels['istio-injection'] === 'enabled')
    return `Namespace ${namespace} label istio-injection=enabled`;
  if (nsLabels['istio-injection'] !== 'disabled' && nsLabels['istio.io/rev'])
    return `Namespace ${namespace} label istio.io/rev=${nsLabels['istio.io/rev']}`;
  // Revision injection per pod: istiod's `rev.object.sidecar-injector.istio.io` webhook matches a
  // pod label istio.io/rev when the namespace has no injection label (MutatingWebhookConfiguration
  // in test/fixtures/corpus/istiod-1.24.6.yaml).
  const podRevision = labels['istio.io/rev'];
  if (podRevision && nsLabels['istio-injection'] !== 'disabled')
    return `pod template label istio.io/rev=${podRevision}`;
  // A Namespace in the stream that says disabled is what the cluster will get: it wins over config.
  if (nsLabels['istio-injection'] === 'disabled') return undefined;
  if (namespace && spec.mesh.istioInjectedNamespaces.includes(namespace))
    return `namespace ${namespace} is listed in mesh.istioInjectedNamespaces`;
  return undefined;
}

function linkerd(
  workload: Workload,
  inventory: Inventory,
  spec: Spec,
  namespace: string | undefined,
): string | undefined {
  // The chart's namespaceSelector is a default a user may change: listing the namespace says so.
  if (meshIgnoresNamespace('linkerd', namespace))
    return namespace && spec.mesh.linkerdInjectedNamespaces.includes(namespace)
      ? `namespace ${namespace} is listed in mesh.linkerdInjectedNamespaces (which overrides ` +
          `the chart's default webhook namespaceSelector that leaves it out)`
      : undefined;
  const pod = annotationsOf(workload.template.metadata)[LINKERD_INJECT];
  if (pod === 'disabled') return undefined;
  if (pod === 'enabled' || pod === 'ingress')
    return `pod template annotation ${LINKERD_INJECT}: ${pod}`;
  const ns = namespaceNamed(inventory, namespace);
  const nsInject = annotationsOf(ns?.metadata)[LINKERD_INJECT];
  if (nsInject === 'enabled') return `Namespace ${namespace} annotation ${LINKERD_INJECT}: enabled`;
  if (nsInject === 'disabled') return undefined;
  if (namespace && spec.mesh.linkerdInjectedNamespaces.includes(namespace))
    return `namespace ${namespace} is listed in mesh.linkerdInjectedNamespaces`;
  return undefined;
}

const DATAPLANE_MODE = 'istio.io/dataplane-mode';

/**
 * Istio ambient mode, as istio-cni decides it (cni/pkg/util/podutil.go@1.24.6
 * PodRedirectionEnabled): the namespace or the pod is labelled `istio.io/dataplane-mode: ambient`;
 * a pod with a sidecar, a pod labelled `istio.io/dataplane-mode: none`, and a hostNetwork pod are
 * not captured.
 */
function ambient(
  workload: Workload,
  inventory: Inventory,
  namespace: string | undefined,
): string | undefined {
  const podMode = labelsOf(workload.template.metadata)[DATAPLANE_MODE];
  if (podMode === 'none') return undefined;
  if (
    (workload.template.spec as { hostNetwork?: unknown } | null | undefined)?.hostNetwork === true
  )
    return undefined;
  if (podMode === 'ambient') return `pod template label ${DATAPLANE_MODE}: ambient`;
  const nsMode = labelsOf(namespaceNamed(inventory, namespace)?.metadata)[DATAPLANE_MODE];
  return nsMode === 'ambient'
    ? `Namespace ${namespace} label ${DATAPLANE_MODE}=ambient`
    : undefined;
}
