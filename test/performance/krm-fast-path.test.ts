/**
 * Issue #16 item 4: a ResourceList laid out as kpt writes it is cut into items from its text, and
 * items of kinds no mutator reads are never parsed (fn/krm/layout.ts). That shortcut must give the
 * output of the long way (`--all-documents`: the whole list parsed) byte for byte, on lists that
 * real kpt wrote from real charts, and on the bench's generated list.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transform } from '../../fn/engine/transform.ts';
import { listLayout } from '../../fn/krm/layout.ts';
import { readResourceList } from '../../fn/krm/resourceList.ts';
import { corpus, fixturePath, ROOT } from '../helpers/fixtures.ts';
import { requireTool } from '../helpers/tools.ts';

const kpt = requireTool('kpt');

/** The ResourceList `kpt fn source` writes for a folder holding `files`. */
function kptSource(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kg-krm-fast-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return execFileSync(kpt, ['fn', 'source', dir], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
}

function kptPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kg-krm-fast-'));
  cpSync(fixturePath('kpt-package'), dir, { recursive: true });
  return execFileSync(kpt, ['fn', 'source', dir], { encoding: 'utf8' });
}

const lists: Array<[string, () => string]> = [
  ['the kpt package (a head comment kpt writes as `- # …`)', kptPackage],
  [
    'istio bookinfo',
    () => kptSource({ 'bookinfo.yaml': corpus('istio-sample-kube-bookinfo.yaml') }),
  ],
  [
    'istio gateway 1.30.3 behind an NLB',
    () => kptSource({ 'gateway.yaml': corpus('istio-gateway-1.30.3-nlb.yaml') }),
  ],
  [
    'descheduler (a CronJob)',
    () => kptSource({ 'descheduler.yaml': corpus('descheduler-cronjob.yaml') }),
  ],
  ['scripts/krm-schemas.mjs, 80 items', () => schemas('block')],
  // Issue #34 item 1: items that are flow mappings, as kpt keeps a package's JSON files.
  ['scripts/krm-schemas.mjs, 80 items as JSON on one line', () => schemas('json')],
  ['scripts/krm-schemas.mjs, 80 items as indented JSON', () => schemas('json-indented')],
];

/** The bench's generated list of 80 items, in one of its styles. */
function schemas(style: string): string {
  return execFileSync(process.execPath, [join(ROOT, 'scripts', 'krm-schemas.mjs'), '80', style], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
}

for (const [name, make] of lists) {
  test(`the item pre-scan gives the output of a whole parse: ${name}`, (t) => {
    const input = make();
    t.truthy(listLayout(input), 'laid out as kpt writes it: the shortcut is taken');
    for (const extra of [
      '',
      'results:\n- message: earlier\n  tags: {a: y}\n',
      'functionConfig:\n' +
        '  apiVersion: v1\n' +
        '  kind: ConfigMap\n' +
        '  metadata: {name: function-input}\n' +
        '  data: {max-request: "12"}\n',
    ]) {
      const list = input + extra;
      const quick = transform(list);
      const whole = transform(list, { parseAll: true });
      t.is(quick.output, whole.output, `${name} + ${JSON.stringify(extra.slice(0, 20))}`);
      t.deepEqual(
        quick.changes.map((c) => [c.resource, c.path, c.after]),
        whole.changes.map((c) => [c.resource, c.path, c.after]),
      );
      t.deepEqual(
        quick.findings.map((f) => [f.code, f.resource]),
        whole.findings.map((f) => [f.code, f.resource]),
      );
    }
  });
}

test('the pre-scan parses only the items a mutator reads, block or flow', (t) => {
  for (const style of ['block', 'json', 'json-indented']) {
    const input = schemas(style);
    const quick = readResourceList(input, { extraKinds: () => [] });
    const whole = readResourceList(input, { parseAll: true });
    t.is(whole.items.length, 80);
    t.deepEqual(
      quick.items.map((i) => (i.doc.data as { kind: string }).kind).sort(),
      whole.items
        .map((i) => (i.doc.data as { kind: string }).kind)
        .filter((k) => k !== 'CustomResourceDefinition' && k !== 'Kptfile')
        .sort(),
      style,
    );
    t.deepEqual(quick.functionConfig, whole.functionConfig);
  }
});

test('lists the layout is not sure of are parsed whole', (t) => {
  for (const list of [
    '{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": []}',
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n-\n  kind: Pod\n',
    'apiVersion: config.kubernetes.io/v1\n' +
      'kind: ResourceList\n' +
      'items:\n' +
      '  - kind: Pod\n' +
      ' - kind: Pod\n',
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n',
    // A flow item whose closing brace is not indented beyond its `-`.
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- {kind: Pod,\n  a: 1\n}\n',
  ]) {
    t.is(listLayout(list), undefined, list);
  }
});
