/**
 * The checks of traefik-drain's compatibility rows (./compatibility.ts): each returns why a
 * Traefik pod as kube-graceful wrote it breaks one of Traefik's constraints, or undefined, and
 * blames only what kube-graceful wrote (the value differs from the input's). Traefik is read the
 * way it reads its own static configuration (./staticConfig/read.ts). They import
 * nothing of the decision beside them: they are an oracle of it, run by test/compat/ on every
 * written pod.
 */
import type { Container, PodTemplate } from '../../core/kubeObject.ts';
import { TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS } from './facts.ts';
import { readStaticConfig } from './staticConfig/read.ts';
import type { EntryPoint } from './staticConfig/read.ts';
import { preStopSeconds } from '../../workloads/preStop.ts';
import { traefikContainers } from './recognise.ts';
import { containerNamed, graceSeconds, written } from '../../compat/pod.ts';
import type { CheckedPod } from '../../compat/pod.ts';

/** What Traefik reads its static configuration from: its args and env. */
function staticInputs(template: PodTemplate): unknown[] {
  return traefikContainers(template.spec).map((c) => [c.name, c.args, c.env]);
}

function entryPointsOf(container: Container): readonly EntryPoint[] {
  const config = readStaticConfig(container);
  return config.source === 'flags' || config.source === 'env' ? config.entryPoints : [];
}

/**
 * Every life-cycle value written on the pod's Traefik containers, `container/entry point/setting` →
 * text.
 */
function lifecycleTexts(template: PodTemplate): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of traefikContainers(template.spec)) {
    for (const ep of entryPointsOf(c)) {
      for (const [setting, value] of Object.entries(ep.lifecycle))
        if (value) out[`${c.name}/${ep.name.toLowerCase()}/${setting}`] = value.text;
    }
  }
  return out;
}

/** traefik-one-static-source: a written flag or variable must be one Traefik reads. */
export function traefikOneStaticSource(pod: CheckedPod): string | undefined {
  if (!written(pod, staticInputs)) return undefined;
  for (const container of traefikContainers(pod.after.spec)) {
    const before = containerNamed(pod.before, container.name);
    if (
      before &&
      JSON.stringify([before.args, before.env]) === JSON.stringify([container.args, container.env])
    )
      continue;
    const now = readStaticConfig(container);
    if (now.source === 'file')
      return (
        `changed the args or env of Traefik container ${container.name}, ` +
        `which reads a configuration file (${now.evidence}): Traefik ignores them`
      );
    if (before && readStaticConfig(before).source === 'env' && now.source === 'flags')
      return (
        `wrote flags on Traefik container ${container.name}, ` +
        `configured by TRAEFIK_* variables: ` +
        `Traefik now reads the flags only and drops every variable`
      );
  }
  return undefined;
}

/** traefik-duration-bare-seconds: every life-cycle value written must be one Traefik can decode. */
export function traefikDurationsReadable(pod: CheckedPod): string | undefined {
  const before = lifecycleTexts(pod.before);
  const unreadable: string[] = [];
  for (const container of traefikContainers(pod.after.spec)) {
    for (const ep of entryPointsOf(container)) {
      for (const [setting, value] of Object.entries(ep.lifecycle)) {
        if (
          !value ||
          before[`${container.name}/${ep.name.toLowerCase()}/${setting}`] === value.text
        )
          continue;
        if (value.seconds === undefined)
          unreadable.push(`${ep.name} ${setting}=${JSON.stringify(value.text)}`);
      }
    }
  }
  return unreadable.length
    ? `wrote ${unreadable.join(', ')}: neither digits (seconds) nor a Go duration, ` +
        `so Traefik does not start`
    : undefined;
}

/** Seconds from SIGTERM until Traefik is done: TCP entry points in parallel, then the UDP ones. */
function shutdownSeconds(container: Container): number {
  const longest = (protocol: 'tcp' | 'udp') =>
    Math.max(
      0,
      ...entryPointsOf(container)
        .filter((ep) => ep.protocol === protocol)
        .map((ep) =>
          Math.ceil(
            (ep.lifecycle.requestAcceptGraceTimeout?.seconds ?? 0) +
              (ep.lifecycle.graceTimeOut?.seconds ?? TRAEFIK_DEFAULT_GRACE_TIMEOUT_SECONDS),
          ),
        ),
    );
  const preStop = preStopSeconds(container.lifecycle?.preStop);
  return (typeof preStop === 'number' ? preStop : 0) + longest('tcp') + longest('udp');
}

/** traefik-shutdown-order: the grace period written must cover Traefik's whole shutdown. */
export function traefikGraceCoversShutdown(pod: CheckedPod): string | undefined {
  if (!written(pod, lifecycleTexts) && !written(pod, graceSeconds)) return undefined;
  const grace = graceSeconds(pod.after);
  for (const container of traefikContainers(pod.after.spec)) {
    const needed = shutdownSeconds(container);
    if (needed > grace)
      return (
        `Traefik container ${container.name} needs ${needed} s after SIGTERM (preStop + the ` +
        `longest TCP entry point's requestAcceptGraceTimeout + graceTimeOut + the UDP ` +
        `ones'), more than terminationGracePeriodSeconds ${grace}`
      );
  }
  return undefined;
}
