/**
 * A mutator that takes its pods whole declares it (`claims`): app-graceful, which fills in for
 * every serving pod, leaves claimed pods alone when the claiming mutator is on, with no line of
 * its own naming that mutator (issue #32 item 1). Real renders: Kong's chart 3.4.1 and Istio's
 * bookinfo sample.
 */
import test from 'ava';
import { transform } from '../../fn/engine/transform.ts';
import { appGraceful } from '../../fn/mutators/app/index.ts';
import { kongDrain } from '../../fn/mutators/kong/index.ts';
import { defineMutator } from '../../fn/mutators/types.ts';
import { KONG_SETTINGS } from '../../fn/mutators/kong/settings/slice.ts';
import { readFileSync } from 'node:fs';
import type { RegisteredMutator } from '../../fn/mutators/types.ts';
import { corpus, fixturePath } from '../helpers/fixtures.ts';

const KONG = readFileSync(fixturePath('gateways', 'kong', 'chart-3.4.1-nlb-ip.yaml'), 'utf8');
const BOOKINFO = corpus('istio-sample-kube-bookinfo.yaml');

/** A mutator that plans nothing and claims every pod whose name has `name`. */
function claimer(name: string) {
  return defineMutator<never, 'claimer'>({
    id: 'claimer',
    settings: KONG_SETTINGS,
    description: 'claims pods by name, changes nothing',
    findingCodes: [],
    enabled: () => true,
    claims: (workload) => workload.ref.name.includes(name),
    mutate: () => ({ changes: [], findings: [] }),
    explain: () => {
      throw new Error('no plan');
    },
  });
}

const changedBy = (input: string, mutators: readonly RegisteredMutator[]) =>
  transform(input, { mutators }).changes.map((c) => `${c.mutator} ${c.resource.name}`);

test("a claimed pod is left to its claimer: app-graceful changes none of a claimed workload's fields", (t) => {
  const all = changedBy(BOOKINFO, [appGraceful]);
  t.true(
    all.some((c) => c.includes('reviews')),
    'app-graceful plans reviews unclaimed',
  );
  const claimed = changedBy(BOOKINFO, [claimer('reviews'), appGraceful]);
  t.false(
    claimed.some((c) => c.includes('reviews')),
    claimed.join('\n'),
  );
  t.deepEqual(
    claimed,
    all.filter((c) => !c.includes('reviews')),
  );
});

test('kong-drain claims the Kong pods while on; off, app-graceful plans them', (t) => {
  const withKong = changedBy(KONG, [kongDrain, appGraceful]);
  t.true(withKong.length > 0);
  t.true(
    withKong.every((c) => c.startsWith('kong-drain ')),
    withKong.join('\n'),
  );
  const config = { spec: { kong: { mode: 'off' } } };
  const off = transform(KONG, {
    mutators: [kongDrain, appGraceful],
    config: {
      data: { apiVersion: 'kube-graceful.dev/v1alpha1', kind: 'GracefulShutdown', ...config },
      origin: 'test',
    },
  }).changes.map((c) => c.mutator);
  t.true(off.length > 0 && off.every((m) => m === 'app-graceful'), off.join(', '));
});
