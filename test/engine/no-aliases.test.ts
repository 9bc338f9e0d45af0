/**
 * Objects used twice in one value (one resourceRef shared by many KRM results) must be written
 * out in full: kpt's kyaml rejects `*a1` where it expects a mapping ("wrong node kind: expected
 * MappingNode but got AliasNode"), which failed every `kpt fn eval` with two results for one
 * resource.
 */
import test from 'ava';
import { ManifestDocument } from '../../fn/document/manifest.ts';

test('a shared object is written twice, never as an anchor and alias', (t) => {
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'gw' };
  const doc = new ManifestDocument(
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n',
    { document: 1, line: 1 },
  );
  doc.set(
    ['results'],
    [
      { message: 'a', resourceRef: ref },
      { message: 'b', resourceRef: ref },
    ],
  );
  t.notRegex(doc.text, /[&*]a\d/);
  t.is(doc.text.match(/kind: Deployment/g)?.length, 2);
});

test('a shared object in a map rewritten on the syntax tree has no aliases either', (t) => {
  const ref = { name: 'x' };
  const doc = new ManifestDocument('a: {b: 1}\n', { document: 1, line: 1 });
  doc.set(['a', 'c'], { one: ref, two: ref });
  t.notRegex(doc.text, /[&*]a\d/);
});
