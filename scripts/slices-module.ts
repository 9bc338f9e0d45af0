/**
 * The text of fn/config/slices.ts: the settings slice of each registered mutator, in the
 * registry's order. fn/config sits below the mutators and cannot read the registry, so the list
 * it composes is generated from it (`npm run generate:slices`), and
 * test/config/settings-slices.test.ts fails when the file is stale.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MUTATORS } from '../fn/mutators/registry.ts';

const MUTATORS_DIR = new URL('../fn/mutators/', import.meta.url).pathname;

/** Returns the module fn/config/slices.ts should be. */
export async function slicesModuleText(): Promise<string> {
  const exported = new Map<unknown, { name: string; from: string }>();
  for (const folder of readdirSync(MUTATORS_DIR, { withFileTypes: true })) {
    const file = join(MUTATORS_DIR, folder.name, 'settings', 'slice.ts');
    // A folder without a slice (shared/) is skipped; a slice that fails to load fails here.
    if (!folder.isDirectory() || !existsSync(file)) continue;
    const module = (await import(file)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module))
      exported.set(value, { name, from: `../mutators/${folder.name}/settings/slice.ts` });
  }
  const slices = MUTATORS.map((mutator) => {
    const found = exported.get(mutator.settings);
    if (!found)
      throw new Error(`${mutator.id}: its settings are not exported by a settings/slice.ts`);
    return found;
  });
  return [
    '// Generated from fn/mutators/registry.ts by `npm run generate:slices`: do not edit.',
    "// The settings slice of each registered mutator, in the registry's order, for fn/config to",
    '// compose into the spec and the flat keys (fn/config/kit/slice.ts).',
    ...slices.map(({ name, from }) => `import { ${name} } from '${from}';`),
    '',
    'export const SLICES = [',
    ...slices.map(({ name }) => `  ${name},`),
    '] as const;',
    '',
  ].join('\n');
}
