// Writes the registry's mutator ids into docs/explain.schema.json (the `mutator` enum) and
// docs/explain-schema.md (the `"mutator":` line), in the registry's order.
// Run: npm run docs:explain-schema (test/docs/explain-schema-mutators.test.ts fails when stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { MUTATORS } from '../fn/mutators/registry.ts';

const ids = MUTATORS.map((m) => m.id);

const schemaFile = new URL('../docs/explain.schema.json', import.meta.url);
const schema = readFileSync(schemaFile, 'utf8');
const enumList = ids.map((id) => `            ${JSON.stringify(id)}`).join(',\n');
writeFileSync(
  schemaFile,
  schema.replace(
    /("mutator": \{\n\s*"enum": \[\n)[^\]]*(\n\s*\])/,
    (_, open: string, close: string) => `${open}${enumList}${close}`,
  ),
);

const docFile = new URL('../docs/explain-schema.md', import.meta.url);
const doc = readFileSync(docFile, 'utf8');
writeFileSync(
  docFile,
  doc.replace(
    /("mutator": )(?:"[a-z-]+"(?: \| )?)+,/,
    (_, open: string) => `${open}${ids.map((id) => JSON.stringify(id)).join(' | ')},`,
  ),
);
