/**
 * Issue #34 item 1: the pre-scan of a ResourceList item that is a flow mapping names its kind only
 * when every parse of the text agrees (fn/document/prescanFlow.ts). Checked on hand-picked texts,
 * on texts made of flow fragments (fast-check), and on every corpus document written as JSON.
 */
import test from 'ava';
import fc from 'fast-check';
import { parseAllDocuments, parseDocument } from 'yaml';
import { prescanFlowKind } from '../../fn/document/prescanFlow.ts';
import { parseOptions } from '../../fn/yaml/options.ts';
import { corpus, corpusNames } from '../helpers/fixtures.ts';
import { propertyParameters } from '../helpers/reliability-runs.ts';

const SURE: Array<[string, string]> = [
  ['{apiVersion: v1, kind: ConfigMap, data: {a: b}}', 'ConfigMap'],
  ['{"apiVersion":"v1","kind":"Pod"}', 'Pod'],
  ["{'kind': 'Job'}", 'Job'],
  ['{a: "}", kind: Job}', 'Job'],
  ["{a: don't, kind: Job}", 'Job'],
  ['{a: [1, {b: "]"}], kind: Job}', 'Job'],
  ['{a: http://x:80/y, kind: Job}', 'Job'],
  ['{a: "x\\"}", kind: Job}', 'Job'],
  ["{a: 'it''s }', kind: Job}", 'Job'],
  ['{a: b, # kind: Pod\n  kind: Job}', 'Job'],
  ['{\n  "kind": "Job",\n  "spec": {\n    "x": 1\n  }\n}\n# after\n', 'Job'],
  ['{kind: Job, flag}', 'Job'],
];

const UNSURE: string[] = [
  '{kind: Config Map}', // two words
  '{kind: Config\n  Map}', // a plain scalar folded over lines
  '{kind: !!str Job}', // a tag
  '{kind: &a Job}', // an anchor
  '{kind: *a}', // an alias
  '{? kind : Job}', // an explicit key
  '{kind:Job}', // one plain scalar, `kind:Job`, with no value
  '{kind: Job, kind: Pod}', // a duplicate key
  '{kind: Job} trailing', // more after the mapping
  '{kind: Job', // not closed
  '{a: b}', // no kind
  '{"ki\\u006ed": Job}', // an escaped key (parsed, not guessed)
  '{kind: "Jo\\x62"}', // an escaped value
  '[kind, Job]', // not a mapping
  'kind: Job', // block, the block pre-scan's
  '{kind: [Job]}', // not a word
];

test('hand-picked flow mappings: the kind where it is sure, nothing where it is not', (t) => {
  for (const [text, kind] of SURE) {
    t.is(prescanFlowKind(text), kind, text);
    t.is((parseDocument(text, parseOptions()).toJS() as { kind: string }).kind, kind, text);
  }
  for (const text of UNSURE) t.is(prescanFlowKind(text), undefined, text);
});

const FRAGMENTS = [
  '{',
  '}',
  '[',
  ']',
  ', ',
  ',',
  ': ',
  ':',
  'kind',
  '"kind"',
  "'kind'",
  'Job',
  '"Pod"',
  "'Config'",
  'Config Map',
  'a',
  '"a}b"',
  "'a]b'",
  "'it''s'",
  '"x\\"y"',
  "don't",
  'http://x:1',
  ' # c\n',
  '#x',
  '\n  ',
  '\n',
  ' ',
  '!!str ',
  '&a ',
  '*a',
  '? ',
  '- ',
  '|',
];

test('generated flow texts: a named kind is the kind of every text that parses', (t) => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 14 }), (parts) => {
      const text = `{${parts.join('')}`;
      const kind = prescanFlowKind(text);
      if (kind === undefined) return true;
      const doc = parseDocument(text, parseOptions());
      // Invalid YAML is parsed only with --all-documents, as for block items.
      if (doc.errors.length > 0) return true;
      return (doc.toJS() as { kind?: unknown } | null)?.kind === kind;
    }),
    propertyParameters(3000),
  );
  t.pass();
});

test('every corpus document as JSON, on one line and indented: its kind', (t) => {
  let named = 0;
  for (const name of corpusNames()) {
    for (const doc of parseAllDocuments(corpus(name), parseOptions())) {
      const data = doc.toJS() as { kind?: unknown } | null;
      if (data === null || typeof data !== 'object' || Array.isArray(data)) continue;
      for (const text of [JSON.stringify(data), JSON.stringify(data, null, 2)]) {
        const kind = prescanFlowKind(text);
        t.is(
          kind,
          typeof data.kind === 'string' ? data.kind : undefined,
          `${name}: ${String(data.kind)}`,
        );
        if (kind) named++;
      }
    }
  }
  t.true(named > 500, `${named} kinds named`);
});
