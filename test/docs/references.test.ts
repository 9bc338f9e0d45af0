/**
 * Every path and section the code names is there (issue #32 item 5): a comment that sends the
 * reader to a moved file (`fn/timing/inputs.ts`) or to a design note outside the repository
 * (`STYLE.md`) is a comment that lies. Markdown links are checked by ./links.test.ts.
 *
 * What counts as a reference to this repository: a path under fn/, test/, scripts/, renderer/ or
 * .ci/; a path under docs/ or examples/ whose folder is one of ours (upstream projects have
 * theirs: Contour's examples/render/contour.yaml is cited as file@tag); a `#section` after one of
 * our Markdown files. Placeholders (`fn/mutators/<id>/`, `NAME`) and globs are read as patterns.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import test from 'ava';
import { ROOT } from '../helpers/fixtures.ts';

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // Fixtures are upstream's text; dist is built from fn/.
    if (statSync(path).isDirectory())
      return name === 'fixtures' || name === 'dist' ? [] : filesUnder(path, keep);
    return keep(name) ? [path] : [];
  });
}

/** The comments of a TypeScript file: what a reader is told, not the data tests feed in. */
function commentsOf(text: string): string {
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)].map((m) => m[0]).join('\n');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const headings = [...markdown.matchAll(/^#+ (.*)$/gm)].map((m) => m[1]!);
  return new Set(
    headings.map((h) =>
      h
        .trim()
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-'),
    ),
  );
}

const OURS = /^(fn|test|scripts|renderer|\.ci)\//;
const SHARED = /^(docs|examples)\//;
const PATH =
  /(?<![\w./@-])((?:fn|test|scripts|renderer|docs|examples|\.ci)\/[\w./*<>-]*[\w*>])(#[\w-]+)?(@)?/g; // eslint-disable-line @stylistic/max-len

/**
 * A docs/ or examples/ path is ours when its folder is (`docs/integrations/x.md`) or it is one of
 * our top-level docs (`docs/x.md`); `examples/render` is Contour's.
 */
function sharedIsOurs(path: string): boolean {
  const parts = path.split('/');
  if (parts.length === 2) return path.endsWith('.md');
  return existsSync(join(ROOT, parts[0]!, parts[1]!));
}

/** Returns what `text` names in this repository that is not there. */
function danglingIn(text: string): string[] {
  const dangling: string[] = [];
  for (const [, path, anchor, tagged] of text.matchAll(PATH)) {
    if (tagged || /[*<]|\/[A-Z]+(\/|$)/.test(path!)) continue;
    if (!OURS.test(path!) && !(SHARED.test(path!) && sharedIsOurs(path!))) continue;
    const file = join(ROOT, path!);
    if (!existsSync(file)) dangling.push(path!);
    else if (
      anchor &&
      file.endsWith('.md') &&
      !anchorsOf(readFileSync(file, 'utf8')).has(anchor.slice(1))
    )
      dangling.push(`${path}${anchor}`);
  }
  // The team's design notes are not the product's: no file of the repository may cite them.
  for (const [note] of text.matchAll(/\b(?:STYLE|CONTRACTS|DOMAIN)\.md\b/g)) dangling.push(note);
  return dangling;
}

const SOURCES = [
  ...['fn', 'scripts', 'renderer', '.ci'].flatMap((dir) =>
    existsSync(join(ROOT, dir))
      ? filesUnder(join(ROOT, dir), (n) => /\.(ts|mjs|sh|cjs)$|^run$/.test(n))
      : [],
  ),
  join(ROOT, '.dependency-cruiser.cjs'),
];
// This file's own comments name dangling references as examples.
const TESTS = filesUnder(
  join(ROOT, 'test'),
  (n) => n.endsWith('.ts') && n !== 'references.test.ts',
);
const DOCS = [
  join(ROOT, 'README.md'),
  join(ROOT, 'CONTRIBUTING.md'),
  ...filesUnder(join(ROOT, 'docs'), (n) => n.endsWith('.md')),
];

test('the code and its comments name only paths and sections that are there', (t) => {
  t.true(SOURCES.length > 200, `${SOURCES.length} source files`);
  const dangling = SOURCES.flatMap((file) =>
    danglingIn(readFileSync(file, 'utf8')).map((d) => `${relative(ROOT, file)}: ${d}`),
  );
  t.deepEqual(dangling, []);
});

test("the tests' comments name only paths and sections that are there", (t) => {
  t.true(TESTS.length > 100, `${TESTS.length} test files`);
  const dangling = TESTS.flatMap((file) =>
    danglingIn(commentsOf(readFileSync(file, 'utf8'))).map((d) => `${relative(ROOT, file)}: ${d}`),
  );
  t.deepEqual(dangling, []);
});

test('the docs name only paths and sections that are there', (t) => {
  const dangling = DOCS.flatMap((file) =>
    // Fenced code is an example of a user's files, not a reference to ours.
    danglingIn(readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '')).map(
      (d) => `${relative(ROOT, file)}: ${d}`,
    ),
  );
  t.deepEqual(dangling, []);
});

test('a moved file, a lost section and a note outside the repository are each found', (t) => {
  t.deepEqual(danglingIn('as fn/timing/inputs.ts resolves it'), ['fn/timing/inputs.ts']);
  t.deepEqual(danglingIn('see docs/background.md#no-such-section'), [
    'docs/background.md#no-such-section',
  ]);
  t.deepEqual(danglingIn('(STYLE.md)'), ['STYLE.md']);
  t.deepEqual(danglingIn('docs/background.md#the-timing-model, fn/core/source.ts'), []);
  // Upstream files: cited with their tag, or under a folder this repository does not have.
  t.deepEqual(danglingIn('examples/render/contour.yaml@v1.33.6; docs/deploy/x.md'), []);
});
