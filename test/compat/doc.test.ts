/** docs/compatibility.md is generated from the table; it must be what the table says now. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { compatibilityMarkdown } from '../../fn/compat/markdown.ts';
import { COMPATIBILITY as CONSTRAINTS } from '../../fn/mutators/compatibility.ts';
import { ROOT } from '../helpers/fixtures.ts';

test('docs/compatibility.md is current (regenerate with npm run docs:compat)', (t) => {
  t.is(
    readFileSync(join(ROOT, 'docs', 'compatibility.md'), 'utf8'),
    compatibilityMarkdown(CONSTRAINTS),
  );
});

test('every constraint names an upstream source with a tag or a URL, and is checked or says where it is enforced', (t) => {
  t.is(new Set(CONSTRAINTS.map((c) => c.id)).size, CONSTRAINTS.length, 'ids are unique');
  for (const c of CONSTRAINTS) {
    t.true(
      c.sources.some((s) => /@([a-z-]+-)?(v?\d|version-)|KEP-\d|#\d|https:\/\//.test(s)),
      `${c.id}: a source with file@tag, KEP or issue`,
    );
    t.true(
      c.check !== undefined || (c.enforcedBy ?? '').length > 0,
      `${c.id}: a check or where it is enforced`,
    );
    t.notRegex(JSON.stringify(c), /DOMAIN/, `${c.id}: cites upstream, not the team notes`);
  }
});

test('a table row that changes makes the generated page differ', (t) => {
  const changed = CONSTRAINTS.map((c, i) => (i === 0 ? { ...c, versions: 'changed' } : c));
  t.not(compatibilityMarkdown(changed), compatibilityMarkdown(CONSTRAINTS));
});
