/**
 * The registry is the one list of mutators, and a registered mutator is complete (after
 * typescript-eslint's docs meta-test): it has a doc page, every finding code it can emit is
 * declared and documented there, and a golden case shows it at work on a real input.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { MUTATORS } from '../../fn/mutators/registry.ts';
import { goldenCases, runCase } from '../helpers/golden.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const runs = goldenCases().map((goldenCase) => ({
  name: goldenCase.name,
  result: runCase(goldenCase),
}));

/** The finding codes written as literals in a folder's sources (`code: 'X'`). */
function literalCodes(folder: string): string[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      [...readFileSync(join(folder, file), 'utf8').matchAll(/\bcode: '([A-Z0-9_]+)'/g)].map(
        (m) => m[1]!,
      ),
    );
}

test('mutator ids are unique', (t) => {
  const ids = MUTATORS.map((m) => m.id);
  t.deepEqual([...new Set(ids)], ids);
});

for (const mutator of MUTATORS) {
  const doc = join(ROOT, 'docs', 'mutators', `${mutator.id}.md`);

  test(`${mutator.id}: has its doc page, documenting every finding code it declares`, (t) => {
    const text = readFileSync(doc, 'utf8');
    const undocumented = mutator.findingCodes.filter((code) => !text.includes(code));
    t.deepEqual(undocumented, [], `document these codes in docs/mutators/${mutator.id}.md`);
  });

  test(`${mutator.id}: declares every finding code its folder writes`, (t) => {
    const folders = readdirSync(join(ROOT, 'fn', 'mutators'), { withFileTypes: true }).filter(
      (d) => d.isDirectory() && existsSync(join(ROOT, 'fn', 'mutators', d.name, 'index.ts')),
    );
    // The folder is the one whose index registers this id.
    const own = folders.find((d) =>
      readFileSync(join(ROOT, 'fn', 'mutators', d.name, 'index.ts'), 'utf8').includes(
        `id: '${mutator.id}'`,
      ),
    );
    t.truthy(own, `no folder of fn/mutators registers ${mutator.id}`);
    const missing = literalCodes(join(ROOT, 'fn', 'mutators', own!.name)).filter(
      (code) => !mutator.findingCodes.includes(code),
    );
    t.deepEqual([...new Set(missing)], [], `add these to the findingCodes of ${mutator.id}`);
  });

  test(`${mutator.id}: a golden case shows it changing a real input, and every code it emits there is declared`, (t) => {
    const changed = runs.filter((run) => run.result.changes.some((c) => c.mutator === mutator.id));
    t.true(
      changed.length > 0,
      `add a golden case under test/golden/ where ${mutator.id} changes something`,
    );
    const emitted = new Set(
      runs.flatMap((run) =>
        run.result.findings.filter((f) => f.mutator === mutator.id).map((f) => f.code),
      ),
    );
    t.deepEqual(
      [...emitted].filter((code) => !mutator.findingCodes.includes(code)),
      [],
    );
  });
}
