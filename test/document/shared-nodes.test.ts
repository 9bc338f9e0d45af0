/**
 * Issue #15 item 1: an edit whose path crosses an anchor, alias or merge key used to end in exit 70
 * ("a bug in kube-graceful"). Each case runs through the CLI on the Istio helloworld sample's
 * Deployments (test/fixtures/corpus/istio-sample-helloworld-helloworld.yaml) put in one
 * `kind: List` so that they can share nodes, in a namespace with Istio injection, so that the app
 * mutator patches them. The oracle is the same input with every alias written out: the output must
 * read as what kube-graceful makes of that, for every workload (the one that holds the anchor and
 * the one that uses it), whichever of them is patched, and a second run must change nothing.
 */
import test from 'ava';
import { parseAllDocuments, stringify } from 'yaml';

/**
 * Versions at which sidecar-mode auto gives apps a (pinned) native sidecar: Istio ≥ 1.27 with every
 * kubelet ≥ 1.33.
 */
const NATIVE_BY_DEFAULT = ['--istio-version', '1.28', '--kube-version', '1.33'];
import { runCli } from '../helpers/cli.ts';

const namespace = `apiVersion: v1
kind: Namespace
metadata:
  name: sample
  labels:
    istio-injection: enabled
`;

/** `skip` puts kube-graceful's skip annotation on one of the two Deployments (v1 or v2). */
const list = (v1Template: string, v2Template: string, skip?: 'v1' | 'v2') => {
  const annotations = (who: string) =>
    skip === who ? `\n    annotations: {kube-graceful.dev/skip: "true"}` : '';
  return `${namespace}---
apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: helloworld-v1
    namespace: sample${annotations('v1')}
    labels: {app: helloworld, version: v1}
  spec:
    replicas: 1
    selector:
      matchLabels: {app: helloworld, version: v1}
${v1Template}
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: helloworld-v2
    namespace: sample${annotations('v2')}
    labels: {app: helloworld, version: v2}
  spec:
    replicas: 1
    selector:
      matchLabels: {app: helloworld, version: v2}
${v2Template}
`;
};

const container = (indent: string, first: string, more = '') => `${first}name: helloworld
${indent}image: registry.istio.io/release/examples-helloworld-v1:1.0${more}
${indent}resources:
${indent}  requests:
${indent}    cpu: "100m"
${indent}imagePullPolicy: IfNotPresent #Always
${indent}ports:
${indent}- containerPort: 5000`;

/** A pod template anchored in the first workload and aliased in the second. */
const sharedPodTemplate = (skip?: 'v1' | 'v2') =>
  list(
    `    template: &pod
      metadata:
        labels:
          app: helloworld
      spec:
        containers:
        - ${container('          ', '')}`,
    `    template: *pod`,
    skip,
  );

/**
 * A container anchored in the first workload and aliased in the second's flow list: `containers:
 * [*c]`.
 */
const sharedContainer = (skip?: 'v1' | 'v2') =>
  list(
    `    template:
      metadata:
        labels: {app: helloworld}
      spec:
        containers:
        - ${container('          ', '&c\n          ')}`,
    `    template:
      metadata:
        labels: {app: helloworld}
      spec:
        containers: [*c]`,
    skip,
  );

/**
 * The second workload's container merges the first's (`<<: *c`) and gets its name from the merge.
 */
const mergedContainer = (skip?: 'v1' | 'v2') =>
  list(
    `    template:
      metadata:
        labels: {app: helloworld}
      spec:
        containers:
        - ${container('          ', '&c\n          ')}`,
    `    template:
      metadata:
        labels: {app: helloworld}
      spec:
        containers:
        - <<: *c
          image: registry.istio.io/release/examples-helloworld-v2:1.0`,
    skip,
  );

/**
 * As mergedContainer, and the field edited (`lifecycle.preStop`) is inside a map the merge gives.
 */
const mergedLifecycle = (skip?: 'v1' | 'v2') =>
  list(
    `    template:
      metadata:
        labels: {app: helloworld}
      spec:
        containers:
        - ${container(
          '          ',
          '&c\n          ',
          '\n' +
            '          lifecycle:\n' +
            '            postStart:\n' +
            '              exec: {command: [/bin/true]}',
        )}`,
    `    template:
      metadata:
        labels: {app: helloworld}
      spec:
        containers:
        - <<: *c
          image: registry.istio.io/release/examples-helloworld-v2:1.0`,
    skip,
  );

/**
 * The whole container list anchored in the first workload and aliased in the second: `containers:
 * *cs`.
 */
const sharedContainerList = (skip?: 'v1' | 'v2') =>
  list(
    `    template:
      metadata:
        labels: {app: helloworld}
      spec:
        containers: &cs
        - ${container('          ', '')}`,
    `    template:
      metadata:
        labels: {app: helloworld}
      spec:
        containers: *cs`,
    skip,
  );

/**
 * The second workload's container merges a list of maps, the first one's container first: `<<: [*c,
 * {…}]`.
 */
const mergedList = (skip?: 'v1' | 'v2') =>
  list(
    `    template:
      metadata:
        labels: {app: helloworld}
      spec:
        containers:
        - ${container('          ', '&c\n          ')}`,
    `    template:
      metadata:
        labels: {app: helloworld}
      spec:
        containers:
        - <<: [*c, {imagePullPolicy: Always}]
          image: registry.istio.io/release/examples-helloworld-v2:1.0`,
    skip,
  );

