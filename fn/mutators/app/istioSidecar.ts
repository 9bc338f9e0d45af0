/**
 * Istio: make istio-proxy outlive the app (istio/istio#7136, #10112, #36640). Native mode pins the
 * pod's `sidecar.istio.io/nativeSidecar: "true"` and nothing else (no drain setting acts there);
 * classic mode merges drain settings into `proxy.istio.io/config`, inbound listeners open for the
 * drain window included. Never a `lifecycle` on istio-proxy: an exec preStop replaces Istio's own
 * native drain hook and a sleep preStop merges into an invalid hook with two handlers
 * (docs/background.md#istio).
 */
import { ISTIO_NATIVE_ANNOTATION } from '../../workloads/nativeSidecars.ts';
import type { Spec } from '../../config/schema.ts';
import { annotationsOf } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import { PROXY_CONFIG_ANNOTATION, readProxyConfig } from '../../workloads/istioProxyConfig.ts';
import type { ProposedChange } from '../types.ts';
import { classicDrain } from './istioClassicDrain.ts';
import { inboundDrain } from './istioInboundDrain.ts';
import { chooseSidecarMode } from './sidecarMode.ts';
import type { ModeChoice, SidecarOutcome } from './sidecarMode.ts';
import { drainWindowSource } from './timing.ts';
import type { AppTiming } from './timing.ts';

/** Returns the pod-template changes that keep istio-proxy up until the app has finished. */
export function istioSidecar(
  workload: Workload,
  spec: Spec,
  timing: AppTiming,
  istioVersionKnown: boolean,
): SidecarOutcome {
  const annotations = annotationsOf(workload.template.metadata);
  const pinned = annotations[ISTIO_NATIVE_ANNOTATION];
  const pod =
    pinned === 'true' || pinned === 'false'
      ? {
          native: pinned === 'true',
          evidence: `pod annotation ${ISTIO_NATIVE_ANNOTATION}: "${pinned}"`,
        }
      : undefined;
  const choice = chooseSidecarMode(spec, 'istio', pod);
  const findings = [...choice.findings];
  const changes: ProposedChange[] = [];
  const pin = modePin(workload, spec, timing, choice);
  if (pin) changes.push(pin);
  if (choice.mode === 'native') {
    // Nothing in proxy.istio.io/config to size: Istio's native preStop
    // (`pilot-agent request POST drain`, injection-template.yaml@1.24.0…@1.30.0) drains the inbound
    // listeners with skip_exit (pkg/envoy/agent.go DrainNow → Drain(true),
    // pkg/envoy/admin.go@1.24.0 `&skip_exit`), so Envoy never closes them and drainDuration does
    // not end the accepting; on SIGTERM, after the app, the agent exits at once (agent.go
    // terminate: "already drained"), so terminationDrainDuration, EXIT_ON_ZERO_ACTIVE_CONNECTIONS
    // and MINIMUM_DRAIN_DURATION do nothing either.
    return { mode: choice.mode, changes, findings, usesSidecarWait: false };
  }
  const path = workload.at('metadata', 'annotations', PROXY_CONFIG_ANNOTATION);
  const current: unknown = annotations[PROXY_CONFIG_ANNOTATION];
  const reading = readProxyConfig(current);
  if (!reading.ok) {
    findings.push({
      severity: 'warning',
      code: 'PROXY_CONFIG_UNREADABLE',
      message:
        `${PROXY_CONFIG_ANNOTATION} was left as it is because ${reading.problem}` +
        `; istio-proxy may stop before the app has drained (classic sidecar).`,
      path,
    });
    return { mode: choice.mode, changes, findings, usesSidecarWait: false };
  }
  const steps = [
    (text: string) =>
      classicDrain({ text, fields: reading.fields }, spec, timing, { path, findings }),
    (text: string) =>
      inboundDrain(text, timing, { version: spec.istioVersion, known: istioVersionKnown }),
  ];
  let text: string | undefined = reading.text;
  const lines: string[] = [];
  let usesSidecarWait = false;
  for (const step of steps) {
    const done = step(text);
    if (done === undefined) {
      findings.push({
        severity: 'warning',
        code: 'PROXY_CONFIG_UNREADABLE',
        message:
          `${PROXY_CONFIG_ANNOTATION} could not be merged into without changing ` +
          `other keys; it was left as it is, so istio-proxy may stop before the ` +
          `app has drained.`,
        path,
      });
      return { mode: choice.mode, changes, findings, usesSidecarWait: false };
    }
    text = done.text;
    lines.push(...done.lines);
    usesSidecarWait ||= done.usesSidecarWait ?? false;
  }
  if (text !== reading.text) {
    lines.push(
      `Classic sidecar (${choice.why}); merged into ${PROXY_CONFIG_ANNOTATION}, other keys kept.`,
      drainWindowSource(timing),
    );
    changes.push({ path, value: text, reason: lines.join('\n') });
  }
  return { mode: choice.mode, changes, findings, usesSidecarWait };
}

/**
 * The pod's `sidecar.istio.io/nativeSidecar`, pinned: `"true"` in native mode, `"false"` where
 * classic must be pinned against the mesh's own choice; undefined where nothing is pinned.
 */
function modePin(
  workload: Workload,
  spec: Spec,
  timing: AppTiming,
  choice: ModeChoice,
): ProposedChange | undefined {
  const W = drainWindowSource(timing);
  if (choice.mode === 'native') {
    const reason = [
      `Native sidecar: Kubernetes stops istio-proxy only after every app ` +
        `container has exited (KEP-753), so the proxy outlives the app's ` +
        `preStop (S = ${timing.pod.preStopSeconds.value} s) and its last ` +
        `requests (R = ${timing.inputs.maxRequest.value} s) with no proxy ` +
        `timer to size.`,
      `Pinned per pod because from Istio 1.27 the default depends on every ` +
        `node's kubelet version (pkg/kube/inject/webhook.go@1.27.0 ` +
        `DetectNativeSidecar), which render time cannot see. Mode: ${choice.why}` +
        `.`,
      W,
    ].join('\n');
    return {
      path: workload.at('metadata', 'annotations', ISTIO_NATIVE_ANNOTATION),
      value: 'true',
      reason,
    };
  }
  if (choice.pinClassic) {
    const reason = [
      `Pinned classic: ${choice.why}. Left open, Istio ${spec.istioVersion} ` +
        `would inject a native sidecar when every kubelet is ≥ 1.33 ` +
        `(pkg/kube/inject/webhook.go@1.27.0), where the classic drain settings ` +
        `below do nothing (after the native preStop's drain, pilot-agent exits ` +
        `at once on SIGTERM: pkg/envoy/agent.go@1.27.0 terminate).`,
      W,
    ].join('\n');
    return {
      path: workload.at('metadata', 'annotations', ISTIO_NATIVE_ANNOTATION),
      value: 'false',
      reason,
    };
  }
  return undefined;
}
