/**
 * Issue #15 item 2: ResourceList items may share anchors (kustomize's own tests build such lists:
 * test/fixtures/krm/kustomize-deanchor-resourcelist.yaml, kyaml-list-with-anchors.yaml). They are
 * accepted, with correct output; an alias to no anchor is named as such; a billion-laughs list is
 * still refused. All through the CLI, as kpt and kustomize run it.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { runCli, NO_MUTATORS } from '../helpers/cli.ts';
import { fixturePath } from '../helpers/fixtures.ts';

const fixture = (name: string) => readFileSync(fixturePath('krm', name), 'utf8');
const read = (text: string) => parseDocument(text, { version: '1.1' }).toJS();

for (const args of [[], ['--all-documents']]) {
  test(`kustomize's TestDeAnchorResourceList list comes back byte for byte ${args.join(' ')}`, (t) => {
    const input = fixture('kustomize-deanchor-resourcelist.yaml');
    const run = runCli(args, input);
    t.is(run.status, 0, run.stderr);
    t.is(run.stderr, '');
    t.is(run.stdout, input);
    // What kustomize's test expects after DeAnchor: bob's feeling is betty's anchored blue.
    t.deepEqual(
      read(run.stdout).items.map((i: { data: unknown }) => i.data),
      [
        { color: 'blue', feeling: 'blue' },
        { color: 'red', feeling: 'blue' },
      ],
    );
  });
}

test("kyaml's listWithAnchors (one Deployment spec shared by two): accepted, items unchanged, a result for each", (t) => {
  const input = fixture('kyaml-list-with-anchors.yaml');
  const run = runCli([], input);
  t.is(run.status, 0, run.stderr);
  t.true(run.stdout.startsWith(input), 'items as they came; results appended');
  const data = read(run.stdout);
  t.deepEqual(
    data.results.map((r: { resourceRef: { name: string } }) => r.resourceRef.name),
    ['deployment-a', 'deployment-b'],
  );
  t.deepEqual(data.items[1].spec, data.items[0].spec);
});

/** A Service and two Deployments sharing one spec (and the Service's selector) through anchors. */
const sharedSpec = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: Service
  metadata:
    name: web
  spec:
    selector: &selector
      app: web
    ports:
    - port: 80
      targetPort: 8080
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: deployment-a
  spec: &webSpec
    selector:
      matchLabels: *selector
    template:
      metadata:
        labels: *selector
      spec:
        containers:
        - name: web
          image: nginx:1.27
          ports:
          - containerPort: 8080
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: deployment-b
  spec: *webSpec
`;

test('two Deployments sharing one spec get the same edit, made once in the anchor; the aliases stay', (t) => {
  const run = runCli([], sharedSpec);
  t.is(run.status, 0, run.stderr);
  t.true(run.stdout.includes('  spec: *webSpec\n'), 'deployment-b still aliases the spec');
  t.true(
    run.stdout.includes('      matchLabels: *selector\n') &&
      run.stdout.includes('        labels: *selector\n'),
  );
  const data = read(run.stdout);
  for (const deployment of [data.items[1], data.items[2]]) {
    t.deepEqual(
      deployment.spec.template.spec.containers[0].lifecycle,
      { preStop: { sleep: { seconds: 5 } } },
      deployment.metadata.name,
    );
  }
  const edited = data.results.filter(
    (r: { field?: { path: string } }) =>
      r.field?.path === 'spec.template.spec.containers[name=web].lifecycle.preStop',
  );
  t.deepEqual(
    edited.map((r: { resourceRef: { name: string } }) => r.resourceRef.name),
    ['deployment-a', 'deployment-b'],
  );
});

test('an edit that would reach another item through an anchor is refused (exit 2), naming both', (t) => {
  const input = sharedSpec.replace(
    '    name: deployment-b\n',
    '    name: deployment-b\n    annotations: {kube-graceful.dev/skip: "true"}\n',
  );
  const run = runCli([], input);
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.regex(
    run.stderr,
    new RegExp(
      String.raw`^kube-graceful: E_INPUT: document 2 \(Deployment deployment-a\), line 14: ` +
        String.raw`an edit to this item would also change item 3 \(Deployment deployment-b\): ` +
        String.raw`they share a node through an anchor`,
    ),
  );
  t.regex(run.stderr, /how to fix: Write the shared fields out/);
});

test('an item whose own edit differs from the anchor it aliases gets the alias written out (exit 0, data right)', (t) => {
  // deployment-b aliases only the containers of deployment-a, and its own grace period differs.
  const input = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: Service
  metadata: {name: web}
  spec:
    selector: {app: web}
    ports: [{port: 80, targetPort: 8080}]
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: a}
  spec:
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        terminationGracePeriodSeconds: 30
        containers: &containers
        - name: web
          image: nginx:1.27
          ports:
          - containerPort: 8080
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: b
    annotations: {kube-graceful.dev/drain-window: "40"}
  spec:
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: *containers
`;
  const run = runCli([], input);
  t.is(run.status, 0, run.stderr);
  t.true(run.stdout.includes('        containers: &containers\n'), 'the anchor stays');
  t.false(
    run.stdout.includes('*containers'),
    'b writes its containers out: the anchor now holds what only a gets',
  );
  const [, a, b] = read(run.stdout).items;
  t.deepEqual(a.spec.template.spec.containers[0].lifecycle, {
    preStop: { sleep: { seconds: 5 } },
  });
  t.deepEqual(b.spec.template.spec.containers[0].lifecycle, {
    preStop: { sleep: { seconds: 40 } },
  });
  t.deepEqual(
    { ...b.spec.template.spec.containers[0], lifecycle: undefined },
    { ...a.spec.template.spec.containers[0], lifecycle: undefined },
  );
});

