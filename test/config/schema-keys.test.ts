/** The keys did-you-mean chooses from are the schema's own, at each depth (issue #28). */
import test from 'ava';
import { configSchema } from '../../fn/config/schema.ts';
import { keysAt } from '../../fn/config/schemaKeys.ts';

test('keysAt reads object keys through defaults, optionals, pipes and lists', (t) => {
  const schema = configSchema();
  t.deepEqual(keysAt(schema, []), ['apiVersion', 'kind', 'metadata', 'spec']);
  t.true(keysAt(schema, ['spec']).includes('kubernetesVersion'));
  t.deepEqual(keysAt(schema, ['spec', 'timing']), [
    'maxRequestSeconds',
    'bufferSeconds',
    'nodeShutdownBudgetSeconds',
    'nodeShutdownPreset',
  ]);
  t.deepEqual(keysAt(schema, ['spec', 'include', 0]), ['kind', 'name', 'namespace', 'labels']);
  t.deepEqual(keysAt(schema, ['spec', 'kubernetesVersion']), [], 'a string has no keys');
  t.deepEqual(keysAt(schema, ['spec', 'nothing']), []);
});
