// Comments inside a Traefik container's args survive (issue #19 item 2b): the life-cycle flags are
// set as items of the list (a value replaced in its own item, a flag appended), never the list
// as a whole. Real inputs: Traefik's own v2.11.53 CRD example, whose args carry two comment lines
// upstream, and the chart's lifecycle render with comments added by hand
// (test/fixtures/gateways/traefik/README.md).
import { readFileSync } from 'node:fs';
import test from 'ava';
import { transform } from '../../../fn/engine/transform.ts';
import { fixturePath } from '../../helpers/fixtures.ts';

const read = (file: string) => readFileSync(fixturePath('gateways', 'traefik', file), 'utf8');
const comments = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.includes('#'))
    .map((line) => line.slice(line.indexOf('#')));

for (const file of [
  'docs-crd-acme-deployments-v2.11.53.yaml',
  'chart-41.3.0-nlb-lifecycle-commented.yaml',
]) {
  test(`${file}: every comment is in the output, and only the changed items' lines differ`, (t) => {
    const input = read(file);
    const result = transform(input);
    t.true(result.changes.some((c) => c.mutator === 'traefik-drain'));
    t.deepEqual(comments(result.output), comments(input));
    // Every input line is still there, in order, except those of the replaced items.
    const replaced = result.changes.filter(
      (c) => c.mutator === 'traefik-drain' && c.before !== undefined && c.path.at(-2) === 'args',
    );
    const output = result.output.split('\n');
    let at = 0;
    const missing: string[] = [];
    for (const line of input.split('\n')) {
      const found = output.indexOf(line, at);
      if (found === -1) missing.push(line);
      else at = found + 1;
    }
    t.is(missing.length, replaced.length, missing.join('\n'));
  });
}

test('the commented chart render: the trailing comment stays on the flag whose value changes', (t) => {
  const output = transform(read('chart-41.3.0-nlb-lifecycle-commented.yaml')).output;
  t.true(
    output.includes(
      '        # web: long-lived clients behind the NLB (ticket OPS-1234)\n' +
        '        - --entryPoints.web.transport.lifeCycle.graceTimeOut=20s  # raise with care\n',
    ),
  );
});