test('an alias in an item to an anchor in functionConfig is read and kept', (t) => {
  const input = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
    labels: &team {team: shop}
  data: {app-mode: "off"}
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
    labels: *team
  spec:
    template:
      spec:
        containers:
        - name: web
          image: nginx:1.27
`;
  const run = runCli(['--gateway-mode', 'off', '--job-mode', 'off'], input);
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, input, 'app-mode off in functionConfig was read; nothing to do');
  t.is(runCli(NO_MUTATORS, input).stdout, input);
});

const UNDEFINED_ALIAS = new RegExp(
  String.raw`^kube-graceful: E_PARSE: document 1 \(Deployment web\), line 9: ` +
    String.raw`undefined alias \*missing: no anchor &missing comes before it in this document` +
    String.raw`\n {2}how to fix: Define the anchor \(&missing\) before the alias, ` +
    String.raw`or write the value out instead of \*missing; ` +
    String.raw`anchors do not reach across documents \(---\)\.\n$`,
);

test('an undefined alias in a ResourceList item is named as such, not as an alias bomb', (t) => {
  const input = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    replicas: *missing
`;
  for (const args of [[], ['--all-documents']]) {
    const run = runCli(args, input);
    t.is(run.status, 2);
    t.is(run.stdout, '');
    t.regex(run.stderr, UNDEFINED_ALIAS);
  }
});

test('an undefined alias in a stream document is named as such', (t) => {
  const run = runCli(
    [],
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ' +
      'c}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ' +
      'web\nspec:\n  replicas: *missing\n',
  );
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.regex(
    run.stderr,
    new RegExp(
      String.raw`^kube-graceful: E_PARSE: document 2 \(Deployment web\), line 10: ` +
        String.raw`undefined alias \*missing: no anchor &missing comes before it`,
    ),
  );
});

test("kustomize's TestDeAnchorMultiDoc: an alias to the previous document's anchor is an undefined alias (with --all-documents)", (t) => {
  const input = fixture('kustomize-deanchor-multidoc.yaml');
  const run = runCli(['--all-documents'], input);
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.regex(
    run.stderr,
    new RegExp(
      String.raw`^kube-graceful: E_PARSE: document 2 \(ConfigMap bob\), line 18: ` +
        String.raw`undefined alias \*color-used: no anchor &color-used comes before it ` +
        String.raw`in this document\n {2}how to fix: .*anchors do not reach across documents`,
    ),
  );
  // Without the flag ConfigMaps are passed through unread, as every document of a kind no mutator
  // reads: only Envoy Gateway's config (a ConfigMap with `envoy-gateway.yaml`) is read, and a
  // Gateway's parameters where a Gateway is in the stream.
  t.is(runCli([], input).stdout, input);
});

/** Billion laughs spread over the items of a list: each level's anchor in its own item. */
const laughs = (levels: number) => {
  let items =
    '- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: l0}\n  ' +
    'data:\n    x: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i <= levels; i++) {
    const aliases = Array(9)
      .fill(`*l${i - 1}`)
      .join(',');
    items +=
      `- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: l${i}}\n  ` +
      `data:\n    x: &l${i} [${aliases}]\n`;
  }
  return (
    `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items}` +
    `- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web}\n  ` +
    `spec:\n    template:\n      metadata:\n        annotations:\n         ` +
    ` bomb: *l${levels}\n      spec:\n        containers: [{name: web, ` +
    `image: x}]\n`
  );
};

test('billion laughs across items is still an alias bomb (exit 2, bounded time)', (t) => {
  const run = runCli([], laughs(8));
  t.is(run.status, 2, run.stderr);
  t.is(run.stdout, '');
  t.regex(
    run.stderr,
    new RegExp(
      String.raw`^kube-graceful: E_ALIAS_BOMB: document \d+ \(ConfigMap\): too many alias ` +
        String.raw`expansions behind \*l\d`,
    ),
  );
});
