/**
 * Issue #33 items 2–5: names from the input never reach an output raw. One real input (the quick
 * start's Istio gateway and a meshed app, test/helpers/hostileNames.ts) has names made of
 * terminal sequences, Markdown and HTML, and a file name with some too; every output of the
 * built CLI is read: explain in each format, check (stream and ResourceList), the transform's
 * stdout, stderr and report (text and JSON), the KRM results and `patches`. None may hold a
 * control character, and none of the formats that are markup may hold the input's markup; each
 * still shows the names (escaped), and those that are data (JSON, YAML) give them back exactly.
 *
 * injection-safety.test.ts holds the other half of injection safety (issue #8): the input's text
 * never turns into configuration or a program.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import MarkdownIt from 'markdown-it';
import { parse, parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli.ts';
import type { CliRun } from '../helpers/cli.ts';
import { CONTROL_CHAR, firstControl } from '../helpers/controlChars.ts';
import {
  HOSTILE,
  HOSTILE_FILE_NAME,
  HOSTILE_FLAGS,
  hostileResourceList,
  hostileStream,
  RECOGNISABLE,
} from '../helpers/hostileNames.ts';

const dir = mkdtempSync(join(tmpdir(), 'kg-hostile-'));
const file = join(dir, HOSTILE_FILE_NAME);
writeFileSync(file, hostileStream());
const NAMES = Object.values(HOSTILE).map((name) => name.value);

/** The input's markup, raw: what no SVG or HTML output may hold. */
const RAW_TAGS = ['<script', '<img'];

/**
 * The input's Markdown that would still act (a link, an image, a mention, an autolink): the
 * Markdown output escapes each (markdownText.ts). Within a code span (the file name) Markdown
 * holds text as it is: the rendered page is checked for elements instead.
 */
