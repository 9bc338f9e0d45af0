/**
 * The product's text stands on its own (issue #17 item 6): no message, report, doc or comment of
 * the product cites the team's design notebook, which users do not have. Background facts live in
 * docs/background.md with their upstream sources, and the findings and reasons point there.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import test from 'ava';
import { ROOT } from '../helpers/fixtures.ts';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

test('fn/, renderer/, docs/, examples/ and the README never cite the design notebook', (t) => {
  const product = [
    ...['fn', 'docs', 'examples'].flatMap((d) => files(join(ROOT, d))),
    join(ROOT, 'README.md'),
    join(ROOT, 'CONTRIBUTING.md'),
    join(ROOT, 'renderer', 'README.md'),
  ].filter((f) => /\.(ts|md|yaml|sh|json)$/.test(f) && !f.endsWith('docs/background.md'));
  t.true(product.length > 50);
  const citing = product
    .filter((f) => /DOMAIN(\.md|\s*§)/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(ROOT, f));
  t.deepEqual(citing, []);
});

test('every docs/background.md section that the product links to exists', (t) => {
  const anchors = new Set(
    [...readFileSync(join(ROOT, 'docs', 'background.md'), 'utf8').matchAll(/^## (.+)$/gm)].map(
      (m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replace(/ /g, '-'),
    ),
  );
  const links = new Set<string>();
  for (const f of files(join(ROOT, 'fn')).concat(files(join(ROOT, 'docs'))))
    for (const m of readFileSync(f, 'utf8').matchAll(/docs\/background\.md#([a-z0-9-]+)/g))
      links.add(m[1]!);
  t.true(links.size >= 4, [...links].join(', '));
  for (const link of links) t.true(anchors.has(link), `docs/background.md has no section #${link}`);
});
