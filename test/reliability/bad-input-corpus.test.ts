/**
 * Issue #8, bad input: every broken stream, config and setting is answered with a message that
 * names the document, line or field, exit 2 (exit 1 for a bad per-workload annotation, see
 * below), nothing on stdout, in bounded time and memory. Never exit 70 (an internal error).
 *
 * test/engine/bad-input.test.ts already covers: an unclosed double quote, tab indentation, a
 * scalar and a list document, duplicate keys in metadata, an alias bomb in a workload (and with
 * --all-documents), 10,000-deep flow lists, bytes FF FE, a ResourceList whose items is a map, a
 * flag with a word for seconds, an invalid config file. This file adds the rest.
 *
 * Annotations (`kube-graceful.dev/drain-window: "-5"`) are exit 1 with an error finding, not exit
 * 2: the value sits in one workload, is found while the run works through the stream, and in
 * KRM mode the ResourceList must still come back with the error in `results` (the KRM
 * functions spec: on an error result, write the output and exit 1). In stream mode stdout stays
 * empty all the same.
 */
import test from 'ava';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { decodeUtf8 } from '../../fn/cli/io.ts';
import { KubeGracefulError } from '../../fn/core/errors.ts';
import { transform } from '../../fn/engine/transform.ts';
import { splitStream } from '../../fn/stream/split.ts';
import { corpus, corpusNames } from '../helpers/fixtures.ts';
import { runBounded } from '../helpers/reliability-cli.ts';
import { propertyParameters, seededRandom } from '../helpers/reliability-runs.ts';
import { renderDocument, streamArb } from './arbitraries.ts';
import type { Obj } from './arbitraries.ts';

