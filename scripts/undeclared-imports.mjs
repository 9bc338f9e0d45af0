// Lists the packages that code imports without package.json declaring them (issue #14 item 8: the
// tests used `ajv`, which only came in through @kubernetes-models/validate). A package found only
// through another's dependencies can vanish with that package's next release.
//
// node scripts/undeclared-imports.mjs    prints `folder: package (file, …)` per problem; exit 1
//                                        if any
//
// fn/ is the product, and scripts/build.mjs bundles all of it, packages included, into dist/: the
// package has no `dependencies` (an install would fetch what it never loads, issue #28), so fn/,
// test/ and scripts/ alike import `devDependencies`, and a `dependencies` entry is itself a
// problem. test/integration/packaging.test.ts checks that the bundle loads only Node's own
// modules. Only literal specifiers are seen (`import … from 'x'`, `import('x')`,
// `require('x')`); a computed one (test/helpers/schema.ts's kubernetes-models paths) is not.
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = /\.(?:[cm]?[jt]s|tsx)$/;
/** `import … from 'x'` or `export … from 'x'`, `import 'x'`, `import('x')` or `require('x')`. */
const SPECIFIER = new RegExp(
  [
    String.raw`^\s*(?:import|export)\b[^;'"]*?\bfrom\s*(['"])([^'"\n]+)\1`,
    String.raw`^\s*import\s*(['"])([^'"\n]+)\3`,
    String.raw`\b(?:import|require)\s*\(\s*(['"])([^'"\n]+)\5\s*\)`,
  ].join('|'),
  'gm',
);
/** Comment lines (`//`, `/*`, ` *`): examples in prose are no imports. */
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*).*$/gm;

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`); undefined for relative,
 * absolute and built-in ones. */
export function packageOf(specifier) {
  if (
    /^[./]/.test(specifier) ||
    specifier.startsWith('node:') ||
    builtinModules.includes(specifier.split('/')[0])
  )
    return undefined;
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'fixtures' || entry.name === 'golden')
      continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(entry.name)) yield path;
  }
}

/**
 * Returns `{ folder, name, files }` for each package a folder imports that package.json does not
 * declare, and one with folder `dependencies` for each runtime dependency declared.
 */
export function undeclaredImports(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const declared = new Set(Object.keys(pkg.devDependencies ?? {}));
  const problems = new Map(
    Object.keys(pkg.dependencies ?? {}).map((name) => [
      `dependencies\0${name}`,
      { folder: 'dependencies', name, files: new Set(['package.json']) },
    ]),
  );
  for (const folder of ['fn', 'test', 'scripts']) {
    let files;
    try {
      files = [...sourceFiles(join(root, folder))];
    } catch {
      continue;
    }
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8')
        .replace(COMMENT_LINE, '')
        .matchAll(SPECIFIER)) {
        const name = packageOf(match[2] ?? match[4] ?? match[6]);
        if (name === undefined || declared.has(name) || name === pkg.name) continue;
        const key = `${folder}\0${name}`;
        if (!problems.has(key)) problems.set(key, { folder, name, files: new Set() });
        problems.get(key).files.add(relative(root, file));
      }
    }
  }
  return [...problems.values()].map((p) => ({ ...p, files: [...p.files].sort() }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = undeclaredImports(fileURLToPath(new URL('..', import.meta.url)));
  for (const p of problems)
    console.error(
      p.folder === 'dependencies'
        ? `package.json: ${p.name} is in dependencies, but dist/ bundles it: ` +
            'move it to devDependencies'
        : `${p.folder}: ${p.name} is imported (${p.files.join(', ')}) ` +
            'but not in package.json devDependencies',
    );
  process.exit(problems.length > 0 ? 1 : 0);
}
