// eslint.config.mjs holds every function to 80 lines and 4 parameters (issue #32 item 4). The
// files that once broke the limits were exempt while they were split; the list is gone, and none
// joins it again: no block of the config turns either rule off or loosens it.
import test from 'ava';
import type { Linter } from 'eslint';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/fixtures.ts';

// Imported by its path at run time: a static import would put the config into the TypeScript
// program, and typed linting reads it as a file outside it (allowDefaultProject, the config).
const { default: blocks } = (await import(pathToFileURL(join(ROOT, 'eslint.config.mjs')).href)) as {
  default: Linter.Config[];
};

const LIMITS = {
  'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
  'max-params': ['error', { max: 4 }],
} as const;

for (const [rule, limit] of Object.entries(LIMITS)) {
  test(`${rule} holds for every file, with no exemption`, (t) => {
    const settings = blocks.flatMap((b) => (b.rules?.[rule] === undefined ? [] : [b]));
    t.is(settings.length, 1, `${rule} is set in one block only`);
    t.is(settings[0]!.files, undefined, `${rule} applies to every file`);
    t.deepEqual(settings[0]!.rules![rule], limit);
  });
}