const dir = mkdtempSync(join(tmpdir(), 'kg-bad-input-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a config file for `--config` and returns its path. */
function configFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const deployment = (annotations = 'sidecar.istio.io/inject: "true"') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations:
        ${annotations}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{containerPort: 8080}]
`;
const ok = `---\n# Source: cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\n`;
/** A Pod cut in its name, right where a bad byte follows. */
const BEFORE_BAD_BYTE = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: caf';
const resourceList = (body: string) =>
  `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n${body}`;
const asItem = (text: string) => `- ${text.trimEnd().split('\n').join('\n  ')}\n`;
const aliasBomb = (kind: string) =>
  [
    'apiVersion: v1',
    `kind: ${kind}`,
    'metadata: {name: bomb}',
    'data:',
    '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ]
    .concat(
      ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map(
        (k, i) =>
          `  ${k}: &${k} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(',')}]`,
      ),
    )
    .join('\n');
const deepBlockList = `x:\n${'- '.repeat(10_000)}a\n`;
const deepFlowMap = `x: ${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}\n`;
const junk = (size: number, seed: number) => {
  const random = seededRandom(seed);
  return Buffer.from(Array.from({ length: size }, () => Math.floor(random() * 256)));
};

interface Case {
  readonly name: string;
  readonly input: string | Buffer;
  readonly args?: () => string[];
  /** Exit status; 2 unless said. */
  readonly status?: number;
  readonly code?: string;
  /** What the message must name: document, line, resource or field. */
  readonly message: RegExp;
  /** KRM mode with exit 1 writes the ResourceList. */
  readonly stdout?: RegExp;
}

const cases: Case[] = [
  // Tabs
  {
    name: 'tab-indented container field in a Deployment',
    input: `${ok}---\n${deployment().replace('        image: nginx:1.27', '\timage: nginx:1.27')}`,
    code: 'E_PARSE',
    message: /document 2 \(Deployment web\), line 23\b/,
  },
  {
    name: 'tab indentation in a ResourceList item',
    input: resourceList(`items:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n\tname: p\n`),
    code: 'E_PARSE',
    message: /document 1 \(ResourceList\), line 7, column 1: Tabs are not allowed/,
  },
  {
    name: 'tab indentation in a ConfigMap, --all-documents',
    input: `${ok}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: tabbed\n`,
    args: () => ['--all-documents'],
    code: 'E_PARSE',
    message: /document 2 \(ConfigMap tabbed\), line 11\b/,
  },
  // Unclosed quotes and collections
  {
    name: 'unclosed single quote',
    input: `${ok}---\n${deployment().replace('image: nginx:1.27', "image: 'nginx:1.27")}`,
    code: 'E_PARSE',
    message: /document 2 \(Deployment web\), line \d+.*quote/i,
  },
  {
    name: 'unclosed double quote on the last line, no final newline',
    input: `${ok}---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: "p`,
    code: 'E_PARSE',
    message: /document 2 \(Pod p\), line 11, column 11: Missing closing "quote/,
  },
  {
    name: 'unclosed flow map',
    input: `${ok}---\napiVersion: v1\nkind: Pod\nmetadata: {name: p\n`,
    code: 'E_PARSE',
    message: /document 2 \(Pod\), line \d+/,
  },
  {
    name: 'unclosed flow list in a container',
    input: `${ok}---\n${deployment().replace('[{containerPort: 8080}]', '[{containerPort: 8080}')}`,
    code: 'E_PARSE',
    message: /document 2 \(Deployment web\), line \d+/,
  },
  // Duplicate keys
  {
    name: 'duplicate key inside a container',
    input:
      `${ok}---\n` + deployment().replace('nginx:1.27', 'nginx:1.27\n        image: nginx:1.28'),
    code: 'E_DUPLICATE_KEY',
    message: /document 2 \(Deployment web\), line 24, column 9/,
  },
  {
    name: 'duplicate annotation key (a merged Helm helper)',
    input: deployment('a: "1"\n        a: "2"'),
    code: 'E_DUPLICATE_KEY',
    message: /document 1 \(Deployment web\), line 13/,
  },
  {
    name: 'duplicate kind',
    input: `${ok}---\napiVersion: v1\nkind: Pod\nkind: Pod\nmetadata: {name: p}\n`,
    code: 'E_DUPLICATE_KEY',
    message: /document 2 \(Pod\), line 10, column 1: Map keys must be unique/,
  },
  {
    name: 'duplicate key in a ResourceList item',
    input: resourceList(
      `items:\n- apiVersion: v1\n  kind: Service\n  metadata: {name: s}\n  metadata: {name: t}\n`,
    ),
    code: 'E_DUPLICATE_KEY',
    message: /document 1 \(ResourceList\), line 7/,
  },
  // Invalid UTF-8 and binary junk
  {
    name: 'a lone continuation byte in a document',
    input: Buffer.concat([
      Buffer.from(`${ok}---\n${BEFORE_BAD_BYTE}`),
      Buffer.from([0x80]),
      Buffer.from('\n'),
    ]),
    code: 'E_INPUT',
    message: new RegExp(
      'line 11: stdin is not valid UTF-8 ' +
        `\\(first bad byte at offset ${Buffer.byteLength(`${ok}---\n${BEFORE_BAD_BYTE}`)}\\)`,
    ),
  },
  {
    name: 'an overlong encoding (C0 AF)',
    input: Buffer.concat([Buffer.from(ok), Buffer.from([0xc0, 0xaf])]),
    code: 'E_INPUT',
    message: /not valid UTF-8/,
  },
  {
    name: 'an encoded surrogate (ED A0 80)',
    input: Buffer.concat([Buffer.from(ok), Buffer.from([0xed, 0xa0, 0x80])]),
    code: 'E_INPUT',
    message: /not valid UTF-8/,
  },
  {
    name: 'a 4-byte sequence cut at the end',
    input: Buffer.concat([Buffer.from(ok), Buffer.from([0xf0, 0x9f, 0x99])]),
    code: 'E_INPUT',
    message: new RegExp(
      `line 7: stdin is not valid UTF-8 \\(first bad byte at offset ${Buffer.byteLength(ok)}\\)`,
    ),
  },
  {
    name: 'UTF-16 with a byte-order mark',
    input: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ok, 'utf16le')]),
    code: 'E_INPUT',
    message: /line 1: stdin is not valid UTF-8 \(first bad byte at offset 0\)/,
  },
  {
    name: '64 KiB of random bytes',
    input: junk(65_536, 8),
    code: 'E_INPUT',
    message: /not valid UTF-8/,
  },
  {
    name: 'a gzip archive (a chart .tgz piped by mistake)',
    input: Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), junk(4096, 9)]),
    code: 'E_INPUT',
    message: /not valid UTF-8 \(first bad byte at offset 1\)/,
  },
  // 10,000-deep nesting
  {
    name: '10,000-deep block lists in a Pod',
    input: `${ok}---\nkind: Pod\n${deepBlockList}`,
    code: 'E_TOO_DEEP',
    message: /document 2 \(Pod\)/,
  },
  {
    name: '10,000-deep flow maps in a Pod',
    input: `${ok}---\nkind: Pod\n${deepFlowMap}`,
    code: 'E_TOO_DEEP',
    message: /document 2 \(Pod\)/,
  },
  {
    name: '10,000-deep nesting in a ResourceList item',
    input: resourceList(`items:\n- kind: Pod\n  x: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`),
    code: 'E_TOO_DEEP',
    message: /document 1 \(ResourceList\)/,
  },
  {
    name: '10,000-deep nesting in a ResourceList functionConfig',
    input: resourceList(
      `items: []\nfunctionConfig:\n  x: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`,
    ),
    code: 'E_TOO_DEEP',
    message: /document 1 \(ResourceList\)/,
  },
  {
    name: '10,000-deep nesting in the config file',
    input: ok,
    args: () => [
      '--config',
      configFile(
        'deep.yaml',
        `apiVersion: kube-graceful.dev/v1alpha1\nkind: GracefulShutdown\n${deepFlowMap}`,
      ),
    ],
    code: 'E_CONFIG',
    message: /deep\.yaml:3:\d+: nesting too deep to read/,
  },
  // Alias bombs
  {
    name: 'an alias bomb in a ResourceList functionConfig',
    input: resourceList(
      `items: []\nfunctionConfig:\n  ${aliasBomb('ConfigMap').split('\n').join('\n  ')}\n`,
    ),
    code: 'E_ALIAS_BOMB',
    message: /document 1 \(ResourceList\)/,
  },
  {
    name: 'an alias bomb in the config file',
    input: ok,
    args: () => ['--config', configFile('bomb.yaml', aliasBomb('GracefulShutdown'))],
    code: 'E_ALIAS_BOMB',
    message: /bomb\.yaml/,
  },
  {
    name: 'an alias bomb in a Service (read for load-balancer facts)',
    input: `${ok}---\n${aliasBomb('Service')}\n`,
    code: 'E_ALIAS_BOMB',
    message: /document 2 \(Service\)/,
  },
  {
    name: 'an alias bomb in a kind: List',
    input:
      `${ok}---\n` +
      `apiVersion: v1\n` +
      `kind: List\n` +
      `items:\n` +
      `- ${aliasBomb('ConfigMap').split('\n').join('\n  ')}\n`,
    code: 'E_ALIAS_BOMB',
    message: /document 2 \(List\)/,
  },
  // Scalars and lists where an object belongs
  {
    name: 'a block scalar document that mentions a kind',
    input: `${ok}--- |\n  kind: Deployment\n`,
    code: 'E_NOT_MAPPING',
    message: /document 2, line 7/,
  },
  {
    name: 'a number as a document',
    input: `${ok}--- 42\n`,
    code: 'E_NOT_MAPPING',
    message: /document 2/,
  },
  {
    name: 'a list of resources as a document',
    input: `${ok}---\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n`,
    code: 'E_NOT_MAPPING',
    message: /document 2.*not a mapping/,
  },
  {
    name: 'a kind: List with a scalar item',
    input: `${ok}---\napiVersion: v1\nkind: List\nitems: [just-text]\n`,
    code: 'E_NOT_MAPPING',
    message: /document 2 \(List\).*item 0 of the List/,
  },
  // ResourceList with broken items
  {
    name: 'ResourceList items is a scalar',
    input: resourceList('items: hello\n'),
    code: 'E_INPUT',
    message: /document 1, line 3: ResourceList `items` is not a list/,
  },
  {
    name: 'ResourceList items are scalars',
    input: resourceList('items:\n- a\n- 1\n'),
    code: 'E_NOT_MAPPING',
    message: /document 1, line 4: ResourceList item 1 is not a mapping/,
  },
  {
    name: 'ResourceList item is a list',
    input: resourceList(`items:\n${asItem(deployment())}- - apiVersion: v1\n`),
    code: 'E_NOT_MAPPING',
    message: /document 2, line 21: ResourceList item 2 is not a mapping/,
  },
  {
    name: 'ResourceList functionConfig is a scalar',
    input: resourceList('items: []\nfunctionConfig: 5\n'),
    code: 'E_CONFIG',
    message: /functionConfig: the config is not a mapping/,
  },
  // Fields of the wrong type (the API server would reject them; mutators must never see them)
  {
    name: 'containers is a map',
    input: deployment()
      .replace('      - name: web', '        name: web')
      .replace(/\n {8}(image|ports)/g, '\n        $1'),
    code: 'E_INPUT',
    message: new RegExp(
      String.raw`document 1 \(Deployment shop\/web\), line 15, ` +
        String.raw`spec\.template\.spec\.containers: ` +
        String.raw`spec\.template\.spec\.containers is a map, not a list`,
    ),
  },
  {
    name: 'command is a string',
    input: deployment().replace(
      'image: nginx:1.27',
      'image: nginx:1.27\n        command: nginx -g daemon off;',
    ),
    code: 'E_INPUT',
    message:
      /containers\[0\]\.command is a string \("nginx -g daemon off;"\), not a list of strings/,
  },
  {
    name: 'an unquoted number in args',
    input: deployment().replace(
      'image: nginx:1.27',
      'image: nginx:1.27\n        args: [--workers, 4]',
    ),
    code: 'E_INPUT',
    message: new RegExp(
      String.raw`line 17, .*containers\[0\]\.args is a list holding a number \(4\), ` +
        String.raw`not a list of strings \(quote numbers and booleans\)`,
    ),
  },
  {
    name: 'lifecycle is a boolean',
    input: deployment().replace('image: nginx:1.27', 'image: nginx:1.27\n        lifecycle: true'),
    code: 'E_INPUT',
    message: /containers\[0\]\.lifecycle is a boolean \(true\), not a map/,
  },
  {
    name: 'an unquoted boolean annotation',
    input: deployment('sidecar.istio.io/inject: true'),
    code: 'E_INPUT',
    message: new RegExp(
      String.raw`line 12, ` +
        String.raw`spec\.template\.metadata\.annotations\["sidecar\.istio\.io\/inject"\]: ` +
        String.raw`.* is a boolean \(true\), not a string`,
    ),
  },
  {
    name: 'a null container in a CronJob',
    input:
      'apiVersion: batch/v1\n' +
      'kind: CronJob\n' +
      'metadata: {name: c}\n' +
      'spec:\n' +
      '  schedule: "@daily"\n' +
      '  jobTemplate:\n' +
      '    spec:\n' +
      '      template:\n' +
      '        spec:\n' +
      '          containers:\n' +
      '          - ~\n',
    code: 'E_INPUT',
    message: new RegExp(
      String.raw`document 1 \(CronJob c\), line 11, ` +
        String.raw`spec\.jobTemplate\.spec\.template\.spec\.containers\[0\]: .* is null, ` +
        String.raw`not a map`,
    ),
  },
  // A pod template that shares its metadata through an alias is no longer refused: the template
  // gets its own copy (issue #15 item 1, test/document/shared-nodes.test.ts).
  // Config of the wrong types
  {
    name: 'config: strings and maps where numbers and lists belong',
    input: ok,
    args: () => [
      '--config',
      configFile(
        'types.yaml',
        'apiVersion: kube-graceful.dev/v1alpha1\n' +
          'kind: GracefulShutdown\n' +
          'spec:\n' +
          '  timing: {maxRequestSeconds: "20"}\n' +
          '  mesh: {istioInjectedNamespaces: shop}\n' +
          '  exclude: {kind: Job}\n',
      ),
    ],
    code: 'E_CONFIG',
    message: new RegExp(
      String.raw`spec\.timing\.maxRequestSeconds: .*expected number.*got "20"` +
        String.raw`[\s\S]*spec\.mesh\.istioInjectedNamespaces: .*expected array` +
        String.raw`[\s\S]*spec\.exclude: .*expected array`,
    ),
  },
  {
    name: 'config: spec is a list',
    input: ok,
    args: () => [
      '--config',
      configFile(
        'spec-list.yaml',
        'apiVersion: kube-graceful.dev/v1alpha1\nkind: GracefulShutdown\nspec: []\n',
      ),
    ],
    code: 'E_CONFIG',
    message: /spec-list\.yaml.*spec: .*expected object/s,
  },
  {
    name: 'config: the file is a list',
    input: ok,
    args: () => ['--config', configFile('list.yaml', '- kube-version: "1.31"\n')],
    code: 'E_CONFIG',
    message: /list\.yaml: the config is not a mapping/,
  },
  {
    name: 'config: ConfigMap data is a list',
    input: ok,
    args: () => [
      '--config',
      configFile(
        'cm-list.yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: [kube-version]\n',
      ),
    ],
    code: 'E_CONFIG',
    message: /cm-list\.yaml: ConfigMap data is not a mapping/,
  },
  {
    name: 'config: an unquoted version in ConfigMap data (1.30 reads as 1.3)',
    input: ok,
    args: () => [
      '--config',
      configFile(
        'cm-number.yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  kube-version: 1.30\n',
      ),
    ],
    code: 'E_CONFIG',
    message: new RegExp(
      String.raw`cm-number\.yaml:5:17: kube-version: got the number 1\.3; ` +
        String.raw`ConfigMap data values are strings: quote it`,
    ),
  },
  {
    name: 'config: functionConfig ConfigMap with an unquoted number',
    input: resourceList(
      'items: []\n' +
        'functionConfig:\n' +
        '  apiVersion: v1\n' +
        '  kind: ConfigMap\n' +
        '  metadata: {name: function-input}\n' +
        '  data: {drain-window: 60}\n',
    ),
    code: 'E_CONFIG',
    message: /functionConfig data\.drain-window: drain-window: got the number 60/,
  },
  // Negative and huge durations: flags, config file, functionConfig
  {
    name: 'flag --drain-window=-5',
    input: ok,
    args: () => ['--drain-window=-5'],
    code: 'E_CONFIG',
    message: /flag: drain-window: got "-5"; expected whole seconds/,
  },
  {
    name: 'flag --drain-window -5',
    input: ok,
    args: () => ['--drain-window', '-5'],
    code: 'E_CONFIG',
    message: /drain-window: got "-5"/,
  },
  {
    name: 'flag --max-request 99999999999999999999',
    input: ok,
    args: () => ['--max-request', '99999999999999999999'],
    code: 'E_CONFIG',
    message: /spec\.timing\.maxRequestSeconds: expected at most 86400 seconds/,
  },
  {
    name: 'flag --buffer 86401',
    input: ok,
    args: () => ['--buffer', '86401'],
    code: 'E_CONFIG',
    message:
      /spec\.timing\.bufferSeconds: expected at most 86400 seconds \(one day\) \(got 86401\)/,
  },
  {
    name: 'flag --buffer 2.5',
    input: ok,
    args: () => ['--buffer', '2.5'],
    code: 'E_CONFIG',
    message: /buffer: got "2\.5"; expected whole seconds/,
  },
  {
    name: 'flag --buffer 1e3',
    input: ok,
    args: () => ['--buffer', '1e3'],
    code: 'E_CONFIG',
    message: /buffer: got "1e3"; expected whole seconds/,
  },
  {
    name: 'config file: negative, fractional and huge seconds',
    input: ok,
    args: () => [
      '--config',
      configFile(
        'durations.yaml',
        'apiVersion: kube-graceful.dev/v1alpha1\n' +
          'kind: GracefulShutdown\n' +
          'spec:\n' +
          '  loadBalancer: {drainWindowSeconds: -1}\n' +
          '  timing: {maxRequestSeconds: 1e9, bufferSeconds: 2.5}\n',
      ),
    ],
    code: 'E_CONFIG',
    message: new RegExp(
      String.raw`drainWindowSeconds: expected 0 or more seconds \(got -1\)` +
        String.raw`[\s\S]*maxRequestSeconds: ` +
        String.raw`expected at most 86400 seconds \(one day\) \(got 1000000000\)` +
        String.raw`[\s\S]*bufferSeconds: expected whole seconds \(got 2\.5\)`,
    ),
  },
  {
    name: 'functionConfig ConfigMap: negative seconds',
    input: resourceList(
      'items: []\n' +
        'functionConfig:\n' +
        '  apiVersion: v1\n' +
        '  kind: ConfigMap\n' +
        '  metadata: {name: function-input}\n' +
        '  data: {max-request: "-5"}\n',
    ),
    code: 'E_CONFIG',
    message: /functionConfig: max-request: got "-5"; expected whole seconds/,
  },
  // Negative and huge durations in annotations: error findings (exit 1), see the file comment
  {
    name: 'annotation drain-window "-5"',
    input: deployment('kube-graceful.dev/drain-window: "-5"'),
    status: 1,
    message: new RegExp(
      String.raw`^error: BAD_ANNOTATION Deployment shop\/web ` +
        String.raw`metadata\.annotations\["kube-graceful\.dev\/drain-window"\]: .*got "-5"; ` +
        String.raw`expected whole seconds`,
      'm',
    ),
  },
  {
    name: 'annotation drain-window "99999999"',
    input: deployment('kube-graceful.dev/drain-window: "99999999"'),
    status: 1,
    message: new RegExp(
      String.raw`^error: BAD_ANNOTATION Deployment shop\/web ` +
        String.raw`metadata\.annotations\["kube-graceful\.dev\/drain-window"\]: ` +
        String.raw`.*expected at most 86400 seconds`,
      'm',
    ),
  },
  {
    name: 'annotation max-request "1.5"',
    input: deployment('kube-graceful.dev/max-request: "1.5"'),
    status: 1,
    message: /BAD_ANNOTATION .*max-request.*got "1\.5"/,
  },
  {
    name: 'annotation drain-window "-5" in a ResourceList',
    input: resourceList(`items:\n${asItem(deployment('kube-graceful.dev/drain-window: "-5"'))}`),
    status: 1,
    message: /BAD_ANNOTATION/,
    stdout: /severity: error[\s\S]*got \\?"-5\\?"|got "-5"[\s\S]*severity: error/,
  },
];