/**
 * The documents of a stream as plain data, read as Kubernetes reads them (YAML 1.1, merge keys).
 */
const data = (text: string) =>
  parseAllDocuments(text, { version: '1.1', merge: true }).map((doc) => doc.toJS());

/** The same stream with every alias and merge written out. */
const writtenOut = (text: string) =>
  data(text)
    .map((object) => stringify(object, { aliasDuplicateObjects: false, version: '1.1' }))
    .join('---\n');

interface Workload {
  spec: {
    template: {
      metadata: { annotations?: Record<string, string> };
      spec: { containers: Array<{ name: string; image: string; lifecycle?: unknown }> };
    };
  };
}
const workloads = (text: string) => (data(text)[1] as { items: Workload[] }).items;

const cases = [
  {
    name: 'a pod template anchored in one workload and aliased in the next',
    input: sharedPodTemplate,
    image2: 'v1',
    kept: /template: \*pod\n/,
  },
  { name: 'containers: [*c]', input: sharedContainer, image2: 'v1', kept: /containers: \[\*c\]\n/ },
  {
    name: 'containers: [{<<: *c}] with the name from the merge',
    input: mergedContainer,
    image2: 'v2',
    kept: /- <<: \*c\n/,
  },
  { name: 'containers: *cs', input: sharedContainerList, image2: 'v1', kept: /containers: \*cs\n/ },
  { name: 'containers: [{<<: [*c, {…}]}]', input: mergedList, image2: 'v2', kept: /- <<: \[\*c, / },
  {
    name: 'containers: [{<<: *c}] with the edited lifecycle from the merge',
    input: mergedLifecycle,
    image2: 'v2',
    kept: /- <<: \*c\n/,
  },
] as const;

for (const c of cases) {
  for (const skip of [undefined, 'v1', 'v2'] as const) {
    const patched = { v1: skip !== 'v1', v2: skip !== 'v2' };
    test(`${c.name}: ${skip ? `only ${skip === 'v1' ? 'v2' : 'v1'} patched` : 'both patched'}`, (t) => {
      const input = c.input(skip);
      const run = runCli(NATIVE_BY_DEFAULT, input);
      t.is(run.status, 0, run.stderr);
      // Every workload reads as it does when the input is written without aliases.
      const oracle = runCli(NATIVE_BY_DEFAULT, writtenOut(input));
      t.is(oracle.status, 0, oracle.stderr);
      t.deepEqual(data(run.stdout), data(oracle.stdout));
      // …which is: each patched workload has its preStop and its native-sidecar annotation, and the
      // other one does not, whichever of them holds the anchor.
      const [v1, v2] = workloads(run.stdout);
      for (const [workload, on, image] of [
        [v1!, patched.v1, 'v1'],
        [v2!, patched.v2, c.image2],
      ] as const) {
        const [app] = workload.spec.template.spec.containers;
        t.is(workload.spec.template.spec.containers.length, 1);
        t.is(app!.name, 'helloworld');
        t.is(app!.image, `registry.istio.io/release/examples-helloworld-${image}:1.0`);
        t.is((app!.lifecycle as { preStop?: unknown } | undefined)?.preStop !== undefined, on);
        t.is(
          workload.spec.template.metadata.annotations?.['sidecar.istio.io/nativeSidecar'],
          on ? 'true' : undefined,
        );
      }
      // When both get the same change, the anchor is edited and the alias kept.
      if (!skip) t.regex(run.stdout, c.kept);
      // A second run changes nothing.
      const again = runCli(NATIVE_BY_DEFAULT, run.stdout);
      t.is(again.status, 0, again.stderr);
      t.is(again.stdout, run.stdout);
    });
  }
}

test(`a pod template whose metadata is the workload's (metadata: *meta): the template gets its own copy`, (t) => {
  // The shape test/reliability/bad-input-corpus.test.ts used to expect a refusal for.
  const input = `apiVersion: apps/v1
kind: Deployment
metadata: &meta
  name: web
  namespace: shop
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: *meta
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{containerPort: 8080}]
`;
  const args = ['--sidecar-mode', 'classic', '--istio-injected-namespaces', 'shop'];
  const run = runCli(args, input);
  t.is(run.status, 0, run.stderr);
  const oracle = runCli(args, writtenOut(input));
  t.deepEqual(data(run.stdout), data(oracle.stdout));
  const [deployment] = data(run.stdout) as Array<{
    metadata: Record<string, unknown>;
    spec: { template: { metadata: { name: string; annotations: Record<string, string> } } };
  }>;
  t.deepEqual(
    deployment!.metadata,
    { name: 'web', namespace: 'shop' },
    "the workload's own metadata is unchanged",
  );
  t.is(deployment!.spec.template.metadata.name, 'web');
  t.truthy(deployment!.spec.template.metadata.annotations['proxy.istio.io/config']);
  t.regex(run.stdout, /^metadata: &meta\n {2}name: web\n {2}namespace: shop\nspec:/m);
  t.is(runCli(args, run.stdout).stdout, run.stdout, 'a second run changes nothing');
});
