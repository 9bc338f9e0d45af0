/**
 * Issue #16 item 5: a ResourceList on stdin is read from its bytes
 * (fn/krm/resourceListFromBytes.ts: cut into items on a latin1 view, only the frame and the
 * parsed items decoded, the output the input bytes between the encoded edits). Its output must be
 * the text path's byte for byte, the text path being the list decoded first (`transform` of the
 * string, and the CLI given the list as a file, which reads it as text). Non-ASCII text is where
 * byte and character offsets part: in functionConfig, in a workload item that gets edited (before
 * the edit, on the line the edit goes after, after it), in an item that is never parsed, in a
 * comment in the frame, and in results already there. The lists are what real kpt writes for the
 * bookinfo chart of the corpus.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transform } from '../../fn/engine/transform.ts';
import { readResourceListBytes } from '../../fn/krm/resourceListFromBytes.ts';
import { runCli } from '../helpers/cli.ts';
import type { CliRun } from '../helpers/cli.ts';
import { corpus, fixturePath } from '../helpers/fixtures.ts';
import { requireTool } from '../helpers/tools.ts';

const kpt = requireTool('kpt');
const dir = mkdtempSync(join(tmpdir(), 'kg-rl-bytes-'));

/** The ResourceList `kpt fn source` writes for a folder holding `text` as `name`. */
function kptSource(name: string, text: string): string {
  const source = mkdtempSync(join(dir, 'source-'));
  writeFileSync(join(source, name), text);
  return execFileSync(kpt, ['fn', 'source', source], { encoding: 'utf8' });
}

/** The ResourceList `kpt fn source` writes for the bookinfo chart. */
function bookinfoList(): string {
  return kptSource('bookinfo.yaml', corpus('istio-sample-kube-bookinfo.yaml'));
}

/** Returns `text` with `insert` put right after the first `after` that follows `from`. */
function insertAfter(text: string, from: string, after: string, insert: string): string {
  const at = text.indexOf(after, text.indexOf(from));
  if (!text.includes(from) || at === -1) throw new Error(`no ${after} after ${from}`);
  return text.slice(0, at + after.length) + insert + text.slice(at + after.length);
}

const PORT_LINE = '          - containerPort: 9080\n';

/** The bookinfo list with non-ASCII text in its items and frame. */
function withNonAscii(list: string): string {
  let text = list.replace('kind: ResourceList\n', 'kind: ResourceList\n# liste — 日本 🚀\n');
  // The details Deployment: an annotation before the edit, a comment on the line the edit goes
  // after (the container's last), and in reviews-v1 a comment after the edit.
  text = insertAfter(
    text,
    'name: details-v1',
    '    annotations:\n',
    '      note: "café 日本 🚀"\n',
  );
  text = insertAfter(text, 'name: details-v1', PORT_LINE.slice(0, -1), ' # für 日本 🚀');
  text = insertAfter(
    text,
    'name: reviews-v1',
    '        volumes:\n',
    '        # ✓ après — 日本 🚀\n',
  );
  // A ServiceAccount: no mutator reads it, so it is never parsed.
  return insertAfter(
    text,
    'name: bookinfo-details',
    '    annotations:\n',
    '      note: "élève 日本語 😀" # compte\n',
  );
}

const FUNCTION_CONFIG = `functionConfig:
  # réglages — 日本 🚀
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
    annotations: {note: "déjà vu 日本 🎉"}
  data: {max-request: "12"}
`;

const RESULTS = `results:
- message: "déjà — 日本 🚀, from an earlier function"
  severity: info
`;

const base = withNonAscii(bookinfoList());
const lists: Array<[string, string]> = [
  ['non-ASCII in the items and the frame', base],
  ['and in functionConfig', base + FUNCTION_CONFIG],
  ['and in results already there', base + FUNCTION_CONFIG + RESULTS],
  ['and in flow results', `${base}results: [{message: "ça 日本 🚀", severity: info}]\n`],
  ['with CRLF line breaks', (base + FUNCTION_CONFIG + RESULTS).replace(/\n/g, '\r\n')],
];

