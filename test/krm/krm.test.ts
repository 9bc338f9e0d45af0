/**
 * The KRM function contract (issue #2): ResourceList in, ResourceList out; items untouched byte
 * for byte when nothing changes; functionConfig read; results appended; real kpt round trips.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { transform } from '../../fn/engine/transform.ts';
import { probeMutator } from '../helpers/testMutator.ts';
import { cliPath, corpus } from '../helpers/fixtures.ts';
import { requireTool } from '../helpers/tools.ts';

const list = (items: string, extra = '') => `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
# a comment kpt keeps
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: cm
    annotations:
      config.kubernetes.io/path: cm.yaml
      internal.config.kubernetes.io/path: cm.yaml
  data:
    mode: 0644
${items}${extra}`;

const pod = `- apiVersion: v1
  kind: Pod
  metadata:
    name: p # keep me
    annotations:
      internal.config.kubernetes.io/path: pod.yaml
      internal.config.kubernetes.io/index: '0'
  spec:
    containers:
    - name: c
      image: x
`;

test('a ResourceList nobody changes comes back byte-identical', (t) => {
  const input = list(pod);
  const result = transform(input, { mutators: [] });
  t.is(result.mode, 'resourceList');
  t.is(result.output, input);
});

test('an edited item keeps bookkeeping annotations and comments; results are appended to existing ones', (t) => {
  const input = list(pod, 'results:\n- message: from an earlier function\n  severity: info\n');
  const { output, changes } = transform(input, { mutators: [probeMutator] });
  t.true(changes.length > 0);
  t.true(output.includes('name: p # keep me'));
  t.true(output.includes("internal.config.kubernetes.io/index: '0'"));
  t.true(output.includes('# a comment kpt keeps'));
  t.true(output.includes('    mode: 0644'), 'untouched item keeps its text');
  const data = parseDocument(output, { version: '1.1' }).toJS();
  t.is(data.items[1].spec.terminationGracePeriodSeconds, 99);
  t.is(data.results[0].message, 'from an earlier function');
  const probe = data.results.find(
    (r: { field?: { path: string } }) => r.field?.path === 'spec.terminationGracePeriodSeconds',
  );
  t.like(probe, {
    severity: 'info',
    resourceRef: { kind: 'Pod', name: 'p' },
    field: { proposedValue: 99 },
    file: { path: 'pod.yaml', index: 0 },
  });
});

test('functionConfig: a ConfigMap of flat keys, the empty function-input, and a typed config', (t) => {
  const withConfig = (fc: string) =>
    transform(`${list(pod)}functionConfig:\n${fc}`, { mutators: [] }).config;
  t.is(
    withConfig(
      '  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: ' +
        'function-input}\n  data: {kube-version: "1.29", max-request: "10"}\n',
    ).spec.kubernetesVersion,
    '1.29',
  );
  t.is(
    withConfig(
      '  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: function-input}\n  data: {}\n',
    ).spec.kubernetesVersion,
    '1.31',
  );
  const typed = withConfig(
    '  apiVersion: kube-graceful.dev/v1alpha1\n  kind: GracefulShutdown\n  ' +
      'spec: {timing: {bufferSeconds: 9}}\n',
  );
  t.is(typed.spec.timing.bufferSeconds, 9);
  t.deepEqual(typed.provenance.get('timing.bufferSeconds'), {
    kind: 'document',
    document: 'functionConfig',
  });
});

const kpt = requireTool('kpt');
const off = ['gateway-mode=off', 'job-mode=off', 'app-mode=off'];

test('kpt fn eval - --exec … -o unwrap round-trips a chart unchanged', (t) => {
  const input = corpus('istio-gateway-1.24.6-nlb.yaml');
  const out = execFileSync(
    kpt,
    ['fn', 'eval', '-', '--exec', cliPath(), '-o', 'unwrap', '--', ...off],
    { input, encoding: 'utf8' },
  );
  // kpt's own reformatting (kyaml) drops an empty `annotations: {}` after removing its
  // bookkeeping annotations; that is kpt, not us, so it is normalised away here.
  const docs = (text: string) =>
    text
      .split(/^---$/m)
      .map((d) => parseDocument(d, { version: '1.1' }).toJS())
      .filter(Boolean)
      .map((d) => {
        if (d.metadata?.annotations && Object.keys(d.metadata.annotations).length === 0)
          delete d.metadata.annotations;
        return d;
      });
  t.deepEqual(
    docs(out).map((d) => `${d.kind}/${d.metadata.name}`),
    docs(input).map((d) => `${d.kind}/${d.metadata.name}`),
  );
  t.deepEqual(docs(out), docs(input));
});

test('kpt fn eval DIR --exec … leaves the package files (names, comments) unchanged', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kg-kpt-'));
  cpSync(join(import.meta.dirname, '..', 'fixtures', 'kpt-package'), dir, { recursive: true });
  const before = Object.fromEntries(
    readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );
  execFileSync(kpt, ['fn', 'eval', dir, '--exec', cliPath(), '--', ...off], {
    encoding: 'utf8',
    stdio: 'pipe',
  });
  const after = Object.fromEntries(
    readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );
  t.deepEqual(Object.keys(after).sort(), Object.keys(before).sort());
  for (const [file, text] of Object.entries(before)) t.is(after[file], text, file);
});
