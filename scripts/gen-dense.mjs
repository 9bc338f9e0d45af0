// Workload-dense streams for `npm run bench` and the profile (issue #16): the Istio bookinfo sample
// (test/fixtures/corpus/istio-sample-kube-bookinfo.yaml: 6 Deployments, 6 Services, 4
// ServiceAccounts) repeated in N namespaces, each copy after a Namespace labelled
// `istio-injection: enabled`, so every Deployment is a meshed app with Services that select it:
// what a GitOps monorepo renders. ×100 is 600 Deployments, ×400 is 2,400 (about 3.3 MB).
//
//   node scripts/gen-dense.mjs N > stream.yaml
//   node scripts/gen-dense.mjs N --kustomize DIR   # DIR/kustomization.yaml, patches, input.yaml
//
// The kustomization is what a user would run instead: `kubectl kustomize DIR` applying one
// strategic-merge patch per workload kind (Deployment, DaemonSet, StatefulSet, Job) to the same
// stream, each setting the pod's grace period and Istio's drain duration.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BOOKINFO = fileURLToPath(
  new URL('../test/fixtures/corpus/istio-sample-kube-bookinfo.yaml', import.meta.url),
);

/** The workload kinds kube-graceful patches, as the bench's JSON6902 kustomization lists them. */
export const WORKLOAD_KINDS = ['Deployment', 'DaemonSet', 'StatefulSet', 'Job'];

/**
 * Returns bookinfo repeated in `copies` namespaces (bookinfo-0 …), as one multi-document stream.
 */
export function denseStream(copies) {
  return Array.from({ length: copies }, (_, i) => denseCopy(i)).join('---\n');
}

let bookinfo;

function readBookinfo() {
  // The sample ends with a `---` line; the copies are joined with one, so no empty document
  // between.
  const text = readFileSync(BOOKINFO, 'utf8').replace(/\n---\n$/, '\n');
  if (!/^metadata:\n {2}name: /m.test(text))
    throw new Error(`${BOOKINFO}: no top-level metadata.name to put a namespace next to`);
  return text;
}

/**
 * Returns the i-th copy: a Namespace bookinfo-i labelled istio-injection: enabled, then bookinfo in
 * it.
 */
export function denseCopy(i) {
  bookinfo ??= readBookinfo();
  const namespace = `bookinfo-${i}`;
  // Every bookinfo document has `metadata:` at column 0 followed by `  name:`.
  const namespaced = bookinfo.replace(/^metadata:\n/gm, `metadata:\n  namespace: ${namespace}\n`);
  return [
    'apiVersion: v1',
    'kind: Namespace',
    'metadata:',
    `  name: ${namespace}`,
    '  labels:',
    '    istio-injection: enabled',
    '---',
    namespaced,
  ].join('\n');
}

/** Writes `dir` with the stream as input.yaml and a kustomization patching every workload kind. */
export function writeKustomization(dir, copies) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'input.yaml'), denseStream(copies));
  const patches = [];
  for (const kind of WORKLOAD_KINDS) {
    const file = `patch-${kind.toLowerCase()}.yaml`;
    const apiVersion = kind === 'Job' ? 'batch/v1' : 'apps/v1';
    // With a target, kustomize applies the patch to every match; the patch's own name is a
    // placeholder.
    writeFileSync(
      join(dir, file),
      [
        `apiVersion: ${apiVersion}`,
        `kind: ${kind}`,
        'metadata:',
        '  name: any',
        'spec:',
        '  template:',
        '    metadata:',
        '      annotations:',
        `        proxy.istio.io/config: '{"terminationDrainDuration": "5s"}'`,
        '    spec:',
        '      terminationGracePeriodSeconds: 35',
        '',
      ].join('\n'),
    );
    patches.push(`  - target: {kind: ${kind}}\n    path: ${file}`);
  }
  writeFileSync(
    join(dir, 'kustomization.yaml'),
    [
      'apiVersion: kustomize.config.k8s.io/v1beta1',
      'kind: Kustomization',
      'resources:',
      '  - input.yaml',
      'patches:',
      ...patches,
      '',
    ].join('\n'),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [copiesArg, flag, dir] = process.argv.slice(2);
  const copies = Number(copiesArg);
  if (
    !Number.isInteger(copies) ||
    copies < 1 ||
    (flag !== undefined && (flag !== '--kustomize' || !dir))
  ) {
    console.error('usage: node scripts/gen-dense.mjs COPIES [--kustomize DIR]');
    process.exit(2);
  }
  if (flag) writeKustomization(dir, copies);
  else process.stdout.write(denseStream(copies));
}
