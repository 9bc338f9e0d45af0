/**
 * The engine's own finding codes are declared in one list and documented in docs/findings.md, as
 * each mutator's are on its page (test/mutators/registry.test.ts): `kube-graceful.dev/ignore` and
 * `check --ignore` accept exactly the codes of that list and the mutators' declarations.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ENGINE_FINDING_CODES, findingCodeOwners } from '../../fn/engine/findingCodes.ts';
import { ROOT } from '../helpers/fixtures.ts';

test('every code the engine writes is declared, and documented in docs/findings.md', (t) => {
  const folder = join(ROOT, 'fn', 'engine');
  const written = readdirSync(folder)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => [
      ...readFileSync(join(folder, file), 'utf8').matchAll(/\bcode: '([A-Z0-9_]+)'/g),
    ])
    .map((m) => m[1]!);
  t.deepEqual(
    [...new Set(written)].filter((code) => !ENGINE_FINDING_CODES.includes(code)),
    [],
  );
  const doc = readFileSync(join(ROOT, 'docs', 'findings.md'), 'utf8');
  for (const code of ENGINE_FINDING_CODES) {
    t.true(doc.includes(`\`${code}\``), code);
    t.true(doc.includes(`id="${code.toLowerCase()}"`), `${code}: an anchor SARIF rules link to`);
  }
});

test('the known codes: the engine and every mutator, each with who emits it', (t) => {
  const owners = findingCodeOwners();
  t.deepEqual(owners.get('BAD_ANNOTATION'), ['engine']);
  t.true(owners.get('LB_DEREGISTRATION_TOO_SHORT')!.includes('gateway-drain'));
  t.true(owners.get('LB_DEREGISTRATION_TOO_SHORT')!.length > 1, 'a shared code lists each owner');
});
