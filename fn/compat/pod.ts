/**
 * What a compatibility check sees of one workload: its pod template as the input wrote it and as
 * kube-graceful wrote it, the versions and modes in play, and the namespace's labels. Read with
 * plain data access (no mutator code), so a check cannot agree with a mutator by sharing its bug.
 */
import { parse } from 'yaml';
import type { Spec } from '../config/schema.ts';
import type { Container, PodTemplate } from '../core/kubeObject.ts';
import { comparableGraceSeconds } from '../workloads/grace.ts';
import { ISTIO_PROXY } from '../workloads/meshProxies.ts';

/** The workload a check looks at; `role` is the mutator that handled it. */
export interface CheckedPod {
  readonly role: 'gateway' | 'app' | 'job';
  readonly namespace: string | undefined;
  /** Labels of the workload's Namespace when the stream holds it. */
  readonly namespaceLabels: Readonly<Record<string, string>>;
  readonly before: PodTemplate;
  readonly after: PodTemplate;
  readonly spec: Spec;
}

/** Returns the pod template's annotations (empty when none). */
export function annotations(template: PodTemplate): Record<string, string> {
  return template.metadata?.annotations ?? {};
}

/** Returns the pod template's labels (empty when none). */
export function labels(template: PodTemplate): Record<string, string> {
  return template.metadata?.labels ?? {};
}

/** Returns every container of the template: init containers first, then app containers. */
export function allContainers(template: PodTemplate): Container[] {
  return [...(template.spec?.initContainers ?? []), ...(template.spec?.containers ?? [])];
}

/** Returns the named container, wherever it is. */
export function containerNamed(template: PodTemplate, name: string): Container | undefined {
  return allContainers(template).find((c) => c.name === name);
}

/** Returns the literal value of a container's env entry. */
export function envOf(container: Container | undefined, name: string): string | undefined {
  return container?.env?.find((e) => e.name === name)?.value;
}

/** Returns the terminationGracePeriodSeconds the pod gets (Kubernetes default 30 when unset). */
export function graceSeconds(template: PodTemplate): number {
  return comparableGraceSeconds(template) ?? 30;
}

/**
 * Returns the ProxyConfig pilot-agent builds from the pod: the istio-proxy container's
 * PROXY_CONFIG env (JSON, written by injection), then the `proxy.istio.io/config` annotation
 * applied over it (pilot/cmd/pilot-agent/config/config.go@1.28.10 getMeshConfig: file, then env,
 * then annotation). Unreadable text counts as empty: a check then sees defaults.
 */
export function proxyConfig(template: PodTemplate): Record<string, unknown> {
  const env = readMap(envOf(containerNamed(template, ISTIO_PROXY), 'PROXY_CONFIG'));
  const annotation = readMap(annotations(template)['proxy.istio.io/config']);
  const proxyMetadata = {
    ...(env['proxyMetadata'] as object | undefined),
    ...(annotation['proxyMetadata'] as object | undefined),
  };
  return { ...env, ...annotation, ...(Object.keys(proxyMetadata).length ? { proxyMetadata } : {}) };
}

/** Returns the `proxy.istio.io/config` annotation's fields alone. */
export function proxyConfigAnnotation(template: PodTemplate): Record<string, unknown> {
  return readMap(annotations(template)['proxy.istio.io/config']);
}

function readMap(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = parse(text, { version: '1.1' });
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Returns true when `read(after)` differs from `read(before)`: kube-graceful wrote it. */
export function written<T>(pod: CheckedPod, read: (template: PodTemplate) => T): boolean {
  return JSON.stringify(read(pod.before)) !== JSON.stringify(read(pod.after));
}

/** Returns every preStop `sleep.seconds` in the template, by container. */
export function sleepActions(template: PodTemplate): Array<{ container: string; seconds: number }> {
  return allContainers(template).flatMap((c) => {
    const sleep = (c.lifecycle?.preStop as { sleep?: { seconds?: unknown } } | undefined)?.sleep;
    return sleep && typeof sleep.seconds === 'number'
      ? [{ container: c.name, seconds: sleep.seconds }]
      : [];
  });
}

/**
 * Returns the text of every command and argument of the template's containers (wrappers, quit
 * calls).
 */
export function commandText(template: PodTemplate): string {
  return allContainers(template)
    .map((c) => [...(c.command ?? []), ...(c.args ?? [])].join(' '))
    .join('\n');
}
