/**
 * Every package the code imports is declared in package.json (issue #14 item 8: the tests used
 * `ajv` that only came in through @kubernetes-models/validate), and none is a runtime dependency:
 * dist/ bundles the product's packages (issue #28). The check is scripts/undeclared-imports.mjs.
 */
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { undeclaredImports } from '../../scripts/undeclared-imports.mjs';

interface Problem {
  folder: string;
  name: string;
  files: string[];
}
const check = undeclaredImports as (root: string) => Problem[];
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

test('fn/, test/ and scripts/ import only packages package.json declares, and it declares no runtime dependencies', (t) => {
  t.deepEqual(check(ROOT), []);
});

test('the check finds undeclared packages, runtime dependencies, dynamic imports and requires, and skips comments', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'kg-deps-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    'package.json',
    JSON.stringify({ name: 'p', dependencies: { run: '1' }, devDependencies: { dev: '1' } }),
  );
  write(
    'fn/a.ts',
    "import { x } from 'dev';\n" +
      "import type { Y } from 'dev';\n" +
      'import {\n' +
      '  z,\n' +
      "} from '@scope/pkg/sub';\n" +
      "import { readFileSync } from 'node:fs';\n" +
      "import { y } from './b.ts';\n" +
      "// import nothing from 'in-a-comment';\n",
  );
  // Spelled in upper case here, so that this file's own text holds no dynamic import for the check.
  write(
    'test/a.test.ts',
    "import 'dev';\nconst m = await IMPORT('lazy');\nconst r = REQUIRE('required/deep');\n"
      .replace('IMPORT', 'import')
      .replace('REQUIRE', 'require'),
  );
  write('scripts/s.mjs', "import { x } from 'dev';\nexport { w } from 'reexported';\n");
  const found = check(root)
    .map((p) => `${p.folder}: ${p.name} ${p.files.join(',')}`)
    .sort();
  t.deepEqual(found, [
    'dependencies: run package.json',
    'fn: @scope/pkg fn/a.ts',
    'scripts: reexported scripts/s.mjs',
    'test: lazy test/a.test.ts',
    'test: required test/a.test.ts',
  ]);
});
