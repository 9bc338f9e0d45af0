/**
 * A mutator for engine tests: sets fields of every kind of shape, so edits can be checked on any
 * input.
 */
import { defineMutator } from '../../fn/mutators/types.ts';
import type { RegisteredMutator, ProposedChange } from '../../fn/mutators/types.ts';
import { APP_SETTINGS } from '../../fn/mutators/app/settings/slice.ts';

/** Test mutators make no plan, so nothing asks them to explain one. */
const noPlan = (): never => {
  throw new Error('a test mutator makes no plan');
};

export const probeMutator: RegisteredMutator = defineMutator<never, 'app-graceful'>({
  id: 'app-graceful',
  settings: APP_SETTINGS,
  findingCodes: [],
  explain: noPlan,
  description: 'engine test probe',
  enabled: () => true,
  mutate(workload) {
    const changes: ProposedChange[] = [
      {
        path: workload.at('spec', 'terminationGracePeriodSeconds'),
        value: 99,
        reason: 'probe grace',
      },
      {
        path: workload.at('metadata', 'annotations', 'probe.example/on'),
        value: 'yes',
        reason: 'probe annotation (a YAML 1.1 boolean word)',
      },
    ];
    for (const container of workload.containers) {
      changes.push({
        path: workload.containerAt(
          container.name,
          'env',
          { key: 'name', equals: 'PROBE' },
          'value',
        ),
        value: '0644',
        reason: 'probe env',
      });
      changes.push({
        path: workload.containerAt(container.name, 'lifecycle', 'preStop'),
        value: { sleep: { seconds: 7 } },
        reason: 'probe preStop',
      });
    }
    return { changes, findings: [] };
  },
});
