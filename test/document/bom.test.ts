/**
 * Issue #33 item 7: a byte-order mark that opens a later document, as files joined into one stream
 * keep theirs (`---\n\uFEFF…`), is read the way the real `kubectl kustomize` (kustomize v5.5.0)
 * reads it, the workload after it is patched, and the mark stays where it was. A mark anywhere else
 * at a line start, which kustomize reads into a key, is refused naming the mark.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { NO_MUTATORS, runCli } from '../helpers/cli.ts';
import { corpus } from '../helpers/fixtures.ts';
import { requireTool } from '../helpers/tools.ts';
import { ManifestDocument } from '../../fn/document/manifest.ts';

const BOM = '\uFEFF';
const kubectl = requireTool('kubectl');
const FLAGS = ['--istio-version', '1.28', '--kube-version', '1.33'];

interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
  spec?: { template?: { spec?: { containers?: Array<{ lifecycle?: unknown }> } } };
}

/** The objects `kubectl kustomize` builds from a stream given as its one resource file. */
function kustomize(stream: string): KubeObject[] {
  const dir = mkdtempSync(join(tmpdir(), 'kg-bom-'));
  writeFileSync(join(dir, 'all.yaml'), stream);
  writeFileSync(join(dir, 'kustomization.yaml'), 'resources:\n- all.yaml\n');
  const run = spawnSync(kubectl, ['kustomize', dir], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`kubectl kustomize: ${run.stderr}`);
  return parseAllDocuments(run.stdout).map((doc) => doc.toJS() as KubeObject);
}

const find = (objects: KubeObject[], kind: string, name: string) =>
  objects.find((object) => object.kind === kind && object.metadata?.name === name);

const httpbin = corpus('istio-sample-httpbin-httpbin.yaml');

/**
 * A second file: the httpbin sample as it is (its licence comment first), or from its Deployment on
 * (the mark then opens `apiVersion: apps/v1`, as in the issue).
 */
const secondFiles = [
  { name: 'a licence comment', text: httpbin },
  {
    name: 'a Deployment',
    text: httpbin.slice(httpbin.indexOf('apiVersion: apps/v1\nkind: Deployment\n')),
  },
];

/** Two real sample files joined as `cat` would, with a `---` between; the second one has a mark. */
const joined = (second: string) =>
  `${corpus('istio-sample-helloworld-helloworld.yaml')}---\n${BOM}${second}`;

for (const second of secondFiles) {
  test(`a mark after \`---\` before ${second.name} is read as kubectl kustomize reads it, and the workload is patched`, (t) => {
    const input = joined(second.text);
    const at = input.indexOf(BOM);
    const firstLine = second.text.slice(0, second.text.indexOf('\n') + 1);
    const separatorsBefore = input.slice(0, at).split('\n---\n').length - 1;

    // What kustomize makes of it: httpbin's Deployment, as written.
    t.is(find(kustomize(input), 'Deployment', 'httpbin')?.apiVersion, 'apps/v1');

    for (const run of [runCli(FLAGS, input), runFile(input)]) {
      t.is(run.status, 0, run.stderr);
      // The same output as without the mark, with the mark where it was.
      const unmarked = runCli(FLAGS, input.slice(0, at) + input.slice(at + 1));
      const mark = afterSeparator(unmarked.stdout, separatorsBefore);
      t.true(unmarked.stdout.startsWith(firstLine, mark));
      t.is(run.stdout, unmarked.stdout.slice(0, mark) + BOM + unmarked.stdout.slice(mark));
      t.not(run.stdout, unmarked.stdout);
      // …in which kustomize reads the patched Deployment.
      const built = find(kustomize(run.stdout), 'Deployment', 'httpbin');
      t.truthy(built?.spec?.template?.spec?.containers?.[0]?.lifecycle, 'httpbin is patched');
    }
  });

  test(`documents with a mark before ${second.name} that nothing changes pass through byte for byte`, (t) => {
    const input = joined(second.text);
    const run = runCli([...FLAGS, ...NO_MUTATORS], input);
    t.is(run.status, 0, run.stderr);
    t.is(run.stdout, input);
    t.is(runFile(input, NO_MUTATORS).stdout, input, 'read from a file as well');
  });
}

test('a changed document keeps its mark, and its lines count as in the input', (t) => {
  const doc = new ManifestDocument(`---\n${BOM}# c\nkind: A\nspec: {a: 2}\n`, {
    document: 2,
    line: 9,
  });
  t.deepEqual(doc.data, { kind: 'A', spec: { a: 2 } });
  doc.set(['spec', 'x'], 1);
  t.is(doc.text, `---\n${BOM}# c\nkind: A\nspec: {a: 2, x: 1}\n`);
  t.is(doc.lineAt(doc.document.contents!.range![0]), 11, 'lines count in the input');
});

test('a mark elsewhere at a line start is refused, naming it (kustomize reads it into a key)', (t) => {
  const sample = corpus('istio-sample-helloworld-helloworld.yaml');
  // After the Service: a `# Source:` comment, as Helm writes, then the mark.
  const input = sample.replace(
    '---\napiVersion: apps/v1\n',
    `---\n# Source: x\n${BOM}apiVersion: apps/v1\n`,
  );
  t.not(input, sample);
  const deployment = find(kustomize(input), 'Deployment', 'helloworld-v1');
  t.is(deployment?.apiVersion, undefined, 'kustomize has no apiVersion for it');

  const run = runCli(FLAGS, input);
  t.is(run.status, 2);
  t.regex(
    run.stderr,
    /E_PARSE: document 2 \(Deployment helloworld-v1\), line 16: a byte-order mark \(U\+FEFF\)/,
  );
  t.is(run.stdout, '');
});

/** The CLI run on a file that holds `input` (files are read by another path than stdin). */
function runFile(input: string, args: readonly string[] = []) {
  const file = join(mkdtempSync(join(tmpdir(), 'kg-bom-in-')), 'in.yaml');
  writeFileSync(file, input);
  return runCli([...FLAGS, ...args, file], '');
}

/** The offset right after the `n`th `---` line of a stream. */
function afterSeparator(stream: string, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) at = stream.indexOf('\n---\n', at + 1);
  return at + '\n---\n'.length;
}
