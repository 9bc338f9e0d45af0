/**
 * Issue #33 item 6: a pod template whose annotations are a plain-key flow map
 * (`annotations: {sidecar.istio.io/inject: "true"}` on a meshed app) gets the new key inside that
 * map, and nothing else in the stream changes. The key added here is Istio's
 * `proxy.istio.io/config`, whose value has line breaks: written as yaml prints it, the quoted
 * string spanned lines at column 0, the edit did not read back, and the whole document was
 * re-printed (containers re-indented, comment spacing, the folded scalar refolded).
 *
 * The input is the Istio helloworld sample (test/fixtures/corpus) with its first Deployment's pod
 * template annotated, in each flow shape below.
 */
import test from 'ava';
import { parseAllDocuments, stringify } from 'yaml';
import { runCli } from '../helpers/cli.ts';
import { corpus } from '../helpers/fixtures.ts';
import { ManifestDocument } from '../../fn/document/manifest.ts';

/**
 * Istio 1.20 has no native sidecars and Kubernetes 1.28 no preStop sleep action: the proxy drain
 * settings in `proxy.istio.io/config` are the only field written, so every other byte must stay.
 */
const OLD_MESH = ['--istio-version', '1.20', '--kube-version', '1.28'];

/** The pod template's metadata in the sample, as the chart writes it. */
const TEMPLATE_METADATA =
  '    metadata:\n      labels:\n        app: helloworld\n        version: v1\n    spec:\n';

/** The documents of a stream as plain data, read as Kubernetes reads them (YAML 1.1). */
const data = (text: string) => parseAllDocuments(text, { version: '1.1' }).map((doc) => doc.toJS());

const variants: ReadonlyArray<{ name: string; metadata: string; flowMap: string }> = [
  {
    name: 'plain key, quoted value',
    flowMap: '{sidecar.istio.io/inject: "true"}',
    metadata:
      '    metadata:\n      labels:\n        app: helloworld\n        version: v1\n' +
      '      annotations: FLOW\n    spec:\n',
  },
  {
    name: 'plain keys, a plain value, padded',
    flowMap:
      '{ sidecar.istio.io/inject: "true", kubectl.kubernetes.io/default-container: helloworld }',
    metadata:
      '    metadata:\n      annotations: FLOW\n' +
      '      labels: {app: helloworld, version: v1}\n    spec:\n',
  },
  {
    name: 'one entry per line',
    flowMap:
      '{\n        sidecar.istio.io/inject: "true",\n' +
      '        kubectl.kubernetes.io/default-container: helloworld\n      }',
    metadata:
      '    metadata:\n      labels:\n        app: helloworld\n        version: v1\n' +
      '      annotations: FLOW\n    spec:\n',
  },
  {
    name: 'one entry per line, trailing comma and comments',
    flowMap:
      '{\n        sidecar.istio.io/inject: "true", # meshed\n' +
      '        kubectl.kubernetes.io/default-container: helloworld,  # for kubectl logs\n      }',
    metadata:
      '    metadata:\n      annotations: FLOW # pod annotations\n      labels:\n' +
      '        app: helloworld\n        version: v1\n    spec:\n',
  },
  {
    name: 'inside a flow map of its own',
    flowMap: '{sidecar.istio.io/inject: "true"}',
    metadata:
      '    metadata: {labels: {app: helloworld, version: v1}, annotations: FLOW}\n    spec:\n',
  },
];

for (const variant of variants) {
  test(`a plain-key flow map gets the new key in place: ${variant.name}`, (t) => {
    const sample = corpus('istio-sample-helloworld-helloworld.yaml');
    const at = sample.indexOf(TEMPLATE_METADATA);
    t.not(at, -1, 'the sample has the pod template metadata this test rewrites');
    const input =
      sample.slice(0, at) +
      variant.metadata.replace('FLOW', variant.flowMap) +
      sample.slice(at + TEMPLATE_METADATA.length);
    const start = input.indexOf(variant.flowMap);
    const end = start + variant.flowMap.length;

    const run = runCli(OLD_MESH, input);
    t.is(run.status, 0, run.stderr);
    t.not(run.stdout, input, 'the meshed workload is patched');

    // Every byte before and after the flow map is the input's.
    const tail = input.length - end;
    t.is(run.stdout.slice(0, start), input.slice(0, start));
    t.is(run.stdout.slice(run.stdout.length - tail), input.slice(end));
    const written = run.stdout.slice(start, run.stdout.length - tail);
    t.regex(written, /^\{[^]*\}$/, 'the edit stays between the braces');

    // It reads as kube-graceful's output for the same objects written as block YAML.
    const oracle = runCli(
      OLD_MESH,
      data(input)
        .map((object) => stringify(object, { version: '1.1' }))
        .join('---\n'),
    );
    t.is(oracle.status, 0, oracle.stderr);
    t.deepEqual(data(run.stdout), data(oracle.stdout));
    const annotations = (
      data(run.stdout)[1] as {
        spec: { template: { metadata: { annotations: Record<string, string> } } };
      }
    ).spec.template.metadata.annotations;
    t.is(annotations['sidecar.istio.io/inject'], 'true');
    t.regex(annotations['proxy.istio.io/config'] ?? '', /^proxyMetadata:\n {2}\w+: /);

    // A second run changes nothing.
    const again = runCli(OLD_MESH, run.stdout);
    t.is(again.status, 0, again.stderr);
    t.is(again.stdout, run.stdout);
  });
}

test('a string with line breaks that replaces a value in a flow map stays on its line', (t) => {
  const doc = new ManifestDocument('metadata:\n  annotations: {a: "x", b: y}\n', {
    document: 1,
    line: 1,
  });
  doc.set(['metadata', 'annotations', 'a'], 'proxyMetadata:\n  MINIMUM_DRAIN_DURATION: 25s\n');
  t.is(
    doc.text,
    'metadata:\n  annotations: {a: "proxyMetadata:\\n  MINIMUM_DRAIN_DURATION: 25s\\n", b: y}\n',
  );
});
