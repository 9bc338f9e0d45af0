/**
 * A run with no config, flags or annotations uses the defaults written out as data (schema.ts and
 * the mutators' settings slices) without building the schema (issue #9: start-up). They must be
 * exactly what the schema fills in.
 */
import test from 'ava';
import { loadConfig } from '../../fn/config/load.ts';
import {
  CONFIG_API_VERSION,
  CONFIG_KIND,
  configSchema,
  defaultSpec,
  specSchema,
} from '../../fn/config/schema.ts';

test('the written-out defaults are the schema defaults', (t) => {
  t.deepEqual(defaultSpec(), specSchema().parse({}));
  t.deepEqual(
    defaultSpec(),
    configSchema().parse({ apiVersion: CONFIG_API_VERSION, kind: CONFIG_KIND }).spec,
  );
});

test('a run without config or flags gets the defaults, and a flag still goes through the schema', (t) => {
  t.deepEqual(loadConfig(undefined, {}).spec, specSchema().parse({}));
  t.deepEqual(loadConfig(undefined, { 'kube-version': undefined }).spec, specSchema().parse({}));
  t.is(loadConfig(undefined, { 'max-request': '30' }).spec.timing.maxRequestSeconds, 30);
  t.throws(() => loadConfig(undefined, { 'kube-version': 'banana' }), {
    message: /expected a version/,
  });
});

test('each run gets its own copy of the defaults', (t) => {
  const one = loadConfig(undefined, {});
  one.spec.mesh.istioInjectedNamespaces.push('changed');
  t.deepEqual(loadConfig(undefined, {}).spec.mesh.istioInjectedNamespaces, []);
});

test('kube-version means the oldest kubelet and takes 1.31, 1.31.4 and v1.31.4 (stored without the v)', (t) => {
  for (const [text, stored] of [
    ['1.31', '1.31'],
    ['1.31.4', '1.31.4'],
    ['v1.31.4', '1.31.4'],
    ['v1.29', '1.29'],
  ] as const) {
    t.is(loadConfig(undefined, { 'kube-version': text }).spec.kubernetesVersion, stored, text);
  }
  for (const bad of ['1', 'V1.31', '1.31.4.1', 'v', '1.31-gke.100']) {
    t.throws(
      () => loadConfig(undefined, { 'kube-version': bad }),
      { message: /expected a version like 1\.31, 1\.31\.4 or v1\.31\.4/ },
      bad,
    );
  }
});
