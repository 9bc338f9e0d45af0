/**
 * Issue #2 "done when": every corpus file passes through byte-identical with no mutator enabled,
 * with and without the kind pre-scan, in-process and through the bundled CLI.
 */
import test from 'ava';
import { transform } from '../../fn/engine/transform.ts';
import { runCli, NO_MUTATORS } from '../helpers/cli.ts';
import { corpus, corpusNames } from '../helpers/fixtures.ts';

for (const name of corpusNames()) {
  test(`pass-through ${name}`, (t) => {
    const input = corpus(name);
    t.true(transform(input, { mutators: [] }).output === input, 'pre-scan on');
    t.true(
      transform(input, { mutators: [], parseAll: true }).output === input,
      'every document parsed',
    );
  });
}

test('pass-through through the CLI with every mutator off', (t) => {
  for (const name of [
    'istio-gateway-1.17.8-nlb.yaml',
    'ingress-nginx.yaml',
    'helm4-postrender-input-ingress-nginx.yaml',
    'descheduler-cronjob.yaml',
  ]) {
    const input = corpus(name);
    const run = runCli(NO_MUTATORS, input);
    t.is(run.status, 0, run.stderr);
    t.true(run.stdout === input, name);
  }
});

test('empty stdin gives empty stdout and exit 0 (helm --output-dir sends nothing)', (t) => {
  const run = runCli([], '');
  t.is(run.status, 0);
  t.is(run.stdout, '');
});
