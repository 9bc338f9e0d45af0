/**
 * Issue #9: the fast path never changes a result. Documents whose top-level kind the pre-scan
 * reads as one no mutator can touch pass through as bytes; every other document is parsed. These
 * tests run the real registered mutators with the pre-scan on and off (`parseAll`) and require the
 * same output, change records and findings: for every corpus file under a few configs, and for
 * generated streams (the reliability suite's generator). They also pin the pre-scan's own rule:
 * when it names a kind, a parse finds that kind at the top level of every valid document.
 *
 * No timing here: `npm run bench` measures (scripts/bench.mjs).
 */
import test from 'ava';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import type { ConfigSource } from '../../fn/config/load.ts';
import { transform } from '../../fn/engine/transform.ts';
import type { TransformOptions, TransformResult } from '../../fn/engine/transform.ts';
import { KubeGracefulError } from '../../fn/core/errors.ts';
import { isCommentOnly, prescanKind } from '../../fn/document/prescan.ts';
import { splitBytes, splitStream } from '../../fn/stream/split.ts';
import { readStream, renderStream } from '../../fn/stream/stream.ts';
import { parseOptions } from '../../fn/yaml/options.ts';
import { corpus, corpusNames } from '../helpers/fixtures.ts';
import { propertyParameters } from '../helpers/reliability-runs.ts';
import {
  flagsArb,
  renderStream as renderGenerated,
  streamArb,
} from '../reliability/arbitraries.ts';

/** What a run produced, in a form that compares by value; or the error it ended with. */
function outcome(input: string, options: TransformOptions): unknown {
  let result: TransformResult;
  try {
    result = transform(input, options);
  } catch (error) {
    if (error instanceof KubeGracefulError) return { error: error.code, message: error.message };
    throw error;
  }
  return {
    output: result.output,
    changes: result.changes,
    findings: result.findings,
    plans: result.outcomes.map((o) => ({
      mutator: o.mutator,
      workload: o.subject === 'workload' ? o.workload.ref : o.ref,
      plan: o.plan,
    })),
  };
}

/**
 * Configs the corpus runs under: defaults, flags that switch every mutator's modes, and a typed
 * config with an extra kind.
 */
const CONFIGS: Record<string, TransformOptions> = {
  defaults: {},
  flags: {
    flags: {
      'lb-provider': 'aws-nlb-ip',
      'drain-window': '60',
      'max-request': '10',
      'sidecar-mode': 'classic',
      'job-mode': 'wrap',
      'istio-injected-namespaces': 'default,monitoring,argocd',
    },
  },
  typed: {
    config: {
      origin: 'test config',
      data: {
        apiVersion: 'kube-graceful.dev/v1alpha1',
        kind: 'GracefulShutdown',
        spec: {
          kubernetesVersion: '1.28',
          namespace: 'prod',
          extraKinds: [{ group: 'argoproj.io', kind: 'Rollout', podTemplatePath: 'spec.template' }],
          mesh: { linkerdInjectedNamespaces: ['prod'] },
        },
      },
    } satisfies ConfigSource,
  },
};

