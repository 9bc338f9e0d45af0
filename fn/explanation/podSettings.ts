/**
 * What Kubernetes, Istio and Linkerd read from a pod template at shutdown, and the defaults they
 * fall back to (docs/background.md): the values a timeline is drawn from, each with where it came
 * from. Only reading here: no duration is decided (the timing model does that, fn/timing/model.ts).
 */
import { parseDocument } from 'yaml';
import { parseGoBool } from '../core/goBool.ts';
import type { Spec } from '../config/schema.ts';
import { toData } from '../document/manifest.ts';
import { isRecord } from '../core/fieldPath.ts';
import { parseGoDurationSeconds } from '../timing/durations.ts';
import { annotationsOf } from '../core/kubeObject.ts';
import { scalarText } from '../core/scalarText.ts';
import { readPreStop } from '../workloads/preStop.ts';
import {
  ISTIO_NATIVE_ANNOTATION,
  LINKERD_NATIVE_ANNOTATIONS,
  LINKERD_WAIT_ANNOTATION,
} from '../workloads/nativeSidecars.ts';
import type { PreStopRead as HookRead } from '../workloads/preStop.ts';
import type { Container, PodTemplate } from '../core/kubeObject.ts';
import { parseOptions } from '../yaml/options.ts';
import { readProxyConfigEnv } from '../workloads/istioProxyConfigEnv.ts';
import {
  proxyConfigEnvText,
  renderInjectedIstio,
  renderInjectedLinkerd,
} from '../workloads/renderInjected.ts';
import { PROXY_CONFIG_ANNOTATION } from '../workloads/istioProxyConfig.ts';
import {
  ISTIO_DEFAULT_DRAIN_DURATION_SECONDS,
  ISTIO_DEFAULT_MINIMUM_DRAIN_SECONDS,
  ISTIO_DEFAULT_TERMINATION_DRAIN_SECONDS,
  KUBERNETES_DEFAULT_GRACE_SECONDS,
  KUBERNETES_DEFAULT_PROBE,
} from '../timing/platformDefaults.ts';
import { comparableGraceSeconds } from '../workloads/grace.ts';
import { LINKERD_PROXY } from '../workloads/meshProxies.ts';
import { ISTIO, KUBERNETES, LINKERD, reached } from '../facts/versionGates.ts';

/** A value as the platform will use it, and in words where it came from. */
export interface Valued<T> {
  readonly value: T;
  readonly source: string;
  /** The value as the manifest writes it, where `value` is only what the model compares. */
  readonly display?: string;
  /** True when the platform's default applies: the manifest sets no value it can read. */
  readonly isDefault?: boolean;
}

/** Returns the grace period the pods get: the field, or the Kubernetes default. */
export function graceOf(template: PodTemplate): Valued<number> {
  const value = comparableGraceSeconds(template);
  const written = template.spec?.terminationGracePeriodSeconds;
  if (value !== undefined)
    return value === written
      ? { value, source: 'manifest' }
      : { value, source: 'manifest', display: `${String(written)} s` };
  return {
    value: KUBERNETES_DEFAULT_GRACE_SECONDS,
    source: 'Kubernetes default, field not set',
    isDefault: true,
  };
}

/**
 * A container's preStop hook as the kubelet will run it; `seconds: 0` and text "none" without one.
 */
export type PreStopRead =
  HookRead | { readonly seconds: 0; readonly handler?: undefined; readonly text: 'none' };

/**
 * Returns what a container's preStop hook does (docs/background.md#kubernetes-pod-termination: one
 * handler per hook).
 */
export function preStopOf(
  container: Container | undefined,
  kubernetesVersion?: string,
): PreStopRead {
  return (
    readPreStop(container?.lifecycle?.preStop, kubernetesVersion) ?? { seconds: 0, text: 'none' }
  );
}

/** The fields of `proxy.istio.io/config`, or an empty map when absent or unreadable. */
export interface ProxyConfigFields {
  readonly fields: Readonly<Record<string, unknown>>;
  /** Set when the annotation is there but Istio could not read it either. */
  readonly problem?: string;
}

/**
 * Returns the ProxyConfig fields of a pod template's annotation (Istio applies it at injection).
 */
