/**
 * Each registered mutator's config slice (`settings/slice.ts` in its folder) is composed into the
 * spec schema and the flat keys by fn/config, from fn/config/slices.ts, which is generated from the
 * registry and must not be stale. The slices stay loadable without the mutators (they import only
 * zod and fn/config/kit's helpers), and their flat keys agree with their schema.
 */
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../fn/config/load.ts';
import { FLAT_KEYS } from '../../fn/config/flatKeys.ts';
import { SLICES } from '../../fn/config/slices.ts';
import { defaultSpec } from '../../fn/config/schema.ts';
import { MUTATORS } from '../../fn/mutators/registry.ts';
import { slicesModuleText } from '../../scripts/slices-module.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Every mutator folder with a settings slice. */
const FOLDERS = readdirSync(join(ROOT, 'fn/mutators')).filter((folder) =>
  existsSync(join(ROOT, 'fn/mutators', folder, 'settings', 'slice.ts')),
);

test('fn/config/slices.ts is what the registry generates: one slice per mutator, in its order', async (t) => {
  const text = readFileSync(join(ROOT, 'fn/config/slices.ts'), 'utf8');
  t.is(text, await slicesModuleText(), 'stale: run npm run generate:slices');
  t.deepEqual(
    SLICES.map((slice) => slice.key),
    MUTATORS.map((m) => m.settings.key),
  );
  t.is(new Set(SLICES.map((slice) => slice.key)).size, SLICES.length, 'one spec key per slice');
});

test("every slice's defaults are the spec's defaults under its key", (t) => {
  const spec = defaultSpec() as unknown as Record<string, unknown>;
  for (const slice of SLICES) t.deepEqual(spec[slice.key], slice.defaults, slice.key);
});

function importsOf(file: string): string[] {
  return [
    ...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'";]*?from\s+'([^']+)'/gm),
  ].map((m) => m[1]!);
}

test('a settings slice imports only zod (or zod/mini) and fn/config modules that import nothing of fn/mutators', (t) => {
  for (const folder of FOLDERS) {
    const file = join(ROOT, 'fn/mutators', folder, 'settings', 'slice.ts');
    const imports = importsOf(file);
    t.true(imports.length > 0, file);
    for (const specifier of imports) {
      if (specifier === 'zod' || specifier === 'zod/mini') continue;
      t.regex(
        specifier,
        /^\.\.\/\.\.\/\.\.\/config\/kit\/[A-Za-z]+\.ts$/,
        `${folder}/settings/slice.ts imports ${specifier}`,
      );
      const helper = resolve(dirname(file), specifier);
      for (const inner of importsOf(helper))
        t.false(inner.includes('mutators'), `${specifier} imports ${inner}`);
    }
  }
});

test(`a slice's flat keys set its own part of the spec, and every listed choice passes its schema`, (t) => {
  for (const { key: name, flatKeys: slice } of SLICES) {
    for (const key of [slice.mode, ...slice.details]) {
      t.is(key.specPath[0], name, key.name);
      t.true(FLAT_KEYS.includes(key), `${key.name} is in FLAT_KEYS`);
    }
    t.true(slice.mode.choices !== undefined && slice.mode.choices.length > 1, slice.mode.name);
    for (const choice of slice.mode.choices ?? []) {
      const spec = loadConfig(undefined, { [slice.mode.name]: choice }).spec as unknown as Record<
        string,
        Record<string, unknown>
      >;
      t.is(spec[name]!['mode'], choice, `${slice.mode.name}=${choice}`);
    }
  }
  t.is(new Set(FLAT_KEYS.map((k) => k.name)).size, FLAT_KEYS.length, 'flat key names are unique');
});
