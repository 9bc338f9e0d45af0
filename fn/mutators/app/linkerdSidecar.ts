/**
 * Linkerd: make linkerd-proxy outlive the app (docs/background.md#linkerd). Native mode pins the
 * pod's `proxy-enable-native-sidecar` annotation under the prefix the target version reads; classic
 * mode sets `proxy-wait-before-exit-seconds = S + R`, which Linkerd turns into a preStop sleep on
 * linkerd-proxy and which must stay below the grace period.
 */
import {
  LINKERD_NATIVE_ANNOTATIONS,
  LINKERD_WAIT_ANNOTATION,
  linkerdNativeAnnotation,
} from '../../workloads/nativeSidecars.ts';
import type { Spec } from '../../config/schema.ts';
import { annotationsOf } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import { chooseSidecarMode } from './sidecarMode.ts';
import type { ModeChoice, SidecarOutcome } from './sidecarMode.ts';
import { drainWindowSource } from './timing.ts';
import type { AppTiming } from './timing.ts';

/** Returns the pod-template changes that keep linkerd-proxy up until the app has finished. */
export function linkerdSidecar(workload: Workload, spec: Spec, timing: AppTiming): SidecarOutcome {
  const annotations = annotationsOf(workload.template.metadata);
  const own = LINKERD_NATIVE_ANNOTATIONS.find(
    (key) => annotations[key] === 'true' || annotations[key] === 'false',
  );
  const pod = own
    ? {
        native: annotations[own] === 'true',
        evidence: `pod annotation ${own}: "${annotations[own]}"`,
      }
    : undefined;
  const choice = chooseSidecarMode(spec, 'linkerd', pod);
  const plan = timing.pod;
  const W = drainWindowSource(timing);
  if (choice.mode === 'native') return nativeOutcome(workload, spec, timing, { choice, own });
  const T = plan.sidecarOutlivesSeconds;
  const existing = Number(annotations[LINKERD_WAIT_ANNOTATION]);
  const keep = Number.isInteger(existing) && existing >= T.value;
  const findings = [...choice.findings];
  if (keep && existing > T.value && existing >= plan.graceSeconds.value) {
    findings.push({
      severity: 'error',
      code: 'LINKERD_WAIT_NOT_BELOW_GRACE',
      message:
        `The pod's ${LINKERD_WAIT_ANNOTATION} is ${existing} s, not below ` +
        `terminationGracePeriodSeconds G = ${plan.graceSeconds.value} s: ` +
        `linkerd-proxy is killed together with the app (the wait is a preStop ` +
        `sleep on linkerd-proxy, which must end within the grace period). ` +
        `Lower it to ${T.value} (S + R) or raise the grace period.`,
      path: workload.at('metadata', 'annotations', LINKERD_WAIT_ANNOTATION),
    });
  }
  const reason = [
    `${T.formula} (G = ${plan.graceSeconds.value}): Linkerd gives ` +
      `linkerd-proxy a preStop sleep of this length.`,
    T.explanation,
    `Classic sidecar (${choice.why}).`,
    W,
  ].join('\n');
  const changes = keep
    ? []
    : [
        {
          path: workload.at('metadata', 'annotations', LINKERD_WAIT_ANNOTATION),
          value: String(T.value),
          reason,
        },
      ];
  if (choice.pinClassic) {
    // Linkerd 2.20 injects native by default (charts/linkerd-control-plane/values.yaml@version-2.20
    // nativeSidecar: true), and ignores the wait there ("Ignored when nativeSidecar=true", same
    // file).
    const key = linkerdNativeAnnotation(spec.linkerdVersion)!;
    changes.push({
      path: workload.at('metadata', 'annotations', key),
      value: 'false',
      reason: [
        `Pinned classic: ${choice.why}. Left open, Linkerd ${spec.linkerdVersion}` +
          ` injects a native sidecar by default, which ignores ` +
          `proxy-wait-before-exit-seconds.`,
        W,
      ].join('\n'),
    });
  }
  return { mode: 'classic', changes, findings, usesSidecarWait: true };
}

/**
 * Native mode: the annotation pinned under the prefix the version reads, unless the pod has one.
 */
function nativeOutcome(
  workload: Workload,
  spec: Spec,
  timing: AppTiming,
  { choice, own }: { readonly choice: ModeChoice; readonly own: string | undefined },
): SidecarOutcome {
  const plan = timing.pod;
  // Native mode was chosen, so the version reads one (≥ 2.15: chooseSidecarMode checked it).
  const key = linkerdNativeAnnotation(spec.linkerdVersion)!;
  const reason = [
    `Native sidecar: Kubernetes stops linkerd-proxy only after every app ` +
      `container has exited (KEP-753), so the proxy outlives the app's ` +
      `preStop (S = ${plan.preStopSeconds.value} s) and its last requests (R ` +
      `= ${timing.inputs.maxRequest.value} s).`,
    `Prefix for Linkerd ${spec.linkerdVersion}: ${key.split('/')[0]}/ ` +
      `(alpha 2.15–2.18, beta 2.19, GA 2.20+: ` +
      `pkg/k8s/labels.go@version-2.15, @version-2.19, @version-2.20). Mode: ${choice.why}` +
      `.`,
    drainWindowSource(timing),
  ].join('\n');
  // The pod's own annotation (any prefix) already decides: nothing to write.
  return {
    mode: 'native',
    changes: own
      ? []
      : [{ path: workload.at('metadata', 'annotations', key), value: 'true', reason }],
    findings: choice.findings,
    usesSidecarWait: false,
  };
}
