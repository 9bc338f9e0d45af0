/**
 * The explain JSON schema and its doc name every registered mutator, and only those, in the
 * registry's order (issue #32 item 1: a mutator added to the registry without its schema entry
 * made every explain of it invalid; the doc had lost istio-gateway-api). Both lines are written by
 * `npm run docs:explain-schema` (scripts/explain-schema-mutators.ts) from the registry.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MUTATORS } from '../../fn/mutators/registry.ts';
import { ROOT } from '../helpers/fixtures.ts';

test('docs/explain.schema.json lists exactly the registry’s mutator ids', (t) => {
  const schema = readFileSync(join(ROOT, 'docs', 'explain.schema.json'), 'utf8');
  const listed = /"mutator": \{\s*"enum": \[([^\]]*)\]/.exec(schema)?.[1];
  t.truthy(listed, 'the schema has a mutator enum');
  const ids = JSON.parse(`[${listed}]`) as string[];
  t.deepEqual(
    ids,
    MUTATORS.map((m) => m.id),
    'stale: run npm run docs:explain-schema',
  );
});

test('docs/explain-schema.md names exactly the registry’s mutator ids, in its order', (t) => {
  const doc = readFileSync(join(ROOT, 'docs', 'explain-schema.md'), 'utf8');
  const line = /"mutator": ((?:"[a-z-]+"(?: \| )?)+),/.exec(doc)?.[1];
  t.truthy(line, 'the doc has the mutator line');
  t.deepEqual(
    [...line!.matchAll(/"([a-z-]+)"/g)].map((m) => m[1]),
    MUTATORS.map((m) => m.id),
  );
});