for (const c of cases) {
  test(`bad input: ${c.name}`, (t) => {
    const run = runBounded(c.args?.() ?? [], c.input);
    t.false(run.timedOut, `no answer within the hang guard (${run.elapsedMs} ms)`);
    t.is(run.status, c.status ?? 2, run.stderr);
    if (c.stdout) t.regex(run.stdout, c.stdout, 'KRM mode: the ResourceList with the error result');
    else t.is(run.stdout, '', 'nothing on stdout');
    if (c.code) t.regex(run.stderr, new RegExp(`^kube-graceful: ${c.code}:`), run.stderr);
    t.regex(run.stderr, c.message);
    t.notRegex(run.stderr, /E_INTERNAL|\n\s+at /, 'no internal error, no stack trace');
  });
}

test('bad input: a ResourceList item without kind, or without items, passes through unchanged', (t) => {
  // Nothing to edit and nothing lost: kube-graceful only edits kinds it knows; an item without a
  // kind is the API server's (or kpt's) to refuse. Refusing here would fail pipelines on documents
  // we never touch, and it cannot be told from a resource of a kind we don't know.
  for (const input of [
    resourceList('items:\n- apiVersion: v1\n  metadata: {name: x}\n'),
    resourceList('items:\n'),
    resourceList(''),
  ]) {
    const run = runBounded([], input);
    t.is(run.status, 0, run.stderr);
    t.is(run.stdout, input);
  }
});