for (const name of corpusNames()) {
  test(`pre-scan on and off give the same result: ${name}`, (t) => {
    const input = corpus(name);
    for (const [configName, options] of Object.entries(CONFIGS)) {
      const fast = outcome(input, options);
      t.deepEqual(fast, outcome(input, { ...options, parseAll: true }), `config ${configName}`);
      t.false(
        typeof fast === 'object' && fast !== null && 'error' in fast,
        `config ${configName}: the corpus must transform`,
      );
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Bytes in, bytes out: what the CLI does (only parsed documents are decoded)
// ---------------------------------------------------------------------------------------------

/** The outcome of transforming the input's UTF-8 bytes, with the output as text. */
function outcomeOfBytes(input: string, options: TransformOptions): unknown {
  let result: TransformResult;
  try {
    result = transform(Buffer.from(input, 'utf8'), options);
  } catch (error) {
    if (error instanceof KubeGracefulError) return { error: error.code, message: error.message };
    throw error;
  }
  return {
    output: result.outputChunks
      ? Buffer.concat(result.outputChunks).toString('utf8')
      : result.output,
    changes: result.changes,
    findings: result.findings,
    plans: result.outcomes.map((o) => ({
      mutator: o.mutator,
      workload: o.subject === 'workload' ? o.workload.ref : o.ref,
      plan: o.plan,
    })),
  };
}

for (const name of corpusNames()) {
  test(`bytes and text give the same result: ${name}`, (t) => {
    const input = corpus(name);
    for (const [configName, options] of Object.entries(CONFIGS))
      t.deepEqual(outcomeOfBytes(input, options), outcome(input, options), `config ${configName}`);
  });
}

/**
 * Streams where a byte view and the text could part: multi-byte characters around everything the
 * split and pre-scan read.
 */
const UNICODE_STREAMS: Record<string, string> = {
  'non-ASCII in a passed-through document and in an edited one': [
    'apiVersion: v1\n' +
      'kind: ConfigMap\n' +
      'metadata:\n' +
      '  name: grüße\n' +
      'data:\n' +
      '  quote: “exported_” — ✓ 🚀\n',
    '---\n' +
      'apiVersion: apps/v1\n' +
      'kind: Deployment\n' +
      'metadata:\n' +
      '  name: café\n' +
      '  annotations:\n' +
      '    note: naïve ☃\n' +
      'spec:\n' +
      '  template:\n' +
      '    metadata:\n' +
      '      annotations:\n' +
      '        sidecar.istio.io/inject: "true"\n' +
      '    spec:\n' +
      '      containers:\n' +
      '        - name: app\n' +
      '          image: app:1 # ünïcödé comment\n' +
      '          ports:\n' +
      '            - containerPort: 8080\n',
    '---\n' +
      '# Source: chart/templates/svc.yaml — ✓\n' +
      'apiVersion: v1\n' +
      'kind: Service\n' +
      'metadata:\n' +
      '  name: café\n' +
      'spec:\n' +
      '  selector:\n' +
      '    app: café\n' +
      '  ports:\n' +
      '    - port: 80\n',
  ].join(''),
  'a byte-order mark':
    '\uFEFFapiVersion: v1\n' +
    'kind: ConfigMap\n' +
    'metadata:\n' +
    '  name: a\n' +
    '---\n' +
    'apiVersion: batch/v1\n' +
    'kind: Job\n' +
    'metadata:\n' +
    '  name: ä\n' +
    'spec:\n' +
    '  template:\n' +
    '    spec:\n' +
    '      containers:\n' +
    '        - name: main\n' +
    '          image: x\n',
  'CRLF and a character whose bytes hold 0x85 and 0xA0':
    'apiVersion: v1\r\n' +
    'kind: ConfigMap\r\n' +
    'metadata:\r\n' +
    '  name: a\r\n' +
    'data:\r\n' +
    '  x: "\u0145\u00A0\u2028"\r\n' +
    '---\r\n' +
    'apiVersion: v1\r\n' +
    'kind: Service\r\n' +
    'metadata:\r\n' +
    '  name: \u0160\r\n',
  'a ResourceList':
    'apiVersion: config.kubernetes.io/v1\n' +
    'kind: ResourceList\n' +
    'items:\n' +
    '  - apiVersion: v1\n' +
    '    kind: ConfigMap\n' +
    '    metadata:\n' +
    '      name: ü\n',
};

for (const [name, input] of Object.entries(UNICODE_STREAMS)) {
  test(`bytes and text give the same result: ${name}`, (t) => {
    for (const [configName, options] of Object.entries(CONFIGS)) {
      const fromText = outcome(input, options);
      t.deepEqual(outcomeOfBytes(input, options), fromText, `config ${configName}`);
      t.false(
        typeof fromText === 'object' && fromText !== null && 'error' in fromText,
        `config ${configName}: the stream must transform`,
      );
    }
  });
}

test('generated streams: bytes and text give the same result', (t) => {
  fc.assert(
    fc.property(
      streamArb({ badSettings: true }),
      fc.option(flagsArb, { nil: undefined }),
      (model, flags) => {
        const { text } = renderGenerated(model);
        const options = flags ? { flags } : {};
        t.deepEqual(outcomeOfBytes(text, options), outcome(text, options));
      },
    ),
    propertyParameters(60),
  );
  t.pass();
});

test('the pre-scan passes most of a CRD-heavy stream through unparsed', (t) => {
  const input = corpus('kube-prometheus-stack-with-crds.yaml');
  const stream = readStream(input, { extraKinds: [] });
  const parsedBytes = stream.entries
    .filter((e) => e.doc)
    .reduce((n, e) => n + e.segment.text.length, 0);
  t.true(parsedBytes < input.length / 50, `parsed ${parsedBytes} of ${input.length} characters`);
  t.is(renderStream(stream), input);
});

test('every corpus document: a kind named by the pre-scan is the top-level kind a parse finds', (t) => {
  let named = 0;
  for (const name of corpusNames()) {
    for (const segment of splitStream(corpus(name)).segments) {
      const kind = prescanKind(segment.text);
      if (kind === undefined) {
        t.true(
          isCommentOnly(segment.text),
          `${name} document ${segment.index + 1}: ` +
            'only comment-only documents are left to the parser',
        );
        continue;
      }
      named++;
      t.is(
        (parseDocument(segment.text, parseOptions()).toJS() as { kind?: unknown }).kind,
        kind,
        `${name} document ${segment.index + 1}`,
      );
    }
  }
  t.true(named > 400);
});

test('generated streams: pre-scan on and off give the same result', (t) => {
  fc.assert(
    fc.property(
      streamArb({ badSettings: true }),
      fc.option(flagsArb, { nil: undefined }),
      (model, flags) => {
        const { text } = renderGenerated(model);
        const options = flags ? { flags } : {};
        t.deepEqual(outcome(text, options), outcome(text, { ...options, parseAll: true }));
      },
    ),
    propertyParameters(60),
  );
  t.pass();
});

// ---------------------------------------------------------------------------------------------
// The pre-scan's rule, case by case
// ---------------------------------------------------------------------------------------------

const KNOWN: Array<[string, string, string | undefined]> = [
  ['plain', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n', 'ConfigMap'],
  ['first key', 'kind: ConfigMap\napiVersion: v1\n', 'ConfigMap'],
  ['double-quoted value', 'apiVersion: v1\nkind: "ConfigMap"\n', 'ConfigMap'],
  ['single-quoted value', "apiVersion: v1\nkind: 'ConfigMap'\n", 'ConfigMap'],
  ['quoted key', 'apiVersion: v1\n"kind": ConfigMap\n', 'ConfigMap'],
  ['trailing comment', 'apiVersion: v1\nkind: ConfigMap # the data\n', 'ConfigMap'],
  ['tab after the colon', 'apiVersion: v1\nkind:\tConfigMap\n', 'ConfigMap'],
  ['CRLF', 'apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: a\r\n', 'ConfigMap'],
  [
    'Helm 3 layout',
    '---\n# Source: chart/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\n',
    'ConfigMap',
  ],
  [
    'marker with a comment, directive',
    '%YAML 1.1\n--- # cm\napiVersion: v1\nkind: ConfigMap\n',
    'ConfigMap',
  ],
  [
    'a nested kind before the top-level one',
    'apiVersion: rbac.authorization.k8s.io/v1\n' +
      'roleRef:\n' +
      '  kind: ClusterRole\n' +
      '  name: x\n' +
      'kind: ClusterRoleBinding\n',
    'ClusterRoleBinding',
  ],
  ['a nested kind only', 'apiVersion: v1\nmetadata:\n  kind: Deployment\n', undefined],
  ['a compact list item', 'items:\n- kind: Deployment\n', undefined],
  [
    'followed by a blank line and a key',
    'apiVersion: v1\nkind: ConfigMap\n\ndata: {}\n',
    'ConfigMap',
  ],
  ['JSON', '{"apiVersion": "v1", "kind": "ConfigMap"}\n', undefined],
  ['pretty JSON', '{\n  "apiVersion": "v1",\n  "kind": "ConfigMap"\n}\n', undefined],
  [
    'flow mapping with entries at column 0',
    '{\nspec: {\nkind: ConfigMap\n}\n, kind: Deployment\n}\n',
    undefined,
  ],
  ['top-level block scalar', '--- |\nkind: ConfigMap\n', undefined],
  ['top-level folded scalar', '--- >\nkind: ConfigMap\n', undefined],
  ['top-level quoted scalar', '"x\nkind: ConfigMap"\n', undefined],
  ['tag on the marker', '--- !!map\nkind: ConfigMap\n', undefined],
  ['anchor on the marker', '--- &a\nkind: ConfigMap\n', undefined],
  ['indented root', '  apiVersion: v1\n  kind: ConfigMap\n', undefined],
  ['a plain value that continues', 'apiVersion: v1\nkind: Config\n  Map\n', undefined],
  [
    'a plain value that continues after a blank line',
    'apiVersion: v1\nkind: ConfigMap\n\n  more\n',
    undefined,
  ],
  ['two words', 'apiVersion: v1\nkind: Config Map\n', undefined],
  ['a hash without a space', 'apiVersion: v1\nkind: ConfigMap#x\n', undefined],
  ['mismatched quotes', 'apiVersion: v1\nkind: "ConfigMap\'\n', undefined],
  ['a tag on the value', 'apiVersion: v1\nkind: !!str ConfigMap\n', undefined],
  ['an anchor on the value', 'apiVersion: v1\nkind: &k ConfigMap\n', undefined],
  ['value on the next line', 'apiVersion: v1\nkind:\n  ConfigMap\n', undefined],
  ['no kind', 'apiVersion: v1\nmetadata:\n  name: a\n', undefined],
  ['comments only', '---\n# Source: x.yaml\n', undefined],
];

for (const [name, text, kind] of KNOWN) {
  test(`pre-scan: ${name}`, (t) => {
    t.is(prescanKind(text), kind);
    if (kind !== undefined) {
      const doc = parseDocument(text, parseOptions());
      t.deepEqual(doc.errors, []);
      t.is((doc.toJS() as { kind?: unknown }).kind, kind, 'the parse agrees');
    }
  });
}

/** Lines that, put together in any order, make documents the pre-scan must never misread. */
const LINES = [
  'apiVersion: v1',
  'kind: ConfigMap',
  'kind: "Deployment"',
  "'kind': Service",
  'kind: Job # x',
  'kind: CustomResourceDefinition',
  'metadata:',
  '  name: a',
  '  kind: Deployment',
  '- kind: Pod',
  '  - kind: Pod',
  'spec: |',
  'spec: >-',
  'spec: "x',
  'spec: [',
  'spec: {',
  'kind: Config',
  '  Map',
  '',
  '  ',
  '# comment',
  '  # comment',
  '---',
  '--- |',
  '--- # c',
  '...',
  '{',
  '}',
  ']',
  '"',
  'x"',
  '\tkind: Deployment',
  'kind:',
  '  Deployment',
  'data: {}',
  'items:',
  '%YAML 1.1',
  '? kind',
  ': Deployment',
];

test('pre-scan on generated documents: a named kind is the kind of every document that parses', (t) => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...LINES), { maxLength: 10 }),
      fc.boolean(),
      (lines, crlf) => {
        const text = lines.map((l) => `${l}${crlf ? '\r\n' : '\n'}`).join('');
        for (const segment of splitStream(text).segments) {
          const kind = prescanKind(segment.text);
          if (kind === undefined) continue;
          const doc = parseDocument(segment.text, parseOptions());
          // Invalid YAML: parsed only with --all-documents, as documented.
          if (doc.errors.length > 0) continue;
          const data = doc.toJS() as { kind?: unknown } | null;
          if (data?.kind !== kind) return false;
        }
        return true;
      },
    ),
    propertyParameters(2000),
  );
  t.pass();
});

