// The values the envoy-gateway logic writes, applied to the real EnvoyProxy examples, against the
// real CRD's spec.shutdown schema at v1.9.0, v1.5.9 (Gateway API Duration pattern) and v1.4.6
// (plain string); and a second plan over the written object changes nothing.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { parse } from 'yaml';
import { setAt } from '../../../fn/core/fieldPath.ts';
import { formatDuration } from '../../../fn/mutators/envoy-gateway/durations.ts';
import { planEnvoyGateway } from '../../../fn/mutators/envoy-gateway/index.ts';
import type { KubeObject } from '../../../fn/core/kubeObject.ts';
import { fixture } from './fixtures.ts';
import { fromDefault } from '../../helpers/sources.ts';

interface ShutdownSchema {
  properties: Record<string, { type: string; pattern?: string }>;
}

function schema(tag: string): ShutdownSchema {
  return parse(
    readFileSync(
      new URL(
        `../../fixtures/gateways/envoy-gateway/crd-${tag}-envoyproxy-shutdown-schema.yaml`,
        import.meta.url,
      ),
      'utf8',
    ),
  ) as ShutdownSchema;
}

const DEFAULTS = {
  maxRequest: { value: 20, source: fromDefault('max-request') },
  buffer: { value: 5, source: fromDefault('buffer') },
};
const INPUTS = [
  'examples-v1.9.0-envoy-proxy-config-nlb.yaml',
  'examples-v1.9.0-envoy-proxy-config.yaml',
  'examples-v1.9.0-mergepatch.yaml',
  'docs-v1.9.0-graceful-shutdown-gateway-level.yaml',
];

function patched(name: string): KubeObject[] {
  const objects = fixture(name);
  const plan = planEnvoyGateway(objects, DEFAULTS);
  return objects.map((object) => {
    const entry = plan.outcomes.find((o) => o.target.object === object);
    return (entry?.outcome.changes ?? []).reduce<KubeObject>(
      (root, change) => setAt(root, change.path, change.value) as KubeObject,
      object,
    );
  });
}

for (const tag of ['v1.9.0', 'v1.5.9', 'v1.4.6']) {
  test(`written spec.shutdown fields are accepted by the EnvoyProxy CRD at ${tag}`, (t) => {
    const { properties } = schema(tag);
    let checked = 0;
    for (const name of INPUTS) {
      for (const proxy of patched(name).filter((o) => o.kind === 'EnvoyProxy')) {
        for (const [field, value] of Object.entries(
          proxy.spec.shutdown as Record<string, unknown>,
        )) {
          // The user's own field, from the v1.9.0 docs.
          if (field === 'healthCheckFailureDelay' && tag !== 'v1.9.0') continue;
          const property = properties[field];
          t.truthy(property, `${name}: ${field} is in the ${tag} schema`);
          t.is<string, string>(typeof value, property!.type, `${name}: ${field}`);
          if (property!.pattern)
            t.regex(String(value), new RegExp(property!.pattern), `${name}: ${field}`);
          checked += 1;
        }
      }
    }
    // Fewer since a drainTimeout below the 60 s default is no longer written (issue #27 item 6).
    t.true(checked >= 6, `checked ${checked} fields`);
  });
}

test('durations above five digits of seconds are written in hours, minutes and seconds the v1.9.0 pattern accepts', (t) => {
  const pattern = new RegExp(schema('v1.9.0').properties.drainTimeout!.pattern!);
  t.is(formatDuration(99_999), '99999s');
  t.is(formatDuration(100_000), '27h46m40s');
  t.regex(formatDuration(100_000), pattern);
  t.notRegex(`${100_000}s`, pattern, 'the plain form would be refused');
});

test('a second plan over the written EnvoyProxies changes nothing', (t) => {
  for (const name of INPUTS) {
    const again = planEnvoyGateway(patched(name), DEFAULTS);
    t.deepEqual(
      again.outcomes.flatMap((o) => o.outcome.changes),
      [],
      name,
    );
  }
});
