/**
 * Every golden case: output and report as reviewed, a second run over the output changes nothing
 * (idempotency), and every changed document is valid against the Kubernetes schemas.
 */
import test from 'ava';
import { expected, goldenCases, reportOf, runCase, validateChangedDocuments } from './helpers/golden.ts';

for (const goldenCase of goldenCases()) {
  test(`golden ${goldenCase.name}`, (t) => {
    const result = runCase(goldenCase);
    t.is(result.output, expected(goldenCase, 'expected.yaml', result.output), 'output differs from expected.yaml');
    t.is(reportOf(result), expected(goldenCase, 'report.txt', reportOf(result)), 'report differs from report.txt');
    const again = runCase(goldenCase, result.output);
    t.deepEqual(again.changes, [], 'a second run over the output must change nothing');
    t.is(again.output, result.output);
    if (result.changes.length > 0) t.true(validateChangedDocuments(result) > 0, 'changed documents must validate against Kubernetes schemas');
  });
}
