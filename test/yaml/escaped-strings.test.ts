/**
 * fn/yaml/escapedStrings.ts (issue #33 item 5, the output half): every string kube-graceful
 * writes as YAML (splices, documents printed whole, KRM results, flow values, patches) has no
 * control character raw, and reads back as the same string; strings without any are written as
 * the yaml library writes them.
 */
import test from 'ava';
import fc from 'fast-check';
import { parse, parseDocument, stringify } from 'yaml';
import { flowYaml } from '../../fn/yaml/aliases.ts';
import { yamlQuoted } from '../../fn/yaml/escapedStrings.ts';
import { parseOptions, stringifyOptions, toJsOptions } from '../../fn/yaml/options.ts';
import { CONTROL_CHAR } from '../helpers/controlChars.ts';

/** Control characters but the line feed and tab yaml writes in block scalars and plain text. */
const RAW = new RegExp(CONTROL_CHAR.source.replace('\\u0000-\\u0009', '\\u0000-\\u0008'), 'u');

test('C1, DEL, NEL, bidi controls and line separators are escapes, C0 ones too', (t) => {
  const value = {
    esc: 'a\u001b[2Jb',
    csi: 'x\u009b31m',
    nel: 'n\u0085o',
    del: 'd\u007f',
    bidi: 'p\u202eq',
    separator: 'l\u2028m',
    bom: 'b\ufeff',
    'key\u009b': 'v',
  };
  const text = stringify(value, stringifyOptions());
  t.false(RAW.test(text), text);
  t.regex(text, /csi: "x\\u009b31m"/);
  t.regex(text, /bidi: "p\\u202eq"/);
  t.regex(text, /"key\\u009b": v/);
  t.deepEqual(parseDocument(text, parseOptions()).toJS(toJsOptions()), value);
});

test('for any string: written without a control character raw, read back the same', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (value) => {
      const text = stringify({ value, list: [value] }, stringifyOptions());
      const flow = flowYaml({ value });
      const back = parse(text, { version: '1.1' }) as { value: string; list: string[] };
      return (
        !RAW.test(text) &&
        !RAW.test(flow) &&
        back.value === value &&
        back.list[0] === value &&
        (parse(flow) as { value: string }).value === value
      );
    }),
    { numRuns: 3000, seed: 33 },
  );
  t.pass();
});

test('strings with no such character are written as the library writes them', (t) => {
  const value = { plain: 'web', multi: 'a\nb\n', yes: 'yes', time: '1:30', tab: 'a\tb' };
  t.is(
    stringify(value, stringifyOptions()),
    stringify(value, { ...stringifyOptions(), customTags: undefined, compat: 'yaml-1.1' }),
  );
});

test('yamlQuoted is JSON too', (t) => {
  const value = 'a"b\\c\u001b\u009b\u2028';
  t.is(JSON.parse(yamlQuoted(value)), value);
  t.is(parse(yamlQuoted(value)), value);
});
