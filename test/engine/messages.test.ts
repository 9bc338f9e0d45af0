/**
 * Issue #15 item 5: every message is the tool's own, names what was found and says how to fix it:
 * no library message ("please use YAML.parseAllDocuments()"), no `undefined/undefined`, no
 * "a map" for binary data, no Node warning on stderr for valid YAML. Through the CLI, as Helm,
 * kustomize and kpt run it: exit code, stderr, and stdout (empty on an error).
 */
import test from 'ava';
import { runCli } from '../helpers/cli.ts';

const LIBRARY_WORDS =
  /YAML\.parse|parseAllDocuments|mapAsMap|JS Object|\(node:\d+\)|Warning:|undefined|\n\s+at /;

test('a ResourceList after other documents: named, with how to fix (no library message)', (t) => {
  const run = runCli(
    [],
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ' +
      'c}\n---\napiVersion: config.kubernetes.io/v1\nkind: ' +
      'ResourceList\nitems: []\n',
  );
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.is(
    run.stderr,
    'kube-graceful: E_INPUT: document 2 (ResourceList), line 4: document 2 ' +
      'is a ResourceList, but the input holds 2 documents; a ResourceList ' +
      'must be the only document\n' +
      ('  how to fix: Send the ResourceList alone (as kpt and kustomize do), ' +
        'or a plain stream of manifests without it (`kpt fn source DIR` wraps ' +
        'a folder of manifests into one ResourceList).\n'),
  );
});

test('a ResourceList followed by another document: the same message (check too)', (t) => {
  const input =
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: ' +
    '[]\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n';
  for (const args of [[], ['check']]) {
    const run = runCli(args, input);
    t.is(run.status, 2, args.join(' '));
    t.is(run.stdout, '');
    t.regex(
      run.stderr,
      new RegExp(
        String.raw`^kube-graceful: E_INPUT: document 1 \(ResourceList\), line 1: ` +
          String.raw`document 1 is a ResourceList, but the input holds 2 documents`,
      ),
    );
    t.notRegex(run.stderr, LIBRARY_WORDS);
  }
});

test('a functionConfig without apiVersion and kind says so', (t) => {
  const run = runCli(
    [],
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: ' +
      '[]\nfunctionConfig:\n  data: {max-request: "10"}\n',
  );
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.is(
    run.stderr,
    'kube-graceful: E_CONFIG: functionConfig: unsupported config: no apiVersion and no kind\n' +
      ('  how to fix: Use apiVersion: kube-graceful.dev/v1alpha1 with kind: ' +
        'GracefulShutdown, or a ConfigMap whose data keys are the flag names ' +
        '(e.g. kube-version: "1.31").\n'),
  );
});

test('a functionConfig of another kind names its apiVersion and kind', (t) => {
  const run = runCli(
    [],
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: ' +
      '[]\nfunctionConfig:\n  apiVersion: example.com/v1\n  kind: SetLabels\n',
  );
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.regex(
    run.stderr,
    new RegExp(
      String.raw`^kube-graceful: E_CONFIG: functionConfig: unsupported config: ` +
        String.raw`apiVersion "example\.com\/v1" and kind "SetLabels"\n {2}how to fix: `,
    ),
  );
});

test('a !!binary annotation is called binary data, not a map', (t) => {
  const run = runCli(
    [],
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  ' +
      'annotations:\n    kube-graceful.dev/drain-window: !!binary ' +
      'aGVsbG8=\nspec:\n  template:\n    spec:\n      containers: [{name: c, ' +
      'image: x}]\n',
  );
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.is(
    run.stderr,
    'kube-graceful: E_INPUT: document 1 (Deployment web), line 6, ' +
      'metadata.annotations["kube-graceful.dev/drain-window"]: ' +
      'metadata.annotations["kube-graceful.dev/drain-window"] is binary data ' +
      '(a !!binary value), not a string\n' +
      ('  how to fix: The API server would reject this workload as well; fix ' +
        'the template that renders it (or exclude the workload, or annotate it ' +
        'kube-graceful.dev/skip: "true").\n'),
  );
});

test('valid YAML with a complex key: no Node warning on stderr, output unchanged', (t) => {
  const input =
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  ' +
    'labels:\n    ? [a, b]\n    : c\nspec:\n  template:\n    spec:\n      ' +
    'containers: [{name: c, image: x}]\n';
  for (const args of [[], ['--all-documents']]) {
    const run = runCli(args, input);
    t.is(run.status, 0, run.stderr);
    t.is(run.stderr, '');
    t.is(run.stdout, input);
  }
  // In a document no mutator reads, parsed with --all-documents, and in a ResourceList item.
  const configMap =
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  ? {a: 1}\n  : b\n';
  const run = runCli(['--all-documents'], configMap);
  t.is(run.status, 0);
  t.is(run.stderr, '');
  t.is(run.stdout, configMap);
  const list =
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n' +
    `- ${input.replace(/\n(?=.)/g, '\n  ')}`;
  const krm = runCli([], list);
  t.is(krm.status, 0);
  t.notRegex(krm.stderr, LIBRARY_WORDS);
});
