/**
 * Env mode's drainDuration (Envoy closes its listeners after it, so it must reach past W) and, up
 * to Istio 1.16, the parentShutdownDuration above it: one merge into the pod's
 * `proxy.istio.io/config`, every other field and byte kept (fn/workloads/istioProxyConfig.ts).
 * Injected gateways get the annotation at injection; a legacy gateway's pilot-agent reads it from
 * the downward-API annotations file where the pod mounts it (proxyConfigReach.ts). Where neither
 * holds, nothing is written and a finding says so.
 */
import { formatGoDurationSeconds, parseGoDurationSeconds } from '../../timing/durations.ts';
import type { Derived, TimingInputs, TimingPlan } from '../../timing/model.ts';
import { ISTIO_DEFAULT_DRAIN_DURATION_SECONDS } from '../../timing/platformDefaults.ts';
import { ISTIO } from '../../facts/versionGates.ts';
import type { GatewayShape } from '../../workloads/gatewayShape.ts';
import { PROXY_CONFIG_ANNOTATION, setProxyConfigField } from '../../workloads/istioProxyConfig.ts';
import type { readProxyConfig } from '../../workloads/istioProxyConfig.ts';
import { POD_INFO_MOUNT_PATH } from '../../workloads/podAnnotationsFile.ts';
import type { Workload } from '../../workloads/workload.ts';
import {
  ISTIO_MAX_DRAIN_SECONDS,
  parentShutdownEnforced,
  parentShutdownFor,
} from '../shared/parentShutdown.ts';
import { drainDurationToWrite } from '../shared/istioEnvMode.ts';
import type { ProposedChange, ProposedFinding } from '../types.ts';
import { derivation } from './reasons.ts';
import type { IstioVersion } from './version.ts';

/** What the delivery depends on. */
interface Delivery {
  readonly shape: GatewayShape;
  readonly istio: IstioVersion;
  readonly plan: TimingPlan;
  readonly inputs: TimingInputs;
  /** The annotation where it reaches pilot-agent; undefined where it does not. */
  readonly proxyConfig: ReturnType<typeof readProxyConfig> | undefined;
  /** The annotation's drainDuration: its text, and the seconds Istio reads from it. */
  readonly current: { readonly text: unknown; readonly seconds: number | undefined };
}

/** Returns the change to `proxy.istio.io/config`, or the finding for why there is none. */
export function deliverDrainDuration(
  workload: Workload,
  container: string,
  delivery: Delivery,
): { changes: ProposedChange[]; findings: ProposedFinding[] } {
  const { proxyConfig, plan } = delivery;
  const drain = plan.drainDurationSeconds;
  const drainValue = formatGoDurationSeconds(drain.value);
  const path = workload.at('metadata', 'annotations', PROXY_CONFIG_ANNOTATION);
  if (!proxyConfig) {
    return {
      changes: [],
      findings:
        drain.value > ISTIO_DEFAULT_DRAIN_DURATION_SECONDS
          ? [notDelivered(container, drain, drainValue)]
          : [],
    };
  }
  if (!proxyConfig.ok)
    return { changes: [], findings: [notMergeable(proxyConfig.problem, drainValue, path)] };
  const merge: Merge = { text: proxyConfig.text, written: [], notes: [], findings: [] };
  const change = proxyConfigChange(merge, proxyConfig.fields, delivery, path);
  return { changes: change ? [change] : [], findings: merge.findings };
}

function notDelivered(container: string, drain: Derived, drainValue: string): ProposedFinding {
  return {
    severity: 'warning',
    code: 'GATEWAY_DRAIN_DURATION_NOT_DELIVERED',
    message:
      `This gateway needs drainDuration ${drainValue} (${drain.formula}) so Envoy keeps ` +
      `its listeners open while the load balancer may still send, ` +
      `but it is not injected (legacy chart) and container ${container} does not mount ` +
      `the downward-API file ${POD_INFO_MOUNT_PATH}/annotations, ` +
      `which is how pilot-agent reads ${PROXY_CONFIG_ANNOTATION} without injection ` +
      `(pilot/cmd/pilot-agent/config/config.go@1.16.7): ` +
      `kube-graceful writes nothing that would do nothing. ` +
      `Envoy closes its listeners after ${ISTIO_DEFAULT_DRAIN_DURATION_SECONDS} s. ` +
      `Mount a downwardAPI volume with item annotations ← metadata.annotations at ` +
      `${POD_INFO_MOUNT_PATH} (the legacy chart's podinfo volume), ` +
      `set drainDuration mesh-wide (meshConfig.defaultConfig.drainDuration), ` +
      `or move to the gateway chart.`,
  };
}

function notMergeable(
  problem: string,
  drainValue: string,
  path: ProposedFinding['path'],
): ProposedFinding {
  return {
    severity: 'warning',
    code: 'PROXY_CONFIG_NOT_MERGEABLE',
    message:
      `${PROXY_CONFIG_ANNOTATION} is left as it is: ${problem}. ` +
      `The drain plan needs drainDuration: ` +
      `${drainValue} in it (Envoy closes its listeners after drainDuration); add it by hand.`,
    ...(path ? { path } : {}),
  };
}

/** The annotation's text as fields are merged into it, and what the reason will say. */
interface Merge {
  text: string;
  readonly written: string[];
  readonly notes: string[];
  readonly findings: ProposedFinding[];
}

