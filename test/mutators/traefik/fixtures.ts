/** The Traefik fixtures (test/fixtures/gateways/traefik, real renders and Traefik's own manifests),
 * parsed as Kubernetes reads them. */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { recognizeServiceLoadBalancer } from '../../helpers/recognize.ts';
import type { KubeObject } from '../../../fn/core/kubeObject.ts';
import type { TraefikSettings } from '../../../fn/mutators/traefik/decide.ts';
import { fixturePath } from '../../helpers/fixtures.ts';
import { fromDefault, fromEvidence } from '../../helpers/sources.ts';

/** Returns every document of a fixture as plain data (YAML 1.1, as the engine reads). */
export function objects(file: string): KubeObject[] {
  const text = readFileSync(fixturePath('gateways', 'traefik', file), 'utf8');
  return parseAllDocuments(text, { version: '1.1' })
    .map((doc) => doc.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null && typeof o === 'object');
}

/** Returns the one object of that kind and name (name optional when there is one of the kind). */
export function find(all: readonly KubeObject[], kind: string, name?: string): KubeObject {
  const found = all.filter(
    (o) => o.kind === kind && (name === undefined || o.metadata?.name === name),
  );
  if (found.length !== 1)
    throw new Error(`expected one ${kind} ${name ?? ''}, found ${found.length}`);
  return found[0]!;
}

/**
 * W and the AWS target-group timing from the fixture's own Service (the engine's load-balancer
 * recogniser, passed on as fn/mutators/shared/timingInputs.ts does), R = 20 and B = 5 (the
 * defaults).
 */
export function settingsFromService(service: KubeObject): TraefikSettings {
  const lb = recognizeServiceLoadBalancer(service);
  const group = lb.targetGroup;
  return {
    drainWindow: { value: lb.drainWindowSeconds, source: fromEvidence(lb.evidence) },
    maxRequest: { value: 20, source: fromDefault('max-request') },
    buffer: { value: 5, source: fromDefault('buffer') },
    ...(group?.deregistrationDelaySeconds === undefined
      ? {}
      : {
          loadBalancer: {
            deregistrationDelaySeconds: {
              value: group.deregistrationDelaySeconds,
              source: group.deregistrationDelayIsDefault
                ? { kind: 'target-group', isDefault: true }
                : { kind: 'target-group', isDefault: false, where: 'on the Service' },
            },
            connectionTermination: group.connectionTermination ?? false,
          },
        }),
  };
}

/** A deep copy, for cases that change a real object (a config file, env, a preStop). */
export function copy<T>(value: T): T {
  return structuredClone(value);
}

/** A plan's changes, as planTraefik returns them. */
interface Changes {
  readonly changes: ReadonlyArray<{ readonly path: readonly unknown[]; readonly value: unknown }>;
}

/**
 * The container's args once a plan's changes are made: items set one by one (a value replaced at
 * its index, a flag appended one past the end), or the whole list when the plan had to set it.
 */
export function argsAfter(outcome: Changes, before: unknown): unknown[] {
  let args = Array.isArray(before) ? [...(before as unknown[])] : [];
  for (const { path, value } of outcome.changes) {
    const last = path.at(-1);
    if (last === 'args') args = [...(value as unknown[])];
    else if (path.at(-2) === 'args' && typeof last === 'number') args[last] = value;
  }
  return args;
}

/** The changes of a plan that set items of the args, and the others. */
export function splitArgChanges<C extends Changes['changes'][number]>(
  changes: readonly C[],
): {
  items: C[];
  others: C[];
} {
  const isItem = (c: C) => c.path.at(-2) === 'args' && typeof c.path.at(-1) === 'number';
  return { items: changes.filter(isItem), others: changes.filter((c) => !isItem(c)) };
}
