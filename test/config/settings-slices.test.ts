/**
 * Each mutator's config slice (fn/mutators/NAME/settings/slice.ts) is composed into the spec schema
 * and the flat keys by fn/config. The slices stay loadable without the mutators (they import only
 * zod and fn/config/kit's helpers), and their flat keys agree with their schema.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../fn/config/load.ts';
import { FLAT_KEYS } from '../../fn/config/flatKeys.ts';
import { APP_FLAT_KEYS } from '../../fn/mutators/app/settings/slice.ts';
import { GATEWAY_FLAT_KEYS } from '../../fn/mutators/gateway/settings/slice.ts';
import { JOB_FLAT_KEYS } from '../../fn/mutators/job/settings/slice.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SLICES = { gateway: GATEWAY_FLAT_KEYS, job: JOB_FLAT_KEYS, app: APP_FLAT_KEYS };

function importsOf(file: string): string[] {
  return [
    ...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'";]*?from\s+'([^']+)'/gm),
  ].map((m) => m[1]!);
}

test('a settings slice imports only zod (or zod/mini) and fn/config modules that import nothing of fn/mutators', (t) => {
  for (const name of Object.keys(SLICES)) {
    const file = join(ROOT, 'fn/mutators', name, 'settings', 'slice.ts');
    const imports = importsOf(file);
    t.true(imports.length > 0, file);
    for (const specifier of imports) {
      if (specifier === 'zod' || specifier === 'zod/mini') continue;
      t.regex(
        specifier,
        /^\.\.\/\.\.\/\.\.\/config\/kit\/[A-Za-z]+\.ts$/,
        `${name}/settings/slice.ts imports ${specifier}`,
      );
      const helper = resolve(dirname(file), specifier);
      for (const inner of importsOf(helper))
        t.false(inner.includes('mutators'), `${specifier} imports ${inner}`);
    }
  }
});

test(`a slice's flat keys set its own part of the spec, and every listed choice passes its schema`, (t) => {
  for (const [name, slice] of Object.entries(SLICES)) {
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
