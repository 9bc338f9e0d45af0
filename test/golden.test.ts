/**
 * Every golden case: the input with `expected.diff` applied is the output byte for byte, the report
 * is as reviewed, a second run over the output changes nothing (idempotency), and every changed
 * document is valid against the Kubernetes schemas. Every error case (`expected.err`) fails with
 * the exit code and stderr reviewed, and nothing on stdout.
 */
import test from 'ava';
import { labelledDiff } from './helpers/goldenDiff.ts';
import {
  commandOutcome,
  errorText,
  EXPECTED_DIFF,
  EXPECTED_ERR,
  expected,
  goldenErrorCases,
  expectedOutput,
  goldenCases,
  reportOf,
  runCase,
  validateChangedDocuments,
} from './helpers/golden.ts';

for (const goldenCase of goldenCases()) {
  test(`golden ${goldenCase.name}`, (t) => {
    const result = runCase(goldenCase);
    const want = expectedOutput(goldenCase, result.output);
    // A failure shows only the lines that differ (ava would print both multi-megabyte strings).
    if (result.output === want) t.pass();
    else
      t.fail(
        `output differs from ${goldenCase.inputName} + ${EXPECTED_DIFF}:\n` +
          labelledDiff('expected', 'actual', want, result.output),
      );
    t.is(
      reportOf(result),
      expected(goldenCase, 'report.txt', reportOf(result)),
      'report differs from report.txt',
    );
    const again = runCase(goldenCase, result.output);
    t.deepEqual(again.changes, [], 'a second run over the output must change nothing');
    t.is(again.output, result.output);
    if (result.changes.length > 0)
      t.true(
        validateChangedDocuments(result) > 0,
        'changed documents must validate against Kubernetes schemas',
      );
  });
}

for (const goldenCase of goldenErrorCases()) {
  test(`golden ${goldenCase.name} fails as reviewed`, async (t) => {
    const outcome = await commandOutcome(goldenCase);
    t.not(outcome.exitCode, 0, 'an error case must fail');
    t.is(outcome.stdout, '', 'nothing half-written on stdout');
    t.is(errorText(outcome), expected(goldenCase, EXPECTED_ERR, errorText(outcome)));
  });
}
