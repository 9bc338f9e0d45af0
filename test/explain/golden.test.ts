/**
 * Golden tests of `explain` (issue #7): text, JSON and Markdown for the seed thread's NLB gateway,
 * an app with a classic Istio sidecar and hook Jobs. Update with `npm run golden:update:explain`,
 * then review the diff like code. They stay whole files: an explanation is not a copy of the input.
 */
import test from 'ava';
import { explainCases, expectedFile, FORMAT_FILES, runInProcess } from './run.ts';

for (const goldenCase of explainCases()) {
  for (const format of goldenCase.formats) {
    test(`explain golden ${goldenCase.name} (${format})`, async (t) => {
      const run = await runInProcess([
        'explain',
        goldenCase.file,
        '--output',
        format,
        ...goldenCase.args,
      ]);
      t.is(run.exitCode, 0);
      t.deepEqual(run.stderr, []);
      t.is(
        run.stdout,
        expectedFile(goldenCase, FORMAT_FILES[format], run.stdout),
        `${FORMAT_FILES[format]} differs`,
      );
    });
  }
}