/** Sets `field` in the merge; false where the text cannot be edited without changing others. */
function mergeField(merge: Merge, field: string, value: string): boolean {
  const next = setProxyConfigField(merge.text, [field], value);
  if (next === undefined) return false;
  merge.text = next;
  merge.written.push(field);
  return true;
}

/**
 * Returns the one change to `proxy.istio.io/config`: drainDuration raised to D where needed, and
 * parentShutdownDuration above the resulting drainDuration where the Istio version may enforce
 * that (parentShutdown.ts). None when the annotation already holds both, or cannot be edited.
 */
function proxyConfigChange(
  merge: Merge,
  fields: Readonly<Record<string, unknown>>,
  delivery: Delivery,
  path: ProposedChange['path'],
): ProposedChange | undefined {
  const { plan, istio, current } = delivery;
  const drain = plan.drainDurationSeconds;
  const drainValue = formatGoDurationSeconds(drain.value);
  const unedited = (): undefined => {
    merge.findings.push(
      notMergeable('it could not be edited without changing other fields', drainValue, path),
    );
    return undefined;
  };
  if (drainDurationToWrite(current, drain.value)) {
    if (!mergeField(merge, 'drainDuration', drainValue)) return unedited();
    if (current.text !== undefined && current.seconds === undefined)
      merge.notes.push(
        `The old value ${JSON.stringify(current.text)} is not a duration Istio can read.`,
      );
  }
  const effectiveDrain = merge.written.includes('drainDuration')
    ? drain.value
    : Math.ceil(current.seconds ?? ISTIO_DEFAULT_DRAIN_DURATION_SECONDS);
  if (effectiveDrain > ISTIO_MAX_DRAIN_SECONDS) merge.findings.push(tooLong(effectiveDrain, path));
  if (parentShutdownEnforced(istio)) {
    const own = fields['parentShutdownDuration'];
    const ownSeconds = typeof own === 'string' ? parseGoDurationSeconds(own) : undefined;
    const parent = parentShutdownFor(
      effectiveDrain,
      ownSeconds === undefined ? undefined : Math.ceil(ownSeconds),
    );
    if (parent) {
      const value = formatGoDurationSeconds(parent.value);
      if (!mergeField(merge, 'parentShutdownDuration', value)) return unedited();
      merge.notes.push(parentShutdownNote(parent, istio));
    }
  }
  if (merge.written.length === 0) return undefined;
  return {
    path,
    value: merge.text,
    reason: proxyConfigReason(merge, fields, delivery),
  };
}

function tooLong(seconds: number, path: ProposedChange['path']): ProposedFinding {
  return {
    severity: 'warning',
    code: 'GATEWAY_DRAIN_DURATION_TOO_LONG',
    message:
      `drainDuration ${seconds} s is over Istio's cap of ${ISTIO_MAX_DRAIN_SECONDS} ` +
      `s (pkg/config/validation/validation.go@1.16.7 drainTimeMax; ` +
      `same in later releases): Istio rejects it. Lower the drain window.`,
    path,
  };
}

function parentShutdownNote(
  parent: Pick<Derived, 'value' | 'formula'>,
  istio: IstioVersion,
): string {
  return (
    `parentShutdownDuration = ${JSON.stringify(formatGoDurationSeconds(parent.value))}: ` +
    `${parent.formula}. Istio up to 1.16 denies a pod whose parentShutdownDuration ` +
    `(default 60 s) is not greater than its drainDuration ` +
    `(pkg/config/validation/validation.go@1.16.7 ValidateParentAndDrain; ` +
    `pkg/kube/inject/validate.go@1.16.7); ` +
    `from ${ISTIO.parentShutdownIgnored.since} the field is ignored. ` +
    `Written because this proxy is Istio ${istio.version} ` +
    `(${istio.source})${istio.known ? '' : ', a version nothing in the manifest states'}.`
  );
}

/** The change's reason: the derivation of drainDuration where written, then the notes. */
function proxyConfigReason(
  { written, notes }: Merge,
  fields: Readonly<Record<string, unknown>>,
  { shape, plan, inputs }: Pick<Delivery, 'shape' | 'plan' | 'inputs'>,
): string {
  const drain = plan.drainDurationSeconds;
  const kept = Object.keys(fields).filter((k) => !written.includes(k));
  notes.push(
    kept.length
      ? `Merged key by key into the existing ${PROXY_CONFIG_ANNOTATION}; kept: ${kept.join(', ')}.`
      : `Istio's default drainDuration is ${ISTIO_DEFAULT_DRAIN_DURATION_SECONDS} s ` +
          `(pkg/config/mesh/mesh.go@1.16.7, unchanged through 1.30).`,
  );
  if (shape === 'legacy') {
    notes.push(
      `This gateway is not injected; its pilot-agent reads ${PROXY_CONFIG_ANNOTATION} from ` +
        `the downward-API file ${POD_INFO_MOUNT_PATH}/annotations, ` +
        `which the pod mounts (pilot/cmd/pilot-agent/config/config.go@1.16.7).`,
    );
  }
  return written.includes('drainDuration')
    ? derivation(
        `${PROXY_CONFIG_ANNOTATION} drainDuration`,
        JSON.stringify(formatGoDurationSeconds(drain.value)),
        [drain],
        { inputs, symbols: ['W', 'B'], notes },
      )
    : // Only parentShutdownDuration: the drainDuration it is measured against is the pod's own.
      [`${PROXY_CONFIG_ANNOTATION} ${notes[0]!}`, ...notes.slice(1)].join('\n');
}
