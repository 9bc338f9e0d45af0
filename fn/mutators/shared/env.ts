/**
 * Env entries on the proxy container, set by name (never by index): an existing entry keeps its
 * place and gets the new `value`; a missing one is appended; `env: null` becomes a list.
 * Entries we don't set are never touched. An entry of ours that takes its value from
 * `valueFrom` is the user's wiring: it is left alone and reported (issue #3).
 */
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedChange, ProposedFinding } from '../types.ts';

/** One env entry the mutator wants, and why. */
export interface WantedEnv {
  readonly name: string;
  readonly value: string;
  readonly reason: string;
}

/** The changes for the entries that can be set, and a finding for each held by `valueFrom`. */
export interface EnvOutcome {
  readonly changes: ProposedChange[];
  readonly findings: ProposedFinding[];
}

/** Returns the entry named `name` of the container's env, if any. */
export function envEntry(
  workload: Workload,
  container: string,
  name: string,
): Record<string, unknown> | undefined {
  const env: unknown = workload.containers.find((c) => c.name === container)?.env;
  if (!Array.isArray(env)) return undefined;
  return env.find(
    (e): e is Record<string, unknown> =>
      e !== null && typeof e === 'object' && (e as { name?: unknown }).name === name,
  );
}

/**
 * Returns true when the container's `env` is absent, null or a list (anything else can't be edited
 * by name).
 */
export function envIsEditable(workload: Workload, container: string): boolean {
  const env: unknown = workload.containers.find((c) => c.name === container)?.env;
  return env === undefined || env === null || Array.isArray(env);
}

/**
 * Returns the changes that set each wanted entry's `value` by name, skipping entries held by
 * `valueFrom`.
 */
export function setEnv(
  workload: Workload,
  container: string,
  wanted: readonly WantedEnv[],
): EnvOutcome {
  const outcome: EnvOutcome = { changes: [], findings: [] };
  for (const entry of wanted) {
    const existing = envEntry(workload, container, entry.name);
    const path = workload.containerAt(
      container,
      'env',
      { key: 'name', equals: entry.name },
      'value',
    );
    if (existing?.['valueFrom'] != null) {
      outcome.findings.push(valueFromFinding(workload, container, entry.name, entry.value));
      continue;
    }
    outcome.changes.push({ path, value: entry.value, reason: entry.reason });
  }
  return outcome;
}

/** The finding for an entry of ours that takes its value from `valueFrom`: left alone. */
export function valueFromFinding(
  workload: Workload,
  container: string,
  name: string,
  needed: string,
): ProposedFinding {
  return {
    severity: 'warning',
    code: 'GATEWAY_ENV_VALUE_FROM',
    message:
      `${name} on container ${container} takes its value from valueFrom, ` +
      `so kube-graceful leaves it alone; ` +
      `the drain plan needs ${name}="${needed}". ` +
      `Make sure the referenced value is that, or remove the entry.`,
    path: workload.containerAt(container, 'env', { key: 'name', equals: name }),
  };
}