const RAW_MARKDOWN = [
  /(?<!\\)\]\(/, // a link's or an image's closing bracket, not escaped
  /(?<!\\)\[link/,
  /@org/, // a mention, no zero-width space after the @
  /#1 /,
  /(?<!\\)`tick/,
  /https:\/\/evil/,
  /www\.evil/,
  /&#64;entity/, // the input's own entity, not escaped
];

/** GitHub's Markdown as markdown-it renders it: HTML allowed, URLs autolinked (GFM §6.9). */
const markdown = new MarkdownIt({ html: true, linkify: true });
markdown.linkify.set({ fuzzyLink: false });

function noControl(t: ExecutionContext, output: string, what: string): void {
  t.false(CONTROL_CHAR.test(output), `${what}: a control character at ${firstControl(output)}`);
}

function recognisable(t: ExecutionContext, output: string, what: string): void {
  for (const word of RECOGNISABLE) t.true(output.includes(word), `${what} shows ${word}`);
}

function run(args: readonly string[], input = ''): CliRun {
  return runCli([...args, ...HOSTILE_FLAGS], input);
}

test('the input holds the raw characters: read as YAML, each name has ESC, CSI, CR, LF and a bidi override', (t) => {
  for (const name of NAMES) {
    for (const char of ['\u001b', '\u009b', '\r', '\n', '\u202e', '\u0000'])
      t.true(name.includes(char), JSON.stringify(char));
    t.true(name.includes('<script>'));
  }
  // JSON output gives the names back as data: the control characters would be printed there.
  const json = JSON.parse(run(['explain', file, '-o', 'json']).stdout) as {
    workloads: Array<{ resource: { name: string; namespace: string } }>;
  };
  t.deepEqual(
    json.workloads.map((w) => [w.resource.namespace, w.resource.name]),
    [
      [HOSTILE.gatewayNamespace.value, HOSTILE.gatewayName.value],
      [HOSTILE.appNamespace.value, HOSTILE.appName.value],
    ],
  );
});

for (const format of ['text', 'markdown', 'json', 'svg', 'html'] as const) {
  const markup = format === 'text' || format === 'json' ? '' : ' and no markup';
  test(`explain -o ${format}: no control character${markup} from the input`, (t) => {
    const out = run(['explain', file, '-o', format]);
    t.is(out.status, 0, out.stderr);
    noControl(t, out.stdout, format);
    noControl(t, out.stderr, `${format} stderr`);
    recognisable(t, out.stdout, format);
    if (format === 'svg' || format === 'html')
      for (const tag of RAW_TAGS) t.false(out.stdout.includes(tag), `${format} holds ${tag}`);
    if (format === 'markdown') {
      for (const raw of RAW_MARKDOWN) t.false(raw.test(out.stdout), `markdown holds ${raw}`);
      const html = markdown.render(out.stdout);
      for (const element of ['<script', '<img', '<a ']) t.false(html.includes(element), element);
    }
    if (format === 'svg')
      t.false(
        /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u.test(out.stdout),
        'only characters XML 1.0 allows',
      );
    if (format === 'json') {
      const workloads = (JSON.parse(out.stdout) as { workloads: Array<{ findings: unknown }> })
        .workloads;
      t.is(workloads.length, 2);
    }
  });
}

test('check: one line per change and finding, the verdict line only once and last', (t) => {
  const out = run(['check', file]);
  t.is(out.status, 1, 'changes are pending: FAIL');
  noControl(t, out.stdout, 'check');
  recognisable(t, out.stdout, 'check');
  const lines = out.stdout.trimEnd().split('\n');
  t.true(lines.length > 3);
  for (const line of lines.slice(0, -1)) t.regex(line, /^(change|error|warning): /);
  t.is(lines.filter((line) => line.startsWith('kube-graceful check:')).length, 1);
  t.regex(lines.at(-1)!, /^kube-graceful check: FAIL /);
  // The forged verdicts are there, escaped, in the middle of the lines that name the workloads.
  t.true(out.stdout.includes('\\rkube-graceful check: ok (forged by CR)'));
  t.true(out.stdout.includes('\\nkube-graceful check: ok (forged by LF)'));
});

test('transform: stdout, stderr and the report (text and JSON) hold no control character', (t) => {
  const text = join(dir, 'report.txt');
  const json = join(dir, 'report.json');
  for (const report of [text, json]) {
    const out = run(['--report', report], hostileStream());
    t.is(out.status, 0, out.stderr);
    noControl(t, out.stdout, 'the patched stream');
    noControl(t, out.stderr, 'stderr');
    noControl(t, readFileSync(report, 'utf8'), report);
    recognisable(t, readFileSync(report, 'utf8'), report);
    // The patched stream is the input less nothing: each name reads back as it was.
    const names = parseAllDocuments(out.stdout)
      .map((doc) => doc.toJS() as { metadata?: { name?: string } } | null)
      .map((object) => object?.metadata?.name);
    t.true(names.includes(HOSTILE.gatewayName.value) && names.includes(HOSTILE.appName.value));
  }
  const data = JSON.parse(readFileSync(json, 'utf8')) as {
    changes: Array<{ resource: { name: string } }>;
  };
  t.true(data.changes.some((c) => c.resource.name === HOSTILE.appName.value));
});

test('KRM: the ResourceList out and its results hold no control character, and give the names back', (t) => {
  for (const command of [[], ['check']]) {
    const out = run(command, hostileResourceList());
    t.is(out.status, command.length ? 1 : 0, out.stderr);
    noControl(t, out.stdout, `${command.join(' ') || 'transform'}: the list`);
    noControl(t, out.stderr, `${command.join(' ') || 'transform'}: stderr`);
    const list = parse(out.stdout) as {
      items: Array<{ metadata: { name: string } }>;
      results: Array<{
        message: string;
        resourceRef?: { name: string; namespace?: string };
        field?: { path: string };
      }>;
    };
    t.true(list.items.some((item) => item.metadata.name === HOSTILE.appName.value));
    const refs = list.results.map((r) => r.resourceRef?.name);
    t.true(refs.includes(HOSTILE.gatewayName.value) && refs.includes(HOSTILE.appName.value));
    // Fields and messages name the container and the namespace: written with escapes, read back
    // as the characters.
    t.true(
      list.results.some((r) => r.field?.path.includes('container\u001b]0;pwned-title\u0007')),
      'a result names the container',
    );
    t.true(
      list.results.some((r) => r.message.includes(HOSTILE.gatewayNamespace.value)),
      'a message names the namespace',
    );
  }
});

test('patches: the kustomize patches hold no control character and target the names exactly', (t) => {
  const out = run(['patches', file]);
  t.is(out.status, 0, out.stderr);
  noControl(t, out.stdout, 'patches');
  noControl(t, out.stderr, 'patches stderr');
  const patches = parse(out.stdout) as Array<{
    target: { name: string; namespace: string };
    patch: string;
  }>;
  t.deepEqual(
    patches.map((p) => [p.target.namespace, p.target.name]),
    [
      [HOSTILE.gatewayNamespace.value, HOSTILE.gatewayName.value],
      [HOSTILE.appNamespace.value, HOSTILE.appName.value],
    ],
  );
  for (const patch of patches) {
    noControl(t, patch.patch, 'a patch body');
    const body = parse(patch.patch) as { metadata: { name: string } };
    t.is(body.metadata.name, patch.target.name);
  }
});

test('an input error names the hostile resource with its control characters escaped', (t) => {
  // The app's container ports are a number, not a list: exit 2, and the message names the
  // resource as read from the input.
  const input = hostileStream().replace(
    '        ports:\n        - containerPort: 8080\n',
    '        ports: 8080\n',
  );
  const out = run([], input);
  t.is(out.status, 2, out.stderr);
  t.regex(out.stderr, /E_INPUT/);
  noControl(t, out.stderr, 'the error');
  t.true(out.stderr.includes('appName\\x1b]0;pwned-title'), 'the resource, escaped');
  t.true(out.stderr.includes('appNamespace\\x1b]0;pwned-title'), 'its namespace, escaped');
});