test('bad input: a document without kind, or with a number for apiVersion, passes through unchanged', (t) => {
  for (const input of [
    `${ok}---\napiVersion: v1\nmetadata: {name: x}\nspec:\n  containers: [{name: c, image: i}]\n`,
    deployment().replace('apiVersion: apps/v1', 'apiVersion: 1'),
  ]) {
    const run = runBounded([], input);
    t.is(run.status, 0, run.stderr);
    t.is(run.stdout, input);
  }
});

test('a Job with generateName and many labels is read in linear time (regression: exponential regex backtracking)', (t) => {
  // resourceHint's `metadata: … name:` pattern could split indentation many ways; with no `name:`
  // under metadata (generateName) 14 labels took 90 s, 16 minutes. Found by fuzz-stream.test.ts.
  const labels = Array.from({ length: 200 }, (_, i) => `    label-${i}: "x"\n`).join('');
  const input =
    `apiVersion: batch/v1\n` +
    `kind: Job\n` +
    `metadata:\n` +
    `  generateName: migrate-\n` +
    `  labels:\n` +
    `${labels}spec:\n` +
    `  template:\n` +
    `    spec:\n` +
    `      restartPolicy: Never\n` +
    `      containers:\n` +
    `      - name: m\n` +
    `        image: busybox\n`;
  // The hang guard is enough: 14 labels took 90 s before the fix, 200 would take longer than
  // anyone waits. A tighter wall-clock limit would measure the machine's load, not the regex.
  const run = runBounded([], input);
  t.false(run.timedOut, `answered in ${run.elapsedMs} ms`);
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, input);
});

