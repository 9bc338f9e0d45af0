/**
 * Every relative link in the project's Markdown leads to a file or folder that is there (issue
 * #32 item 5: a dangling reference is a doc that lies; issue #28 item 8 turned the README's
 * backticked paths into links). Web links and in-page anchors are not fetched or checked here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import test from 'ava';
import { ROOT } from '../helpers/fixtures.ts';

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const FILES = [
  join(ROOT, 'README.md'),
  join(ROOT, 'CONTRIBUTING.md'),
  join(ROOT, 'renderer', 'README.md'),
  ...markdownUnder(join(ROOT, 'docs')),
  ...markdownUnder(join(ROOT, 'examples')),
];

test('every relative Markdown link of the README, docs and examples leads somewhere', (t) => {
  t.true(FILES.length > 20, `${FILES.length} files`);
  const dangling: string[] = [];
  let links = 0;
  for (const file of FILES) {
    // Fenced code is not Markdown: `](x)` there is text.
    const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target!)) continue;
      links += 1;
      const path = join(dirname(file), target!.split('#')[0]!);
      if (!existsSync(path)) dangling.push(`${relative(ROOT, file)}: ${target}`);
    }
  }
  t.true(links > 30, `${links} links`);
  t.deepEqual(dangling, []);
});
