/**
 * fn/explain/render/xmlText.ts (issue #33 item 4): markup characters as entities, and no
 * character XML 1.0 forbids, whatever the text; and the SVG of a workload whose names hold them
 * is well-formed.
 */
import test from 'ava';
import fc from 'fast-check';
import { renderWorkloadSvg } from '../../fn/explain/render/svg.ts';
import { xmlText } from '../../fn/explain/render/xmlText.ts';
import { explain } from '../../fn/explain/explain.ts';
import { transform } from '../../fn/engine/transform.ts';
import { hostileStream } from '../helpers/hostileNames.ts';

const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

test('markup characters become entities', (t) => {
  t.is(xmlText('<script>a & "b"</script>'), '&lt;script&gt;a &amp; &quot;b&quot;&lt;/script&gt;');
  t.is(xmlText('line\nnext\ttab'), 'line\nnext\ttab', 'what XML allows stays');
});

test('no character XML 1.0 forbids is left, for any text', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (text) => {
      const xml = xmlText(text);
      return !NOT_XML_CHAR.test(xml) && !/[<>"]/.test(xml);
    }),
    { numRuns: 5000, seed: 33 },
  );
  t.is(xmlText('a\u001bb\u0000\ufffe\ud800'), 'a\\x1bb\\x00\\ufffe\\ud800');
});

test('the SVG of workloads with hostile names: no forbidden character, no tag of theirs', (t) => {
  const explanation = explain(transform(hostileStream(), { flags: { 'sidecar-mode': 'classic' } }));
  t.is(explanation.workloads.length, 2);
  for (const workload of explanation.workloads) {
    const svg = renderWorkloadSvg(workload);
    t.false(NOT_XML_CHAR.test(svg), 'only XML 1.0 characters');
    t.false(
      /<(?!\/?(svg|style|rect|g|text|tspan|title|circle|line|path)[\s>/])/.test(svg),
      'no tag but ours',
    );
    t.true(svg.includes('&lt;script&gt;'), 'the name is shown, escaped');
  }
});