/**
 * Truncation: real corpus files cut at seeded random byte offsets (a cut can split a UTF-8
 * character). In-process for many cuts, through the CLI for a few. Each gives either output or
 * a clean input error; with the pre-scan on, documents no mutator reads are passed through as
 * bytes (validated only with --all-documents), so there a cut document may stay in the output.
 */
const TRUNCATED = [
  'istio-gateway-1.30.3-nlb.yaml',
  'ingress-nginx.yaml',
  'istio-sample-kube-bookinfo.yaml',
  'descheduler-cronjob.yaml',
  'helm4-postrender-input-istio-gateway-1.30.3-nlb.yaml',
  'argo-workflows.yaml',
];

test('truncated corpus files: output or a clean input error, never an internal one (in-process)', (t) => {
  t.true(
    TRUNCATED.every((name) => corpusNames().includes(name)),
    'the corpus files exist',
  );
  fc.assert(
    fc.property(
      fc.constantFrom(...TRUNCATED),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.boolean(),
      (name, where, parseAll) => {
        const bytes = Buffer.from(corpus(name));
        const cut = bytes.subarray(0, Math.floor(bytes.length * where));
        let text: string;
        try {
          text = decodeUtf8(cut, 'stdin');
        } catch (error) {
          if (error instanceof KubeGracefulError && error.exitCode === 2) return;
          throw error;
        }
        let output: string;
        try {
          output = transform(text, { parseAll }).output;
        } catch (error) {
          if (error instanceof KubeGracefulError && error.exitCode === 2) return;
          throw new Error(
            `${name} cut at byte ${cut.length}${parseAll ? ' (--all-documents)' : ''}: ` +
              (error instanceof KubeGracefulError
                ? `${error.code}: ${error.message}`
                : String((error as Error).stack)),
          );
        }
        if (parseAll) {
          // Every document was parsed, so the output is YAML throughout.
          for (const doc of parseAllDocuments(output.replace(/^\uFEFF/, ''), {
            version: '1.1',
          })) {
            if (doc.errors.length > 0)
              throw new Error(
                `${name} cut at byte ${cut.length}: output is not YAML: ${doc.errors[0]!.message}`,
              );
          }
        } else {
          const before = splitStream(text).segments;
          const after = splitStream(output).segments;
          if (after.length !== before.length)
            throw new Error(
              `${name} cut at byte ${cut.length}: ${before.length} documents in, ` +
                `${after.length} out`,
            );
        }
      },
    ),
    propertyParameters(60),
  );
  t.pass();
});

