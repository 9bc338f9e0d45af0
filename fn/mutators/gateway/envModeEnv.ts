/**
 * Env mode's decision (fn/mutators/shared/istioEnvMode.ts) written onto the proxy container: the
 * entries to set by name, and a finding for each user's value kept although the plan needs
 * another.
 */
import { formatGoDurationSeconds } from '../../timing/durations.ts';
import type { TimingInputs, TimingPlan } from '../../timing/model.ts';
import type { EnvEntryDecision, EnvModeDecision } from '../shared/istioEnvMode.ts';
import { envEntry, setEnv, valueFromFinding } from '../shared/env.ts';
import type { EnvOutcome } from '../shared/env.ts';
import type { ProposedFinding } from '../types.ts';
import type { Workload } from '../../workloads/workload.ts';
import { derivation } from './reasons.ts';
import { ISTIO } from '../../facts/versionGates.ts';

/** The plan and what the reasons name. */
interface Planned {
  readonly plan: TimingPlan;
  readonly inputs: TimingInputs;
  /** `Istio <version> (<where it was read>)`. */
  readonly version: string;
}

/** Returns the env changes of env mode on `container`, and findings for values kept. */
export function envModeEnv(
  workload: Workload,
  container: string,
  decision: EnvModeDecision,
  { plan, inputs, version }: Planned,
): EnvOutcome {
  const outcome: EnvOutcome = { changes: [], findings: [] };
  const on = { workload, container };
  const M = plan.minimumDrainSeconds;
  const needed = `${formatGoDurationSeconds(M.value)} (${M.formula})`;
  const minimum = entryOutcome(on, 'MINIMUM_DRAIN_DURATION', decision.minimum, {
    value: formatGoDurationSeconds(M.value),
    needed,
    why:
      'Istio reads only a Go duration in value and falls back to 5 s otherwise ' +
      '(pilot/cmd/pilot-agent/options/options.go@1.24.6)',
    reason: (value) =>
      derivation('MINIMUM_DRAIN_DURATION', JSON.stringify(value), [M, plan.preStopSeconds], {
        inputs,
        symbols: ['W'],
        notes: [
          'Go duration text: Istio reads it with time.ParseDuration and silently falls ' +
            'back to 5 s on a bare number (pilot/cmd/pilot-agent/options/options.go@1.24.6, ' +
            'pkg/env/var.go@1.24.6 DurationVar.Lookup).',
        ],
      }),
  });
  const exit = entryOutcome(on, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS', decision.exit, {
    value: 'true',
    needed: '"true"',
    why:
      'without it pilot-agent does not exit at zero connections after MINIMUM_DRAIN_DURATION ' +
      'but kills Envoy after terminationDrainDuration (5 s by default) once draining starts ' +
      '(pkg/envoy/agent.go@1.24.6 terminate), and the plan does not hold',
    reason: () =>
      `EXIT_ON_ZERO_ACTIVE_CONNECTIONS = "true": ` +
      `after MINIMUM_DRAIN_DURATION the proxy exits once Envoy has no active ` +
      `connections, instead of being killed after terminationDrainDuration ` +
      `(pkg/envoy/agent.go@1.24.6 terminate). ` +
      `Needs Istio ≥ ${ISTIO.exitOnZero.since} (agent.go@1.12.0): ${version}.`,
  });
  for (const part of [minimum, exit]) {
    outcome.changes.push(...part.changes);
    outcome.findings.push(...part.findings);
  }
  return outcome;
}

/** What an entry's finding and reason say. */
interface EntryText {
  /** The value the plan needs. */
  readonly value: string;
  /** The same, with its formula. */
  readonly needed: string;
  /** Why a value of another kind does not hold the plan. */
  readonly why: string;
  readonly reason: (value: string) => string;
}

function entryOutcome(
  { workload, container }: { readonly workload: Workload; readonly container: string },
  name: string,
  decision: EnvEntryDecision,
  text: EntryText,
): EnvOutcome {
  if (decision.kind === 'write')
    return setEnv(workload, container, [
      { name, value: decision.value, reason: text.reason(decision.value) },
    ]);
  if (decision.kind !== 'other') return { changes: [], findings: [] };
  const entry = envEntry(workload, container, name);
  const finding: ProposedFinding =
    // A valueFrom is the user's wiring.
    entry?.['valueFrom'] != null
      ? valueFromFinding(workload, container, name, text.value)
      : {
          severity: 'warning',
          code: 'GATEWAY_ENV_VALUE_OTHER',
          message:
            `${name} on container ${container} is ${JSON.stringify(entry?.['value'] ?? null)}; ` +
            `kube-graceful keeps a user's value, but the plan needs ${text.needed}: ` +
            `${text.why}. Change it, or remove the entry so kube-graceful sets it.`,
          path: workload.containerAt(container, 'env', { key: 'name', equals: name }),
        };
  return { changes: [], findings: [finding] };
}