export function proxyConfigOf(template: PodTemplate): ProxyConfigFields {
  // Injected at render time: PROXY_CONFIG on istio-proxy first, the annotation applied over it
  // (pilot/cmd/pilot-agent/config/config.go@1.28.10 getMeshConfig).
  const env = renderInjectedIstio(template)
    ? readProxyConfigEnv(proxyConfigEnvText(template))
    : undefined;
  const envFields = env?.ok ? env.fields : {};
  const annotation = annotationProxyConfig(template);
  return { ...annotation, fields: { ...envFields, ...annotation.fields } };
}

function annotationProxyConfig(template: PodTemplate): ProxyConfigFields {
  const text = annotationsOf(template.metadata)[PROXY_CONFIG_ANNOTATION];
  if (text === undefined || text === null || String(text).trim() === '') return { fields: {} };
  const doc = parseDocument(String(text), parseOptions());
  if (doc.errors.length > 0) return { fields: {}, problem: 'not valid YAML' };
  let data: unknown;
  try {
    data = toData(doc);
  } catch {
    return { fields: {}, problem: 'not readable' };
  }
  return isRecord(data) ? { fields: data } : { fields: {}, problem: 'not a mapping' };
}

/**
 * Istio's drain settings for one proxy, as pilot-agent will read them (docs/background.md#istio).
 */
export interface IstioDrainSettings {
  readonly exitOnZero: Valued<boolean>;
  readonly minimumDrainSeconds: Valued<number>;
  readonly drainDurationSeconds: Valued<number>;
  readonly terminationDrainSeconds: Valued<number>;
}

/** Where a proxy's settings can come from: its container (gateways) and whether it is injected. */
export interface IstioProxySource {
  readonly template: PodTemplate;
  /** The istio-proxy container in the template (gateways), if any. */
  readonly container?: Container;
  /** False for the legacy gateway chart, whose pods are not injected. */
  readonly injected: boolean;
  /**
   * A legacy gateway whose proxy container mounts the downward-API annotations file: pilot-agent
   * then reads `proxy.istio.io/config` itself (fn/workloads/podAnnotationsFile.ts).
   */
  readonly readsAnnotationsFile?: boolean;
}

/**
 * Returns the drain settings pilot-agent will use: container env first (the injector lets the
 * pod's own env win by name), then `proxyMetadata` (env at injection), then Istio's defaults.
 * Durations Istio cannot parse fall back to the default, as Istio does (docs/background.md#istio).
 */
