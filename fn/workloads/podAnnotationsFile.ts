/**
 * Whether a legacy (not injected) Istio gateway's proxy can read its pod's annotations, and so
 * `proxy.istio.io/config`.
 *
 * pilot-agent reads the pod's annotations from the downward-API file `./etc/istio/pod/annotations`
 * (relative to its working directory `/`) at start, and applies `proxy.istio.io/config` from it
 * over the mesh defaults ("annotation on gateway, passed through downward API"):
 * pilot/cmd/pilot-agent/config/config.go@1.9.0 (readPodAnnotations,
 * constants.PodInfoAnnotationsPath in pkg/config/constants/constants.go@1.9.0) and @1.16.7
 * (bootstrap.ReadPodAnnotations). The legacy chart mounts that file: a `podinfo` downwardAPI volume
 * with item `annotations` ← `metadata.annotations`, mounted at `/etc/istio/pod`
 * (manifests/charts/gateways/istio-ingress/templates/deployment.yaml@1.9.0, @1.12.0, @1.16.7).
 * Without that volume the annotation never reaches pilot-agent, so this checks the rendered pod.
 */
import type { Container, PodTemplate } from '../core/kubeObject.ts';
import { scalarText } from '../core/scalarText.ts';

/** Where pilot-agent looks for the downward-API files (pkg/config/constants/constants.go@1.9.0). */
export const POD_INFO_MOUNT_PATH = '/etc/istio/pod';

interface DownwardVolume {
  name?: unknown;
  downwardAPI?: {
    items?: Array<{ path?: unknown; fieldRef?: { fieldPath?: unknown } | null }> | null;
  } | null;
}

/**
 * Returns true when `container` mounts a downwardAPI volume at /etc/istio/pod that holds the file
 * `annotations` ← metadata.annotations.
 */
export function mountsPodAnnotations(template: PodTemplate, container: Container): boolean {
  const mounts =
    (
      container as {
        volumeMounts?: Array<{ name?: unknown; mountPath?: unknown; subPath?: unknown }> | null;
      }
    ).volumeMounts ?? [];
  const volumes =
    (template.spec as { volumes?: DownwardVolume[] | null } | null | undefined)?.volumes ?? [];
  return mounts.some((mount) => {
    if (mount === null || typeof mount !== 'object') return false;
    if (
      scalarText(mount.mountPath ?? '').replace(/\/+$/, '') !== POD_INFO_MOUNT_PATH ||
      mount.subPath
    )
      return false;
    const volume = volumes.find(
      (v) => v !== null && typeof v === 'object' && v.name === mount.name,
    );
    const items = volume?.downwardAPI?.items ?? [];
    return (
      Array.isArray(items) &&
      items.some(
        (item) =>
          item?.path === 'annotations' && item.fieldRef?.fieldPath === 'metadata.annotations',
      )
    );
  });
}