test('truncated corpus files through the CLI: exit 0 with output, or exit 2 with nothing on stdout', (t) => {
  const bytes = Buffer.from(corpus('istio-sample-kube-bookinfo.yaml'));
  // Inside a Deployment's containers, inside a quoted scalar, and between two documents.
  for (const at of [
    bytes.indexOf('containers:') + 20,
    bytes.indexOf('"') + 3,
    bytes.indexOf('\n---\n') + 1,
  ]) {
    const run = runBounded(['--all-documents'], bytes.subarray(0, at));
    t.false(run.timedOut);
    t.true(run.status === 0 || run.status === 2, `cut at ${at}: exit ${run.status}: ${run.stderr}`);
    if (run.status === 2) {
      t.is(run.stdout, '');
      t.regex(run.stderr, /^kube-graceful: E_[A-Z_]+: document \d+/);
    } else {
      t.true(run.stdout.length > 0);
    }
  }
});

/**
 * Wrong types anywhere in a generated workload, Service or Namespace: a clean input error or
 * output, never an exception from a mutator (which the CLI would report as exit 70). `null` is
 * not among the wrong values: it is valid for every optional field (see the known bug below).
 */
const WRONG_VALUES: readonly unknown[] = ['oops', 5, true, [], ['x'], {}, { a: 1 }, [{}], [1], 1.5];