export function istioDrainSettings(source: IstioProxySource): IstioDrainSettings {
  const applies = source.injected || source.readsAnnotationsFile === true;
  const config = applies ? proxyConfigOf(source.template) : { fields: {} };
  const metadata = isRecord(config.fields['proxyMetadata']) ? config.fields['proxyMetadata'] : {};
  const env = (name: string): Valued<string> | undefined => {
    const entry = (source.container?.env ?? []).find((e) => e?.name === name);
    if (entry && typeof entry.value === 'string')
      return { value: entry.value, source: `env ${name} on container ${source.container?.name}` };
    if (entry?.valueFrom)
      return {
        value: '',
        source: `env ${name} on container ${source.container?.name} (valueFrom: not readable here)`,
      };
    const meta = metadata[name];
    if (meta !== undefined && meta !== null)
      return {
        value: scalarText(meta),
        source: `proxyMetadata.${name} in ${PROXY_CONFIG_ANNOTATION}`,
      };
    return undefined;
  };
  const notInjected = applies
    ? ''
    : `; not injected and the pod's annotations are not mounted, ` +
      `so ${PROXY_CONFIG_ANNOTATION} does not apply (a mesh-wide meshConfig value is not ` +
      `visible here)`;
  const field = (name: string, fallback: number): Valued<number> => {
    const raw = config.fields[name];
    if (raw === undefined || raw === null)
      return { value: fallback, source: `Istio default (not set${notInjected})`, isDefault: true };
    const seconds = parseGoDurationSeconds(scalarText(raw));
    if (seconds === undefined)
      return {
        value: fallback,
        source:
          `${name} ${JSON.stringify(scalarText(raw))} in ${PROXY_CONFIG_ANNOTATION} is not a ` +
          `Go duration: Istio uses its default`,
        isDefault: true,
      };
    return { value: Math.ceil(seconds), source: `${PROXY_CONFIG_ANNOTATION}` };
  };
  const exit = env('EXIT_ON_ZERO_ACTIVE_CONNECTIONS');
  const minimum = env('MINIMUM_DRAIN_DURATION');
  const minimumSeconds = minimum === undefined ? undefined : parseGoDurationSeconds(minimum.value);
  return {
    exitOnZero:
      exit === undefined
        ? { value: false, source: 'not set (Istio default: off)', isDefault: true }
        : {
            value: parseGoBool(exit.value) === true,
            source: exit.source,
          },
    minimumDrainSeconds:
      minimum === undefined
        ? {
            value: ISTIO_DEFAULT_MINIMUM_DRAIN_SECONDS,
            source: 'Istio default (not set)',
            isDefault: true,
          }
        : minimumSeconds === undefined
          ? {
              value: ISTIO_DEFAULT_MINIMUM_DRAIN_SECONDS,
              source:
                `${minimum.source}: ${JSON.stringify(minimum.value)} is not a Go duration, ` +
                `so Istio uses its default`,
              isDefault: true,
            }
          : { value: Math.ceil(minimumSeconds), source: minimum.source },
    drainDurationSeconds: field('drainDuration', ISTIO_DEFAULT_DRAIN_DURATION_SECONDS),
    terminationDrainSeconds: field(
      'terminationDrainDuration',
      ISTIO_DEFAULT_TERMINATION_DRAIN_SECONDS,
    ),
  };
}

/** Native (Kubernetes sidecar container) or classic sidecar. */
export type SidecarKind = 'native' | 'classic';

/**
 * Returns whether Istio injects istio-proxy as a native sidecar: the pod's annotation (read from
 * 1.24), else Istio's default (auto from 1.27: native on kubelets ≥ 1.33;
 * docs/background.md#istio). Native needs Kubernetes ≥ 1.29 (KEP-753,
 * docs/background.md#kubernetes-pod-termination).
 */
export function istioSidecarKind(template: PodTemplate, spec: Spec): Valued<SidecarKind> {
  const rendered = renderInjectedIstio(template);
  if (rendered) return { value: rendered.native ? 'native' : 'classic', source: rendered.evidence };
  const pinned = annotationsOf(template.metadata)[ISTIO_NATIVE_ANNOTATION];
  const versions = `Istio ${spec.istioVersion} on Kubernetes ${spec.kubernetesVersion}`;
  if (
    (pinned === 'true' || pinned === 'false') &&
    reached(ISTIO.nativeAnnotation, spec.istioVersion)
  ) {
    if (pinned === 'true' && !reached(KUBERNETES.nativeSidecars, spec.kubernetesVersion))
      return {
        value: 'classic',
        source:
          `${ISTIO_NATIVE_ANNOTATION}: "true", ` +
          `but Kubernetes ${spec.kubernetesVersion} < ${KUBERNETES.nativeSidecars.since} ` +
          `has no native sidecars`,
      };
    return {
      value: pinned === 'true' ? 'native' : 'classic',
      source: `annotation ${ISTIO_NATIVE_ANNOTATION}: "${pinned}"`,
    };
  }
  if (
    reached(ISTIO.nativeAuto, spec.istioVersion) &&
    reached(ISTIO.nativeAutoKubelet, spec.kubernetesVersion)
  )
    return {
      value: 'native',
      source:
        `Istio default for ${versions}: ` +
        `auto picks native on kubelets ≥ ${ISTIO.nativeAutoKubelet.since}`,
    };
  return { value: 'classic', source: `Istio default for ${versions}` };
}

/**
 * Returns whether Linkerd injects linkerd-proxy as a native sidecar (docs/background.md#linkerd).
 */
