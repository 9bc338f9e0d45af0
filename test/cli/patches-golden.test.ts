/**
 * `kube-graceful patches` on every golden input (test/golden/<case>/ with its config, and
 * test/explain/golden/<case>/case.json with its flags), not only the corpus charts: the real
 * `kubectl kustomize` applying the patches to the input gives the objects the transform writes
 * (issue #26 item 6: every Traefik render exited 70, and no test ran `patches` on one).
 *
 * Compared as parsed objects, after what kustomize does to every object it reads whatever the
 * patches: it drops fields whose value is null (which the API server reads as unset) and empty
 * `metadata.annotations` and `metadata.labels`.
 *
 * A transform that adds an object (istio-gateway-api's parameters ConfigMap) has no patches by
 * design, as a kustomize patch cannot add one: `patches` exits 1, prints nothing on stdout and
 * names the object on stderr (fn/cli/patchesCommand.ts).
 */
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import test from 'ava';
import { parse, parseAllDocuments } from 'yaml';
import { explainCases, runInProcess } from '../explain/run.ts';
import { ROOT } from '../helpers/fixtures.ts';
import { goldenCases } from '../helpers/golden.ts';
import { kustomizeAsync } from '../helpers/kustomize.ts';
import { readFileSync } from 'node:fs';

/** A golden input and the flags its case runs with. */
interface PatchesCase {
  readonly name: string;
  /** The input, relative to the repository root. */
  readonly file: string;
  readonly args: readonly string[];
}

const CASES: readonly PatchesCase[] = [
  ...goldenCases().map((c) => ({
    name: `golden ${c.name}`,
    file: c.inputName,
    args: c.configText === undefined ? [] : ['--config', join(c.dir, 'config.yaml')],
  })),
  ...explainCases().map((c) => ({ name: `explain golden ${c.name}`, file: c.file, args: c.args })),
];

/** Returns each object of a stream (the items of a `kind: List`) by apiVersion, kind and name. */
function objectsOf(stream: string): Map<string, unknown> {
  const objects = new Map<string, unknown>();
  // As the API server and kustomize read it: YAML 1.1 ints, so `defaultMode: 0644` is octal 420.
  for (const document of parseAllDocuments(stream, { version: '1.1' })) {
    const data = document.toJS() as KubeData | null;
    if (!data) continue;
    for (const object of data.kind === 'List' ? (data.items ?? []) : [data]) {
      const { namespace = '', name = '' } = object.metadata ?? {};
      objects.set(
        `${object.apiVersion} ${object.kind} ${namespace}/${name}`,
        asKustomizeReadsIt(object),
      );
    }
  }
  return objects;
}

interface KubeData {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
  readonly items?: KubeData[];
}

/** Returns `value` without null map fields, and without empty annotations and labels. */
function asKustomizeReadsIt(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => asKustomizeReadsIt(item));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [field, inner] of Object.entries(value)) {
    if (inner === null) continue;
    const kept = asKustomizeReadsIt(inner, field);
    const emptyMetadataMap =
      key === 'metadata' &&
      (field === 'annotations' || field === 'labels') &&
      Object.keys(kept as object).length === 0;
    if (!emptyMetadataMap) out[field] = kept;
  }
  return out;
}

for (const goldenCase of CASES) {
  test(`${goldenCase.name}: kubectl kustomize with the patches gives the transform's objects`, async (t) => {
    const input = readFileSync(join(ROOT, goldenCase.file), 'utf8');
    const transform = await runInProcess([goldenCase.file, ...goldenCase.args]);
    t.is(transform.exitCode, 0, transform.stderr.join('\n'));
    const patches = await runInProcess(['patches', goldenCase.file, ...goldenCase.args]);
    const want = objectsOf(transform.stdout);
    const read = objectsOf(input);
    const added = [...want.keys()].filter((id) => !read.has(id));
    if (added.length > 0) {
      t.is(patches.exitCode, 1, 'an added object: no patches');
      t.is(patches.stdout, '');
      t.regex(patches.stderr.join('\n'), /would be added .*a kustomize patch cannot add an object/);
      return;
    }
    // Envoy Gateway's config is one string: patches refuses it and names Helm values instead
    // (test/cli/patches-envoy-gateway.test.ts checks the values).
    if (
      patches.stderr.some((line) => line.includes("holds Envoy Gateway's config as one string"))
    ) {
      t.is(patches.exitCode, 1);
      t.is(patches.stdout, '');
      return;
    }
    t.is(patches.exitCode, 0, patches.stderr.join('\n'));
    const list = parse(patches.stdout) as unknown[];
    t.is(list.length > 0, transform.stdout !== input, 'patches exactly when the transform edits');
    if (list.length === 0) return;
    const built = await kustomizeAsync(input, patches.stdout);
    t.is(built.status, 0, `kubectl kustomize: ${built.stderr}`);
    const got = objectsOf(built.stdout);
    t.deepEqual([...got.keys()].sort(), [...want.keys()].sort());
    for (const [id, object] of want)
      // One object at a time, so that a failure shows one object's difference.
      if (!isDeepStrictEqual(got.get(id), object)) t.deepEqual(got.get(id), object, id);
  });
}