// ---------------------------------------------------------------------------------------------
// The split, against the plain line-by-line reading it replaced
// ---------------------------------------------------------------------------------------------

/**
 * The reference split: one regex per line, as simple as it gets (the implementation before
 * issue #9).
 */
function referenceSplit(stream: string): {
  bom: string;
  segments: Array<{ index: number; text: string; offset: number; length: number; line: number }>;
} {
  const bom = stream.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = bom ? stream.slice(1) : stream;
  const segments: Array<{
    index: number;
    text: string;
    offset: number;
    length: number;
    line: number;
  }> = [];
  let start = 0;
  let startLine = 1;
  let line = 1;
  let pos = 0;
  let seenContent = false;
  const push = (end: number) => {
    if (end > start)
      segments.push({
        index: segments.length,
        text: body.slice(start, end),
        offset: start,
        length: end - start,
        line: startLine,
      });
    start = end;
    startLine = line;
    seenContent = false;
  };
  while (pos < body.length) {
    const next = body.indexOf('\n', pos);
    const lineEnd = next === -1 ? body.length : next + 1;
    const marker = /^(?:---(?=[ \t\r\n]|$)|\.\.\.(?=[ \t\r\n]|$))/.exec(
      body.slice(pos, Math.min(pos + 4, lineEnd)),
    )?.[0];
    if (marker === '---') {
      if (seenContent) push(pos);
      seenContent = true;
    } else if (marker === '...') {
      line++;
      pos = lineEnd;
      push(pos);
      continue;
    } else if (!seenContent && !/^(?:[ \t]*(?:#.*)?|%.*)\r?\n?$/.test(body.slice(pos, lineEnd))) {
      seenContent = true;
    }
    line++;
    pos = lineEnd;
  }
  push(body.length);
  return { bom, segments };
}

test('split: same segments as the line-by-line reference, and lossless', (t) => {
  const pieces = [
    '---',
    '...',
    '----',
    '--- x',
    '---\t',
    '.. .',
    'a: 1',
    '# c',
    '%YAML 1.1',
    ' ',
    '\n',
    '\r\n',
    '\r',
    '-',
    '.',
    '\uFEFF',
    'ü',
  ];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 24 }), (parts) => {
      const text = parts.join('');
      const split = splitStream(text);
      t.deepEqual(split, referenceSplit(text));
      return split.bom + split.segments.map((s) => s.text).join('') === text;
    }),
    propertyParameters(3000),
  );
  for (const name of corpusNames())
    t.deepEqual(splitStream(corpus(name)), referenceSplit(corpus(name)), name);
});

