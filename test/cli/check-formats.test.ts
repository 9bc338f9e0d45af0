/**
 * `check -o sarif|junit|json` (issue #29 item 3): SARIF validated against the OASIS 2.1.0 schema
 * (vendored, test/fixtures/sarif/PROVENANCE.md; draft-04, hence ajv-draft-04), every result with
 * its rule, level and `file:line`; JUnit XML parsed back with an XML parser, one case per workload
 * × finding. Runs the bundled CLI (`npm run build` first) on the demo chart's render, with its
 * gateway's warning accepted by annotation so that a suppressed result is there too.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import AjvDraft04 from 'ajv-draft-04';
import { XMLParser } from 'fast-xml-parser';
import { runCliAsync } from '../helpers/cli.ts';
import { fixturePath, ROOT } from '../helpers/fixtures.ts';

const DIR = mkdtempSync(join(tmpdir(), 'kg-check-formats-'));
const FILE = join(DIR, 'demo.yaml');
const head = 'kind: Deployment\nmetadata:\n  name: demo-gateway\n';
writeFileSync(
  FILE,
  readFileSync(join(ROOT, 'examples', 'manifests', 'graceful-demo.yaml'), 'utf8').replace(
    head,
    `${head}  annotations:\n    kube-graceful.dev/ignore: LB_DEREGISTRATION_OUTLIVES_GRACE\n`,
  ),
);
const lineOf = (line: number) => readFileSync(FILE, 'utf8').split('\n')[line - 1]!;
const DOCS = 'https://example.org/kube-graceful/blob/v0.1.0/';

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  locations: Array<{
    physicalLocation?: { artifactLocation: { uri: string }; region?: { startLine: number } };
    logicalLocations?: Array<{ fullyQualifiedName: string }>;
  }>;
  suppressions?: Array<{ kind: string }>;
}

test('SARIF: valid against the OASIS 2.1.0 schema; each result names its rule, level and file:line', async (t) => {
  const run = await runCliAsync(['check', FILE, '-o', 'sarif', '--docs-url', DOCS], '');
  t.is(run.status, 1, run.stderr);
  t.regex(run.stderr, /^kube-graceful check: FAIL /m, 'the text goes to stderr');
  const log = JSON.parse(run.stdout) as {
    runs: Array<{
      tool: { driver: { rules: Array<{ id: string; help: { text: string }; helpUri: string }> } };
      results: SarifResult[];
    }>;
  };
  const schema = JSON.parse(
    readFileSync(fixturePath('sarif', 'sarif-schema-2.1.0.json'), 'utf8'),
  ) as object;
  // A CommonJS module: its `default` is the class whichever way the import is read (it sets both).
  const ajv = new AjvDraft04.default({ allErrors: true, strict: false });
  // The schema's formats, checked as RFC 3986 asks (ajv-formats has no draft-04 build).
  ajv.addFormat('uri', (text: string) => URL.canParse(text));
  ajv.addFormat('uri-reference', (text: string) => URL.canParse(text, 'file:///'));
  ajv.addFormat('date-time', (text: string) => !Number.isNaN(Date.parse(text)));
  const validate = ajv.compile(schema);
  t.true(validate(log), JSON.stringify(validate.errors, null, 2));

  const { rules } = log.runs[0]!.tool.driver;
  const results = log.runs[0]!.results;
  t.deepEqual(
    results.map((r) => [r.ruleId, r.level, r.suppressions?.[0]?.kind]),
    [
      ...Array.from({ length: 4 }, () => ['gateway-drain', 'error', undefined]),
      ['job-sidecar-quit', 'error', undefined],
      ['LB_DEREGISTRATION_OUTLIVES_GRACE', 'warning', 'inSource'],
    ],
  );
  for (const result of results) {
    const rule = rules[result.ruleIndex]!;
    t.is(rule.id, result.ruleId);
    t.true(rule.help.text.length > 40, rule.id);
    t.regex(
      rule.helpUri,
      new RegExp(`^${DOCS.replaceAll('.', '\\.')}docs/(mutators/[a-z-]+|findings)\\.md`),
    );
    const path = new URL(rule.helpUri).pathname.replace('/kube-graceful/blob/v0.1.0/', '');
    t.notThrows(() => readFileSync(join(ROOT, path), 'utf8'), `${path}: the doc page exists`);
    const [where] = result.locations;
    t.is(where!.physicalLocation!.artifactLocation.uri, `file://${FILE}`);
    t.regex(where!.logicalLocations![0]!.fullyQualifiedName, /^(Deployment|Job) demo-/);
    t.true(lineOf(where!.physicalLocation!.region!.startLine).trim().length > 0);
  }
  // Without --docs-url no helpUri (it must be absolute); the help names the repository path.
  const bare = await runCliAsync(['check', '-o', 'sarif'], readFileSync(FILE));
  const bareLog = JSON.parse(bare.stdout) as {
    runs: Array<{ tool: { driver: { rules: object[] } }; results: SarifResult[] }>;
  };
  t.true(validate(bareLog), JSON.stringify(validate.errors));
  t.false(JSON.stringify(bareLog.runs[0]!.tool.driver.rules).includes('helpUri'));
  t.true(JSON.stringify(bareLog).includes('docs/mutators/gateway-drain.md'));
  t.falsy(bareLog.runs[0]!.results[0]!.locations[0]!.physicalLocation, 'stdin is no file');
});

test('JUnit: parses as XML; one case per workload × finding, failing, skipped or passing', async (t) => {
  const [run, warning, empty] = await Promise.all([
    runCliAsync(['check', FILE, '-o', 'junit'], ''),
    runCliAsync(
      ['check', FILE, '-o', 'junit', '--fail-on', 'error', '--ignore', 'GATEWAY_NO_PDB'],
      '',
    ),
    runCliAsync(['check', '-o', 'junit'], ''),
  ]);
  t.is(run.status, 1);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testcase',
  });
  interface Case {
    classname: string;
    name: string;
    file?: string;
    line?: string;
    failure?: unknown;
    skipped?: unknown;
  }
  interface Doc {
    testsuites: {
      tests: string;
      failures: string;
      testsuite: { testcase: Case[]; failures: string; skipped: string };
    };
  }
  const doc = parser.parse(run.stdout) as Doc;
  const cases = doc.testsuites.testsuite.testcase;
  t.deepEqual(
    cases.map((c) => [
      c.classname,
      c.name,
      c.failure ? 'failure' : c.skipped !== undefined ? 'skipped' : 'pass',
    ]),
    [
      ['kube-graceful', 'input', 'pass'],
      ['Deployment demo-gateway', 'gateway-drain', 'failure'],
      ['Job demo-migrate', 'job-sidecar-quit', 'failure'],
      ['Deployment demo-gateway', 'LB_DEREGISTRATION_OUTLIVES_GRACE', 'skipped'],
    ],
  );
  t.is(doc.testsuites.failures, '2');
  t.is(doc.testsuites.testsuite.skipped, '1');
  t.is(cases[1]!.file, FILE);
  t.true(lineOf(Number(cases[1]!.line)).trim().length > 0);

  t.is(warning.status, 0, '--fail-on error: the changes are reported, not failing');
  const passing = (parser.parse(warning.stdout) as Doc).testsuites;
  t.is(passing.failures, '0');
  t.is(
    passing.testsuite.skipped,
    '2',
    "what was ignored is listed as skipped: the annotation's warning and the --ignore'd info",
  );

  const nothing = (parser.parse(empty.stdout) as Doc).testsuites.testsuite.testcase;
  t.is(empty.status, 1);
  t.deepEqual([nothing[0]!.name, Boolean(nothing[0]!.failure)], ['input', true]);
});

test('JSON: the verdict as data', async (t) => {
  const run = await runCliAsync(['check', FILE, '-o', 'json'], '');
  const data = JSON.parse(run.stdout) as Record<string, unknown> & {
    changes: unknown[];
    ignored: Array<{ code: string; ignoredBy: string }>;
  };
  t.is(data['apiVersion'], 'kube-graceful.dev/check/v1');
  t.is(data['ok'], false);
  t.deepEqual(data['failures'], ['change']);
  t.deepEqual(data['read'], { documents: 4, objects: 4, workloads: 2 });
  t.is(data.changes.length, 5);
  t.deepEqual(
    data.ignored.map((f) => [f.code, f.ignoredBy]),
    [['LB_DEREGISTRATION_OUTLIVES_GRACE', 'annotation']],
  );
});
