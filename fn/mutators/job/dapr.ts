/**
 * Dapr's sidecar in a Job (issue #30 item 2). The Dapr sidecar injector adds, at admission, a
 * `daprd` container to a pod annotated `dapr.io/enabled` (pkg/injector/patcher/sidecar.go@v1.18.3;
 * the value is read as dapr/kit's IsTruthy: y, yes, true, t, on, 1). daprd runs until it is told to
 * stop, so the Job's pod never completes; Dapr's own answer for Jobs is its shutdown API,
 * `POST /v1.0/shutdown` on port 3500, which the program calls when its work is done
 * (daprdocs/content/en/operations/hosting/kubernetes/kubernetes-job.md in dapr/docs) and after
 * which daprd shuts down gracefully (pkg/api/universal/shutdown.go@v1.18.3). The wrapper makes
 * that call for the program.
 *
 * From Dapr 1.18.0, `dapr.io/enable-native-sidecar` makes daprd a native sidecar
 * (pkg/injector/patcher/sidecar_container.go@v1.18.0; absent @v1.17.0): the Job then completes on
 * a kubelet that runs native sidecars. The Dapr version is not in the stream, so kube-graceful does
 * not write that annotation (an older injector ignores it and the Job hangs); it takes a pod that
 * sets it as its choice.
 */
import { annotationsOf } from '../../core/kubeObject.ts';
import type { PodTemplate } from '../../core/kubeObject.ts';
import { daprQuitEndpoint } from './wrapper.ts';
import type { SidecarQuit } from './sidecarQuit.ts';

export const DAPR_ENABLED = 'dapr.io/enabled';
export const DAPR_NATIVE = 'dapr.io/enable-native-sidecar';

/** The container the injector adds (pkg/injector/consts/consts.go@v1.18.3 SidecarContainerName). */
export const DAPRD = 'daprd';

/** dapr/kit strings.IsTruthy: the only values the injector reads as true. */
function isTruthy(value: string | undefined): boolean {
  return ['y', 'yes', 'true', 't', 'on', '1'].includes((value ?? '').trim().toLowerCase());
}

/** What the pod template asks of the Dapr sidecar injector. */
export interface DaprSidecar {
  /** The injector adds daprd. */
  readonly injected: boolean;
  /** The pod asks for daprd as a native sidecar (Dapr 1.18+). */
  readonly native: boolean;
}

/** Returns what the pod template asks of the Dapr sidecar injector. */
export function daprSidecarOf(template: PodTemplate): DaprSidecar {
  const annotations = annotationsOf(template.metadata);
  return {
    injected: isTruthy(annotations[DAPR_ENABLED]),
    native: isTruthy(annotations[DAPR_NATIVE]),
  };
}

/** How the wrapper ends daprd: its shutdown API. */
export function daprQuit(): SidecarQuit {
  return { name: DAPRD, endpoint: daprQuitEndpoint(), changes: [] };
}