/** The segments of the UTF-8 bytes of `text` after any byte-order mark, as plain data. */
function bytesSplit(text: string): Array<{ index: number; text: string; line: number }> {
  const bytes = Buffer.from(text, 'utf8');
  const bomLength = bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? 3 : 0;
  const body = bytes.subarray(bomLength);
  return splitBytes(bytes, bomLength).map((segment) => {
    // The offsets and lengths are in bytes; each text is the latin1 view of those bytes.
    const own = body.subarray(segment.offset, segment.offset + segment.length);
    if (segment.text !== own.toString('latin1')) throw new Error('text is not its bytes in latin1');
    return { index: segment.index, text: own.toString('utf8'), line: segment.line };
  });
}

test('split: bytes cut where the text does, at byte offsets', (t) => {
  const pieces = [
    '---',
    '...',
    '--- x',
    'a: 1',
    '# c',
    '%YAML 1.1',
    '\n',
    '\r\n',
    'ü',
    '日本',
    '😀',
  ];
  const plain = (text: string) =>
    splitStream(text).segments.map(({ index, text, line }) => ({ index, text, line }));
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 24 }), (parts) => {
      const text = parts.join('');
      t.deepEqual(bytesSplit(text), plain(text));
      t.deepEqual(bytesSplit('\uFEFF' + text), plain(text));
    }),
    propertyParameters(1000),
  );
  for (const name of corpusNames())
    t.deepEqual(bytesSplit(corpus(name)), plain(corpus(name)), name);
});
