/**
 * Native sidecars (Kubernetes sidecar containers) and the mesh annotations that switch a pod's
 * proxy to one, by version: the facts of DOMAIN.md §1–§3 in one place for the Job and app
 * mutators and for explain.
 */
import { atLeast } from '../config/versions.ts';

/** KEP-753: native sidecars are beta and on by default from Kubernetes 1.29 (DOMAIN §1). */
export const NATIVE_SIDECARS_SINCE_KUBERNETES = '1.29';

/** Istio's per-pod switch, read from Istio 1.24 (DOMAIN §2). */
export const ISTIO_NATIVE_ANNOTATION = 'sidecar.istio.io/nativeSidecar';
export const ISTIO_NATIVE_ANNOTATION_SINCE = '1.24';
/** From Istio 1.27 the default is auto: native when kubelets are ≥ 1.33 (DOMAIN §2). */
export const ISTIO_NATIVE_AUTO_SINCE = '1.27';
export const ISTIO_NATIVE_AUTO_KUBELET = '1.33';

/** Linkerd's native-sidecar annotation exists from 2.15; it is the default from 2.20 (DOMAIN §3). */
export const LINKERD_NATIVE_SINCE = '2.15';
export const LINKERD_NATIVE_DEFAULT_SINCE = '2.20';
const LINKERD_NATIVE_NAME = 'proxy-enable-native-sidecar';
/** The annotation under every prefix Linkerd has used: alpha (2.15–2.18), beta (2.19), GA (2.20+). */
export const LINKERD_NATIVE_ANNOTATIONS = ['config.alpha.linkerd.io/', 'config.beta.linkerd.io/', 'config.linkerd.io/'].map((prefix) => prefix + LINKERD_NATIVE_NAME);
/** The wait annotation has only ever been alpha (2.7+, DOMAIN §3). */
export const LINKERD_WAIT_ANNOTATION = 'config.alpha.linkerd.io/proxy-wait-before-exit-seconds';

/** Returns the native-sidecar annotation a Linkerd version reads, or undefined before 2.15. */
export function linkerdNativeAnnotation(version: string): string | undefined {
  if (atLeast(version, LINKERD_NATIVE_DEFAULT_SINCE)) return `config.linkerd.io/${LINKERD_NATIVE_NAME}`;
  if (atLeast(version, '2.19')) return `config.beta.linkerd.io/${LINKERD_NATIVE_NAME}`;
  if (atLeast(version, LINKERD_NATIVE_SINCE)) return `config.alpha.linkerd.io/${LINKERD_NATIVE_NAME}`;
  return undefined;
}
