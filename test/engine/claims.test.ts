/**
 * A mutator that takes its pods whole declares it (`claims`): app-graceful, which fills in for
 * every serving pod, leaves claimed pods alone, whether the claiming mutator is on or off, with
 * no line of its own naming that mutator (issue #32 item 1). Real renders: Istio's bookinfo
 * sample and each claiming mutator's own.
 */
import test from 'ava';
import { formatRef } from '../../fn/core/kubeObject.ts';
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

test('kong-drain claims the Kong pods while on', (t) => {
  const withKong = changedBy(KONG, [kongDrain, appGraceful]);
  t.true(withKong.length > 0);
  t.true(
    withKong.every((c) => c.startsWith('kong-drain ')),
    withKong.join('\n'),
  );
});

/**
 * A claim holds when its mutator is switched off: nothing touches the pods then, app-graceful
 * included, whose preStop sleep would stand in front of a proxy's own drain (on Contour's
 * shutdown-manager, Kong's ingress-controller) and whose plan would guess the length of a hook it
 * does not model.
 */
const OFF_CASES = [
  {
    mode: 'traefik-mode',
    path: ['gateways', 'traefik', 'chart-41.3.0-nlb-istio.yaml'],
    pod: 'Deployment traefik/traefik',
  },
  {
    mode: 'ingress-nginx-mode',
    path: ['gateways', 'ingress-nginx', 'chart-4.15.1-nlb-ip.yaml'],
    pod: 'Deployment ingress-nginx/ingress-nginx-controller',
  },
  {
    mode: 'contour-mode',
    path: ['gateways', 'contour', 'render-1.33.6-nlb-ip.yaml'],
    pod: 'DaemonSet projectcontour/envoy',
  },
  {
    mode: 'kong-mode',
    path: ['gateways', 'kong', 'chart-3.4.1-nlb-ip.yaml'],
    pod: 'Deployment kong/kong-kong',
  },
  {
    mode: 'gateway-mode',
    path: ['corpus', 'istio-gateway-1.30.3-nlb-tuned-env.yaml'],
    pod: 'Deployment istio-system/istio-public-ingressgateway',
  },
  {
    mode: 'job-mode',
    path: ['render-injected', 'istio-1.28.10-job-old-version.yaml.injected'],
    pod: 'Job pi',
  },
] as const;

for (const { mode, path, pod } of OFF_CASES) {
  test(`${mode} off: nothing touches ${pod}, app-graceful included`, (t) => {
    const input = readFileSync(fixturePath(...path), 'utf8');
    // The mutators that changed the pod or said something about it.
    const touched = (flags: Record<string, string>) => {
      const result = transform(input, { flags });
      return [...result.changes, ...result.findings]
        .filter((record) => record.resource !== undefined && formatRef(record.resource) === pod)
        .map((record) => record.mutator);
    };
    t.true(touched({}).length > 0, 'switched on, its mutator changes the pod');
    t.deepEqual(touched({ [mode]: 'off' }), []);
  });
}
