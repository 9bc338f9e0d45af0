/**
 * What a run keeps besides its output (Keep in fn/engine/pipeline.ts): the transform command
 * without a report asks for no change records, and keeps only the findings it prints (issue #16,
 * peak memory: a dense stream's records and info findings took twice its size). The output must not
 * change, and a ResourceList keeps its records whatever is asked: its results list every change.
 */
import test from 'ava';
import { transform } from '../../fn/engine/transform.ts';
import { denseStream } from '../../scripts/gen-dense.mjs';
import { corpus } from '../helpers/fixtures.ts';

// Bookinfo in two namespaces labelled for Istio's injection: meshed apps with Services.
const bookinfo = Buffer.from(denseStream(2), 'utf8');
const gateway = Buffer.from(corpus('istio-gateway-1.24.6-default.yaml'), 'utf8');

test('a stream run without records: the same output, no records, only warnings and errors', (t) => {
  for (const input of [bookinfo, gateway]) {
    const all = transform(input);
    const lean = transform(input, { records: false });
    t.true(all.changes.length > 0);
    t.true(all.findings.some((f) => f.severity === 'info'));
    t.is(lean.output, all.output);
    t.deepEqual(lean.changes, []);
    t.deepEqual(
      lean.findings,
      all.findings.filter((f) => f.severity !== 'info'),
    );
  }
});

test('a ResourceList keeps its records without being asked: its results list them', (t) => {
  const items = corpus('istio-gateway-1.24.6-default.yaml')
    .split(/^---\n/m)
    .filter((doc) => /^kind:/m.test(doc))
    .map((doc) => doc.trimEnd().replace(/^/gm, '  ').replace(/^ {2}/, '- '));
  const head = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n';
  const list = `${head}${items.join('\n')}\n`;
  const all = transform(list);
  const asked = transform(list, { records: false });
  t.true(all.changes.length > 0);
  t.deepEqual(asked.changes, all.changes);
  t.is(asked.output, all.output);
});
