/**
 * bytesLookLikeResourceList answers on stdin's bytes what looksLikeResourceList answers on their
 * latin1 view (the view is no longer made for a ResourceList, issue #16 item 5): the same on every
 * corpus chart, every ResourceList fixture, each as JSON, and on random text around the patterns'
 * edges. A mismatch would send a ResourceList down the stream path or a stream down the list's.
 * A comment after the kind (`kind: ResourceList # …`) is a ResourceList too, through the CLI.
 */
import test from 'ava';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { looksLikeResourceList } from '../../fn/krm/resourceList.ts';
import { bytesLookLikeResourceList } from '../../fn/krm/resourceListBytes.ts';
import { runCli } from '../helpers/cli.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

const same = (bytes: Buffer) =>
  bytesLookLikeResourceList(bytes) === looksLikeResourceList(bytes.toString('latin1'));

function filesIn(folder: string): string[] {
  return readdirSync(join(FIXTURES, folder))
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => join(FIXTURES, folder, name));
}

test('the same answer on every corpus chart and ResourceList fixture, as YAML and as JSON', (t) => {
  const files = [...filesIn('corpus'), ...filesIn('krm')];
  let lists = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    t.true(same(bytes), file);
    if (bytesLookLikeResourceList(bytes)) lists++;
    for (const doc of parseAllDocuments(bytes.toString('utf8'))) {
      let data: unknown;
      try {
        data = doc.errors.length === 0 ? doc.toJSON() : undefined;
      } catch {
        continue; // an alias to an anchor in another document (a corpus case of its own)
      }
      if (data === undefined) continue;
      const json = Buffer.from(JSON.stringify(data, null, 2) ?? 'null');
      t.true(same(json), `${file} as JSON`);
    }
  }
  t.true(lists >= 3, 'the fixtures hold ResourceLists');
});

test('the same answer at the edges of both patterns', (t) => {
  const cases = [
    'kind: ResourceList',
    'kind: ResourceList\n',
    'kind: "ResourceList"\r\n',
    "kind:\t'ResourceList' \t",
    ' kind: ResourceList',
    'kind: ResourceLists',
    'apiVersion: v1\nkind: ResourceList\nitems: []',
    'a: 1\rkind: ResourceList\rb: 2',
    'items:\n- kind: ResourceList',
    'kind: List # ResourceList',
    'kind: ResourceList # from kpt fn source',
    'kind: "ResourceList"\t#c\r\n',
    'kind: ResourceList# not a comment',
    'kind: ResourceList #',
    '{"kind": "ResourceList"}',
    ' \n\t{"apiVersion":"config.kubernetes.io/v1","kind" \n:\n "ResourceList"}',
    '\u00a0{"kind":"ResourceList"}',
    'x{"kind":"ResourceList"}',
    'a: 1\n{"kind": "ResourceList"}',
    '{"kind": "ResourceList',
    '{"kind" "ResourceList"}',
    '{kind: "ResourceList"}',
    '{"kind"',
    '{',
    '',
    'ResourceList',
    '"ResourceList"',
    '{"ResourceList"}',
  ];
  for (const text of cases) {
    for (const bytes of [Buffer.from(text, 'latin1'), Buffer.from(text, 'utf8')])
      t.true(same(bytes), JSON.stringify(text));
  }
});

test('the same answer on random text made of the patterns’ pieces', (t) => {
  const piece = fc.constantFrom(
    'kind',
    '"kind"',
    'kind:',
    'ResourceList',
    '"ResourceList"',
    "'",
    '"',
    ':',
    ' ',
    '\t',
    '\n',
    '\r',
    '\u00a0',
    '\u00e9',
    '{',
    '}',
    'x',
    '# ',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
      const text = pieces.join('');
      return same(Buffer.from(text, 'latin1')) && same(Buffer.from(text, 'utf8'));
    }),
    { numRuns: 3000, seed: 16 },
  );
  t.pass();
});

// A comment after the kind is still a ResourceList (YAML: `#` after a blank starts a comment); it
// used to pass through untouched as a plain stream of one unknown document.
test('a ResourceList whose kind line ends in a comment is read as one', (t) => {
  t.true(looksLikeResourceList('kind: ResourceList # from kpt fn source\nitems: []\n'));
  t.true(looksLikeResourceList("kind: 'ResourceList'\t# c\r\nitems: []\r\n"));
  t.false(looksLikeResourceList('kind: ResourceList#x\nitems: []\n'));
  const input = readFileSync(join(FIXTURES, 'krm', 'rollout-resourcelist.yaml'), 'utf8');
  const commented = input.replace(/^kind: ResourceList$/m, 'kind: ResourceList # from kpt');
  t.not(commented, input);
  const plain = runCli([], input);
  const run = runCli([], commented);
  t.is(run.status, 0, run.stderr);
  t.not(plain.stdout, input);
  t.is(run.stdout, plain.stdout.replace(/^kind: ResourceList$/m, 'kind: ResourceList # from kpt'));
});