/**
 * Asserts that the CLI on the list's bytes writes what it writes reading the list as text. A
 * message names the place the same way, in the file's terms when there is one (`path:line`).
 */
function assertSameAsText(t: ExecutionContext, list: string, name: string): CliRun {
  const path = join(dir, name);
  writeFileSync(path, list);
  const fromStdin = runCli([], Buffer.from(list, 'utf8'));
  const inFile = fromStdin.stderr.replace(
    /document \d+ \(([^)]*)\), line (\d+)(?:, column (\d+))?/g,
    (_m, resource: string, line: string, column?: string) =>
      `${path}:${line}${column ? `:${column}` : ''} (${resource})`,
  );
  t.deepEqual({ ...fromStdin, stderr: inFile }, runCli([path], ''));
  return fromStdin;
}

for (const [name, list] of lists) {
  test(`read from its bytes, the output is the text path's byte for byte: ${name}`, (t) => {
    const bytes = Buffer.from(list, 'utf8');
    const read = readResourceListBytes(bytes, { extraKinds: () => [] });
    t.is(read?.bytes, bytes, 'read from the bytes, not decoded whole');
    t.true(read!.items.length >= 6, 'the workloads and Services are parsed');

    const text = transform(list);
    t.true(text.changes.length > 0, 'the Deployments are edited');
    const fromStdin = assertSameAsText(t, list, 'list.yaml');
    t.is(fromStdin.status, 0, fromStdin.stderr);
    t.true(Buffer.from(fromStdin.stdout, 'utf8').equals(Buffer.from(text.output, 'utf8')));
    // The edits and every non-ASCII text are there, where the input had them.
    t.true(
      fromStdin.stdout.includes(`${PORT_LINE.slice(0, -1)} # für 日本 🚀${/\r?\n/.exec(list)![0]}`),
    );
    for (const nonAscii of ['café 日本 🚀', '✓ après', 'élève 日本語 😀', '# liste — 日本 🚀'])
      t.true(fromStdin.stdout.includes(nonAscii), nonAscii);
    t.true(fromStdin.stdout.includes('preStop'));
    t.is((fromStdin.stdout.match(/日本/g) ?? []).length, (list.match(/日本/g) ?? []).length);
  });
}

test('an object added after an item (a Gateway’s ConfigMap) among non-ASCII text', (t) => {
  const gateway = readFileSync(
    fixturePath('gateways', 'istio-gateway-api', 'samples', 'bookinfo-gateway-1.30.3.yaml'),
    'utf8',
  ).replace('  name: bookinfo-gateway\n', '  name: bookinfo-gateway # passerelle — 日本 🚀\n');
  const list = kptSource(
    'gateway.yaml',
    `${gateway}---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa # é 日本 😀\n`,
  );
  t.truthy(readResourceListBytes(Buffer.from(list, 'utf8'), { extraKinds: () => [] })?.bytes);
  const run = assertSameAsText(t, list, 'gateway.yaml');
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, transform(list).output);
  const gatewayAt = run.stdout.indexOf('# passerelle — 日本 🚀');
  const configMapAt = run.stdout.indexOf('- apiVersion: v1\n  kind: ConfigMap\n');
  const accountAt = run.stdout.indexOf('name: sa # é 日本 😀');
  t.true(gatewayAt !== -1 && gatewayAt < configMapAt && configMapAt < accountAt);
});

test('an error in an item after non-ASCII text names the line the text path names', (t) => {
  const list = insertAfter(
    base,
    'name: details-v1',
    '# für 日本 🚀\n',
    '          lifecycle: [日本]\n',
  );
  const line = list.slice(0, list.indexOf('lifecycle: [日本]')).split('\n').length;
  const fromStdin = assertSameAsText(t, list, 'error.yaml');
  t.is(fromStdin.status, 2);
  t.is(fromStdin.stdout, '');
  t.regex(fromStdin.stderr, new RegExp(`Deployment details-v1\\), line ${line}, `));
});
