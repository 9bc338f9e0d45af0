/**
 * Issue #2 point 2: lossless output. Each shape passes through untouched byte-for-byte, and an
 * edited document keeps its line endings, comments, quoting and style outside the edited nodes.
 */
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import { transform } from '../../fn/engine/transform.ts';
import { probeMutator } from '../helpers/testMutator.ts';

const deployment = (extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # trailing comment
  namespace: shop
spec:
  template:
    metadata:
      labels: {app: web}
    spec:
      volumes:
      - name: cfg
        configMap:
          name: cfg
          defaultMode: 0644
      containers:
        - name: web
          image: 'nginx:1.27'
          args: ["--flag", "yes"]
${extra}`;

const shapes: Record<string, string> = {
  'comments and markers':
    `# leading comment\n---\n# Source: x.yaml\napiVersion: v1\nkind: ` +
    `ConfigMap\nmetadata: {name: a}\n...\n---\n# only a ` +
    `comment\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n`,
  'comment-only documents': `---\n# Source: empty.yaml\n---\n# another\n`,
  CRLF: deployment().replace(/\n/g, '\r\n'),
  BOM: `\uFEFF${deployment()}`,
  'JSON documents':
    `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": ` +
    `"j"}, "spec": {"template": {"spec": {"containers": [{"name": "c", ` +
    `"image": "x"}]}}}}\n`,
  'anchors and aliases':
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: &n anchored\n  ` +
    `labels: {a: *n}\ndata: {x: "1"}\n`,
  'octal and YAML 1.1 words':
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: octal\ndata:\n  ` +
    `mode: 0644\n  flag: yes\n`,
  'kind List':
    `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  ` +
    `metadata: {name: p}\n  spec:\n    containers:\n    - name: c\n      ` +
    `image: x\n`,
  'document end marker without a new start':
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ` +
    `a}\n...\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n`,
  'no trailing newline': deployment().trimEnd(),
};

for (const [name, input] of Object.entries(shapes)) {
  test(`untouched: ${name}`, (t) => {
    t.is(transform(input, { mutators: [] }).output, input);
    t.is(transform(input, { mutators: [], parseAll: true }).output, input);
  });
}

/** Returns the documents of a stream as plain data (YAML 1.1, like Kubernetes). */
const data = (text: string) => parseAllDocuments(text, { version: '1.1' }).map((d) => d.toJS());

test('edit keeps comments, quoting, octal and sequence style outside the edited nodes', (t) => {
  const { output, changes } = transform(deployment(), { mutators: [probeMutator] });
  t.true(changes.length > 0);
  t.true(output.includes('name: web # trailing comment'));
  t.true(output.includes("image: 'nginx:1.27'"));
  t.true(output.includes('defaultMode: 0644'));
  t.true(output.includes('args: ["--flag", "yes"]'));
  t.true(output.includes('probe.example/on: "yes"'), 'a new YAML 1.1 boolean word is quoted');
  t.true(output.includes('value: "0644"'), 'a new octal-looking string is quoted');
  const [after] = data(output);
  t.is(after.spec.template.spec.terminationGracePeriodSeconds, 99);
  t.deepEqual(after.spec.template.spec.containers[0].lifecycle, {
    preStop: { sleep: { seconds: 7 } },
  });
  t.is(after.spec.template.spec.volumes[0].configMap.defaultMode, 0o644);
  // Only insertions: every input line is still there, in order.
  const out = output.split('\n');
  let at = 0;
  for (const line of deployment().split('\n')) {
    at = out.indexOf(line, at);
    t.not(at, -1, `input line kept: ${line}`);
  }
});

test('edit of a CRLF document writes CRLF only', (t) => {
  const { output } = transform(deployment().replace(/\n/g, '\r\n'), { mutators: [probeMutator] });
  t.false(/[^\r]\n/.test(output), 'every line break is CRLF');
  t.is(data(output)[0].spec.template.spec.terminationGracePeriodSeconds, 99);
});

test('edit keeps a BOM', (t) => {
  const { output } = transform(`\uFEFF${deployment()}`, { mutators: [probeMutator] });
  t.true(output.startsWith('\uFEFFapiVersion'));
});

test('edit of a JSON document stays valid JSON-style flow YAML', (t) => {
  const { output } = transform(shapes['JSON documents']!, { mutators: [probeMutator] });
  t.true(output.trimStart().startsWith('{'));
  const [after] = data(output);
  t.is(after.spec.template.spec.terminationGracePeriodSeconds, 99);
  t.deepEqual(after.spec.template.spec.containers[0].env, [{ name: 'PROBE', value: '0644' }]);
  t.notThrows(() => JSON.parse(output), 'JSON in, JSON out');
});

test('edit inside a kind: List item', (t) => {
  const { output, changes } = transform(shapes['kind List']!, { mutators: [probeMutator] });
  t.true(changes.every((c) => c.resource.kind === 'Pod'));
  const [after] = data(output);
  t.is(after.items[0].spec.terminationGracePeriodSeconds, 99);
});

test('untouched documents around an edited one keep their bytes', (t) => {
  const configMap =
    `---\n# Source: cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  ` +
    `name: c\ndata:\n  a: "1"   # spaced comment\n`;
  const input = `${configMap}---\n${deployment()}${configMap}`;
  const { output } = transform(input, { mutators: [probeMutator] });
  t.true(output.startsWith(configMap));
  t.true(output.endsWith(configMap));
});

test('a second run over edited output changes nothing', (t) => {
  const first = transform(deployment(), { mutators: [probeMutator] });
  const second = transform(first.output, { mutators: [probeMutator] });
  t.deepEqual(second.changes, []);
  t.is(second.output, first.output);
});
