/**
 * The registry is the one list of mutators, and a registered mutator is complete (after
 * typescript-eslint's docs meta-test): it has a doc page, every finding code it can emit is
 * declared and documented there, and a golden case shows it at work on a real input.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { MUTATORS } from '../../fn/mutators/registry.ts';
import { goldenCases, runCase } from '../helpers/golden.ts';
import { cliPath } from '../helpers/fixtures.ts';
import {
  PAGE_SECTIONS,
  runnableExample,
  sectionTitles,
  withSettingsTable,
} from '../../scripts/mutatorDocPage.ts';

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

  test(`${mutator.id}: its doc page has the template's sections, in order`, (t) => {
    const titles = sectionTitles(readFileSync(doc, 'utf8'));
    t.deepEqual(
      titles.filter((title) => (PAGE_SECTIONS as readonly string[]).includes(title)),
      [...PAGE_SECTIONS],
      `docs/mutators/${mutator.id}.md has ${JSON.stringify(titles)}`,
    );
  });

  test(`${mutator.id}: its doc page's settings table is its settings slice's`, (t) => {
    const page = readFileSync(doc, 'utf8');
    t.is(page, withSettingsTable(page, mutator.settings.key), 'run npm run docs:mutators');
  });

  test(`${mutator.id}: its doc page's example runs and prints what the page shows`, (t) => {
    const example = runnableExample(readFileSync(doc, 'utf8'));
    if (!example) return t.fail('the Example section needs a sh block: kube-graceful … < FILE');
    const run = spawnSync(process.execPath, [cliPath(), ...example.args], {
      cwd: ROOT,
      input: readFileSync(join(ROOT, example.input)),
      encoding: 'utf8',
    });
    t.is(run.status, 0, run.stderr);
    t.true(example.excerpt.length > 0, 'a diff block after the command shows what it prints');
    // The excerpt's lines appear in the output, in order.
    let from = 0;
    for (const line of example.excerpt) {
      const at = run.stdout.indexOf(`${line}\n`, from);
      t.true(at >= 0, `not printed (in this order): ${line}`);
      if (at >= 0) from = at + line.length;
    }
  });
}
