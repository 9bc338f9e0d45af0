/**
 * Issue #30: moving a Job's sidecar to `initContainers` removes it from `containers`. Setting
 * `undefined` at a list item's path removes the item with the lines it stands on and leaves every
 * other byte; a shape the splicer does not take (a flow list) falls back to the tree edit, checked
 * all the same.
 */
import test from 'ava';
import { parse } from 'yaml';
import { ManifestDocument } from '../../fn/document/manifest.ts';
import { setAt } from '../../fn/core/fieldPath.ts';
import type { FieldPath } from '../../fn/core/fieldPath.ts';

const place = { document: 1, line: 1 };
const SIDECAR: FieldPath = ['spec', 'containers', { key: 'name', equals: 'proxy' }];

function removed(source: string, path: FieldPath = SIDECAR): string {
  const doc = new ManifestDocument(source, place);
  doc.set(path, undefined);
  return doc.text;
}

test('a block item goes with its lines and comments; the rest is byte for byte', (t) => {
  const source = [
    'spec:',
    '  containers:',
    '    - name: work # the job',
    '      image: busybox',
    '    # the proxy, for the database',
    '    - name: proxy',
    '      image: gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.14.1',
    '      args:',
    '        - "--port=5432" # keep',
    '    - name: last',
    '      image: busybox',
    '  restartPolicy: Never',
    '',
  ].join('\n');
  const out = removed(source);
  t.is(
    out,
    [
      'spec:',
      '  containers:',
      '    - name: work # the job',
      '      image: busybox',
      '    # the proxy, for the database',
      '    - name: last',
      '      image: busybox',
      '  restartPolicy: Never',
      '',
    ].join('\n'),
  );
});

test('the last item of a list not indented under its key, and at the end of the text', (t) => {
  const source = 'spec:\n  containers:\n  - name: work\n  - name: proxy\n    image: x\n';
  t.is(removed(source), 'spec:\n  containers:\n  - name: work\n');
  t.is(removed(source.slice(0, -1)), 'spec:\n  containers:\n  - name: work\n');
});

test('CRLF text keeps its line ends', (t) => {
  const source = 'spec:\r\n  containers:\r\n  - name: proxy\r\n    image: x\r\n  - name: work\r\n';
  t.is(removed(source), 'spec:\r\n  containers:\r\n  - name: work\r\n');
});

test('a flow list falls back to the tree edit, and the data is what setAt says', (t) => {
  const source = 'spec:\n  containers: [{name: work}, {name: proxy, image: x}]\n';
  const out = removed(source);
  t.deepEqual(parse(out), { spec: { containers: [{ name: 'work' }] } });
});

test('removing what is not there changes nothing', (t) => {
  const source = 'spec:\n  containers:\n  - name: work\n';
  t.is(removed(source), source);
  t.deepEqual(setAt({ a: 1 }, ['b'], undefined), { a: 1 });
  t.deepEqual(setAt({ a: 1, b: 2 }, ['b'], undefined), { a: 1 });
});

/** Moves the `proxy` item of `containers` to `initContainers` with `restartPolicy: Always`. */
function moved(source: string, names: readonly string[] = ['proxy']): string {
  const doc = new ManifestDocument(source, place);
  const data = parse(source) as { spec: { containers: Array<Record<string, unknown>> } };
  for (const name of names) {
    const { name: _n, ...fields } = data.spec.containers.find((c) => c.name === name)!;
    doc.set(['spec', 'initContainers', { key: 'name', equals: name }], {
      name,
      restartPolicy: 'Always',
      ...fields,
    });
    doc.set(['spec', 'containers', { key: 'name', equals: name }], undefined);
  }
  return doc.text;
}

const TWO_SIDECARS = [
  'spec:',
  '  containers:',
  '    - name: work',
  '    - name: proxy',
  '      # keep me',
  '      args:',
  '        - "--port=5432" # quoted',
  '    - name: shipper',
  "      image: 'fluent-bit'",
  '',
].join('\n');

test('a moved item keeps its text (comments, quoting) in the new list, with the new field after its first line', (t) => {
  t.is(
    moved(TWO_SIDECARS),
    [
      'spec:',
      '  containers:',
      '    - name: work',
      '    - name: shipper',
      "      image: 'fluent-bit'",
      '  initContainers:',
      '    - name: proxy',
      '      restartPolicy: Always',
      '      # keep me',
      '      args:',
      '        - "--port=5432" # quoted',
      '',
    ].join('\n'),
  );
});

test('two items moved into a list the document lacks go into one list, each with its text', (t) => {
  const out = moved(TWO_SIDECARS, ['proxy', 'shipper']);
  t.is(
    out,
    [
      'spec:',
      '  containers:',
      '    - name: work',
      '  initContainers:',
      '    - name: proxy',
      '      restartPolicy: Always',
      '      # keep me',
      '      args:',
      '        - "--port=5432" # quoted',
      '    - name: shipper',
      '      restartPolicy: Always',
      "      image: 'fluent-bit'",
      '',
    ].join('\n'),
  );
});

test('into a list that exists, at another indentation, and in CRLF text', (t) => {
  const source = [
    'spec:',
    '  initContainers:',
    '  - name: init',
    '  containers:',
    '    - name: proxy # the proxy',
    '      image: p',
    '    - name: work',
    '',
  ].join('\r\n');
  t.is(
    moved(source),
    [
      'spec:',
      '  initContainers:',
      '  - name: init',
      '  - name: proxy # the proxy',
      '    restartPolicy: Always',
      '    image: p',
      '  containers:',
      '    - name: work',
      '',
    ].join('\r\n'),
  );
});

test('an added item that is not the removed one plus fields is written from its data', (t) => {
  const doc = new ManifestDocument(TWO_SIDECARS, place);
  doc.set(['spec', 'initContainers', { key: 'name', equals: 'proxy' }], {
    name: 'proxy',
    restartPolicy: 'Always',
    args: ['--port=5433'],
  });
  doc.set(['spec', 'containers', { key: 'name', equals: 'proxy' }], undefined);
  t.false(doc.text.includes('# keep me'));
  t.deepEqual((parse(doc.text) as { spec: { initContainers: unknown } }).spec.initContainers, [
    { name: 'proxy', restartPolicy: 'Always', args: ['--port=5433'] },
  ]);
});
