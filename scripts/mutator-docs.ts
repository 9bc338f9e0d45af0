// Writes each registered mutator's settings table into its doc page (docs/mutators/<id>.md),
// from the mutator's settings slice. Run: npm run docs:mutators (test/mutators/registry.test.ts
// fails when a page is stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { MUTATORS } from '../fn/mutators/registry.ts';
import { withSettingsTable } from './mutatorDocPage.ts';

for (const mutator of MUTATORS) {
  const file = new URL(`../docs/mutators/${mutator.id}.md`, import.meta.url);
  writeFileSync(file, withSettingsTable(readFileSync(file, 'utf8'), mutator.settings.key));
}