export function linkerdSidecarKind(template: PodTemplate, spec: Spec): Valued<SidecarKind> {
  const rendered = renderInjectedLinkerd(template);
  if (rendered) return { value: rendered.native ? 'native' : 'classic', source: rendered.evidence };
  const annotations = annotationsOf(template.metadata);
  const key = LINKERD_NATIVE_ANNOTATIONS.find(
    (k) => annotations[k] === 'true' || annotations[k] === 'false',
  );
  if (key)
    return {
      value: annotations[key] === 'true' ? 'native' : 'classic',
      source: `annotation ${key}: "${annotations[key]}"`,
    };
  if (reached(LINKERD.nativeDefault, spec.linkerdVersion))
    return {
      value: 'native',
      source:
        `Linkerd default for ${spec.linkerdVersion}: ` +
        `native from ${LINKERD.nativeDefault.since}`,
    };
  return { value: 'classic', source: `Linkerd default for ${spec.linkerdVersion}` };
}

/**
 * Returns Linkerd's `proxy-wait-before-exit-seconds` (a preStop sleep on linkerd-proxy), 0 when
 * unset.
 */
export function linkerdWaitOf(template: PodTemplate): Valued<number> {
  if (renderInjectedLinkerd(template)) {
    // What the annotation became at injection: a preStop sleep on linkerd-proxy
    // (_proxy.tpl@version-2.18).
    const hook = readPreStop(
      (template.spec?.containers ?? []).find((c) => c?.name === LINKERD_PROXY)?.lifecycle?.preStop,
    );
    return hook && typeof hook.seconds === 'number'
      ? { value: hook.seconds, source: 'preStop on linkerd-proxy (injected at render time)' }
      : {
          value: 0,
          source:
            'no preStop on linkerd-proxy (injected at render time: linkerd-proxy stops at once)',
        };
  }
  const text = annotationsOf(template.metadata)[LINKERD_WAIT_ANNOTATION];
  if (text === undefined) return { value: 0, source: 'not set (linkerd-proxy stops at once)' };
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    return {
      value: 0,
      source: `${LINKERD_WAIT_ANNOTATION}: ${JSON.stringify(text)} is not whole seconds`,
    };
  return { value, source: `annotation ${LINKERD_WAIT_ANNOTATION}` };
}

/**
 * Returns how long after a container's readiness starts failing the kubelet has marked it unready
 * at the latest: periodSeconds × failureThreshold of its readiness probe (the Kubernetes defaults
 * where unset; 0 without a probe: the container is ready while it runs).
 */
export function readinessDelayOf(container: Container | undefined): Valued<number> {
  const probe = container?.readinessProbe;
  if (probe === undefined || probe === null)
    return { value: 0, source: 'no readinessProbe', isDefault: true };
  const whole = (value: unknown): number | undefined =>
    typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
  const period = whole(probe.periodSeconds);
  const threshold = whole(probe.failureThreshold);
  const p = period ?? KUBERNETES_DEFAULT_PROBE.periodSeconds;
  const t = threshold ?? KUBERNETES_DEFAULT_PROBE.failureThreshold;
  const said = (v: number | undefined, name: string, d: number) =>
    v === undefined ? `${name} ${d} (Kubernetes default)` : `${name} ${v}`;
  return {
    value: p * t,
    source:
      `readinessProbe ${said(period, 'periodSeconds', p)} × ` +
      `${said(threshold, 'failureThreshold', t)}`,
  };
}

/**
 * Returns how long after a container's readiness starts failing the kubelet still counts it ready
 * at least: (failureThreshold − 1) × periodSeconds of its readiness probe (the first failing probe
 * may come at once; the Kubernetes defaults where unset). Undefined without a probe.
 */
export function readinessHoldOf(container: Container | undefined): Valued<number> | undefined {
  const probe = container?.readinessProbe;
  if (probe === undefined || probe === null) return undefined;
  const whole = (value: unknown): number | undefined =>
    typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
  const p = whole(probe.periodSeconds) ?? KUBERNETES_DEFAULT_PROBE.periodSeconds;
  const t = whole(probe.failureThreshold) ?? KUBERNETES_DEFAULT_PROBE.failureThreshold;
  return {
    value: (t - 1) * p,
    source: `readinessProbe (failureThreshold ${t} − 1) × periodSeconds ${p}`,
  };
}
