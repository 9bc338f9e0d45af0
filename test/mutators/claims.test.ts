/**
 * A proxy mutator that takes its pods whole (`claims`) keeps them when it is switched off: nothing
 * touches them then, app-graceful included, whose preStop sleep would stand in front of the proxy's
 * own drain (on Contour's shutdown-manager, Kong's ingress-controller) and whose plan would guess
 * the length of a hook it does not model. Run on each proxy's real render, on and off.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { formatRef } from '../../fn/core/kubeObject.ts';
import { transform } from '../../fn/engine/transform.ts';
import { fixturePath } from '../helpers/fixtures.ts';

const CASES = [
  {
    mode: 'traefik-mode',
    render: ['traefik', 'chart-41.3.0-nlb-istio.yaml'],
    pod: 'Deployment traefik/traefik',
  },
  {
    mode: 'ingress-nginx-mode',
    render: ['ingress-nginx', 'chart-4.15.1-nlb-ip.yaml'],
    pod: 'Deployment ingress-nginx/ingress-nginx-controller',
  },
  {
    mode: 'contour-mode',
    render: ['contour', 'render-1.33.6-nlb-ip.yaml'],
    pod: 'DaemonSet projectcontour/envoy',
  },
  {
    mode: 'kong-mode',
    render: ['kong', 'chart-3.4.1-nlb-ip.yaml'],
    pod: 'Deployment kong/kong-kong',
  },
] as const;

for (const { mode, render, pod } of CASES) {
  test(`${mode} off: nothing touches ${pod}, app-graceful included`, (t) => {
    const input = readFileSync(fixturePath('gateways', ...render), 'utf8');
    // What the run changed on the pod and said about it.
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