test('fields of the wrong type never crash a mutator (in-process)', (t) => {
  fc.assert(
    fc.property(
      streamArb(),
      // Which object, and which of its fields.
      fc.tuple(fc.nat(), fc.nat()),
      fc.constantFrom(...WRONG_VALUES),
      fc.constantFrom<Record<string, string> | undefined>(
        undefined,
        { 'job-mode': 'wrap', 'sidecar-mode': 'classic' },
        { 'gateway-mode': 'sleep', 'kube-version': '1.28', 'app-image-has-shell': 'true' },
      ),
      (model, [pickObject, pickField], wrong, flags) => {
        const objects = model.docs.flatMap((d) => ('object' in d ? [d.object] : []));
        if (objects.length === 0) return;
        const object = structuredClone(objects[pickObject % objects.length]!);
        const fields = fieldPaths(object).filter(
          (p) => p.length > 1 || (p[0] !== 'kind' && p[0] !== 'apiVersion'),
        );
        const path = fields[pickField % fields.length]!;
        let node = object as Record<string | number, unknown>;
        for (const segment of path.slice(0, -1))
          node = node[segment] as Record<string | number, unknown>;
        node[path.at(-1)!] = structuredClone(wrong);
        const text = renderDocument(object, 'block', seededRandom(pickField));
        try {
          transform(text, flags ? { flags } : {});
        } catch (error) {
          if (error instanceof KubeGracefulError && error.exitCode === 2) return;
          throw new Error(
            `${path.join('.')} = ${JSON.stringify(wrong)}: ` +
              `${error instanceof Error ? error.stack : String(error)}\n${text}`,
          );
        }
      },
    ),
    propertyParameters(150),
  );
  t.pass();
});

function fieldPaths(
  value: unknown,
  path: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
): Array<Array<string | number>> {
  if (path.length > 0) out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => fieldPaths(v, [...path, i], out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value as Obj)) fieldPaths(v, [...path, k], out);
  return out;
}

// Regression: a container with `command:` left empty (null, valid YAML and valid Kubernetes) in a
// meshed Job crashed the job-sidecar-quit mutator (`isWrapped(null)`), exit 70.
test('a meshed Job container with `command:` empty is not an internal error', (t) => {
  const input =
    'apiVersion: batch/v1\n' +
    'kind: Job\n' +
    'metadata: {name: j}\n' +
    'spec:\n' +
    '  template:\n' +
    '    metadata:\n' +
    '      labels: {sidecar.istio.io/inject: "true"}\n' +
    '    spec:\n' +
    '      restartPolicy: Never\n' +
    '      containers:\n' +
    '      - name: main\n' +
    '        image: busybox\n' +
    '        command:\n';
  const run = runBounded([], input);
  t.not(run.status, 70, run.stderr);
});

// The 100 MB stream has its own file, bad-input-large-stream.test.ts, so ava runs it in parallel.
