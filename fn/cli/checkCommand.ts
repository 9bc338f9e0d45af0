/**
 * `kube-graceful check [FILE…|FOLDER…|-]` (issues #7, #29): a gate for CI and a KRM validator. Runs
 * the mutators as the transform would but writes no manifests: one line per pending change and per
 * finding, with `file:line`, resource and field, a verdict line, and an exit code.
 *
 * `--fail-on` (each level includes the ones before it):
 * - `error`: exit 1 when a workload has an error finding;
 * - `change` (default): also when any field would be changed, i.e. the input is not what the
 *   transform would write;
 * - `warning`: also on warning findings.
 * Info findings never fail; they are counted, not printed (`explain` shows them). An input with no
 * Kubernetes object fails unless `--allow-empty`; findings accepted with `--ignore` or the
 * object's `kube-graceful.dev/ignore` annotation are counted, not printed, and never fail.
 *
 * `-o json|sarif|junit` prints that on stdout and the text lines on stderr (checkVerdict.ts makes
 * the one value they are all rendered from). On a KRM ResourceList (kpt `pipeline.validators`,
 * `kpt fn eval --exec "… check"`) the text output is the list with its items byte for byte as they
 * came and the results appended (pending changes as `error` results when they fail the check),
 * human lines on stderr, and exit 1 on failure.
 */
import { Option } from '@commander-js/extra-typings';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { KubeGracefulError } from '../core/errors.ts';
import { bySeverity } from '../core/records.ts';
import { findingCodeOwners } from '../engine/findingCodes.ts';
import { REGISTERED_OBJECT_KINDS } from '../engine/objectKinds.ts';
import { itemFiles, krmResults } from '../krm/results.ts';
import { readResourceList, renderResourceList } from '../krm/resourceList.ts';
import type { Runner } from './explainCommand.ts';
import { checkLines } from './checkText.ts';
import { checkVerdict, FAIL_ON } from './checkVerdict.ts';
import type { CheckVerdict, FailOn } from './checkVerdict.ts';
import { transformFiles } from './transformFiles.ts';
import { unknownOutcomeFindings } from './unknownOutcomes.ts';
import type { Inputs } from './inputs.ts';
import { addSettingOptions, settingOptionsFrom } from './settingsOptions.ts';
import type { SettingOptions } from './settingsOptions.ts';
import type { CommandOutput } from './transformCommand.ts';
import type { TransformResult } from '../engine/transform.ts';

const OUTPUTS = ['text', 'json', 'sarif', 'junit'] as const;
type CheckOutput = (typeof OUTPUTS)[number];
const COLOURS = ['auto', 'always', 'never'] as const;
type Colour = (typeof COLOURS)[number];

/** Options of `check`, as the CLI parsed them. */
interface CheckCommandOptions extends SettingOptions {
  readonly files: readonly string[];
  readonly failOn: FailOn;
  readonly output: CheckOutput;
  readonly colour: Colour;
  readonly ignore: readonly string[];
  readonly allowEmpty: boolean;
  readonly docsUrl?: string;
}

/** Runs `check`; throws KubeGracefulError on bad input or config (exit 2). */
// A command's work is async like its siblings' (Runner): `async` keeps its throws rejections,
// which is how settle() (outcome.ts) receives them.
async function runCheck(options: CheckCommandOptions): Promise<CommandOutput> {
  const ignore = ignoredCodes(options.ignore);
  const docsUrl = options.docsUrl === undefined ? undefined : docsBase(options.docsUrl);
  const { inputs, result: transformed } = transformFiles(options);
  // A shutdown whose outcome is not known is a warning: no ✓ without a modelled fact (issue #26).
  const result: TransformResult = {
    ...transformed,
    findings: [...transformed.findings, ...unknownOutcomeFindings(transformed)],
  };
  const verdict = checkVerdict(result, inputs, {
    failOn: options.failOn,
    ignore,
    allowEmpty: options.allowEmpty,
  });
  const exitCode = verdict.failures.length ? 1 : 0;
  if (options.output !== 'text') {
    // The machine's output on stdout, the human lines on stderr (for the CI log), as in KRM mode.
    const render = {
      json: () => renderJson(verdict),
      sarif: async () => (await import('./checkSarif.ts')).renderSarif(verdict, docsUrl),
      junit: async () => (await import('./checkJunit.ts')).renderJunit(verdict),
    }[options.output];
    return {
      stdout: await render(),
      stderr: checkLines(verdict, colourWanted(options.colour, process.stderr)),
      exitCode,
    };
  }
  if (result.mode === 'resourceList')
    return {
      stdout: validatorOutput(result, verdict, inputs, options.allDocuments),
      stderr: checkLines(verdict, colourWanted(options.colour, process.stderr)),
      exitCode,
    };
  const lines = checkLines(verdict, colourWanted(options.colour, process.stdout));
  return { stdout: `${lines.join('\n')}\n`, stderr: [], exitCode };
}

/**
 * A validator never modifies: the list as read (no item changed, so every byte is kept) plus
 * results, pending changes as errors when they fail the check.
 */
function validatorOutput(
  result: TransformResult,
  verdict: CheckVerdict,
  inputs: Inputs,
  allDocuments: boolean,
): string {
  const list = readResourceList(inputs.text, {
    parseAll: allDocuments,
    objectKinds: REGISTERED_OBJECT_KINDS,
    extraKinds: () => result.config.spec.extraKinds,
  });
  const files = itemFiles(list.resources);
  const failing = verdict.failures.includes('change');
  const pending = krmResults(result.changes, [], files).map((r) => ({
    ...r,
    severity: failing ? ('error' as const) : ('info' as const),
    message: `would set ${r.field?.path}: ${r.message}`,
  }));
  const findings = verdict.findings.map((f) => f.finding);
  // Errors first, as the transform orders them (fn/krm/results.ts): kpt shows only the first few.
  const results = [...pending, ...krmResults([], findings, files)].sort(bySeverity);
  return renderResourceList(list, results);
}

/** `check -o json`: the verdict as data (schema in README "explain and check"). */
function renderJson(verdict: CheckVerdict): string {
  const finding = ({ finding: f, location, ignoredBy }: CheckVerdict['findings'][number]) => ({
    severity: f.severity,
    code: f.code,
    ...(f.mutator ? { mutator: f.mutator } : {}),
    ...(f.resource ? { resource: f.resource } : {}),
    ...(location ? { location } : {}),
    ...(f.path ? { path: f.path } : {}),
    message: f.message,
    ...(ignoredBy ? { ignoredBy } : {}),
  });
  const data = {
    apiVersion: 'kube-graceful.dev/check/v1',
    ok: verdict.failures.length === 0,
    failOn: verdict.failOn,
    failures: verdict.failures,
    read: verdict.read,
    changes: verdict.changes.map(({ record: c, location }) => ({
      mutator: c.mutator,
      resource: c.resource,
      ...(location ? { location } : {}),
      path: c.path,
      before: c.before,
      after: c.after,
      reason: c.reason,
    })),
    findings: verdict.findings.map(finding),
    ignored: verdict.ignored.map(finding),
    summary: checkLines(verdict).at(-1),
  };
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** Returns the codes `--ignore` names; a code no run can emit is a usage error, not a no-op. */
function ignoredCodes(values: readonly string[]): ReadonlySet<string> {
  const codes = values
    .flatMap((v) => v.split(','))
    .map((code) => code.trim())
    .filter(Boolean);
  const known = findingCodeOwners();
  const unknown = codes.filter((code) => !known.has(code));
  if (unknown.length)
    throw new KubeGracefulError(
      'E_USAGE',
      `--ignore: not a finding code: ${unknown.join(', ')}`,
      {},
      "Name codes as check prints them (error: CODE …); each mutator's page under docs/mutators/ " +
        "lists its codes, docs/findings.md the engine's.",
    );
  return new Set(codes);
}

/** Returns `--docs-url` as a base the docs' paths resolve against (a folder: ends with `/`). */
function docsBase(url: string): string {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new KubeGracefulError(
      'E_USAGE',
      `--docs-url: not an http(s) URL: ${JSON.stringify(url)}`,
      {},
      "Give where the repository's files are read on the web, ending in the tag, e.g. " +
        'https://github.com/OWNER/kube-graceful/blob/v0.1.0/',
    );
  return url.endsWith('/') ? url : `${url}/`;
}

/**
 * Returns true when text output may be coloured: `always`, or `auto` on a terminal with NO_COLOR
 * unset or empty (no-color.org).
 */
function colourWanted(when: Colour, stream: { isTTY?: boolean }): boolean {
  if (when !== 'auto') return when === 'always';
  return stream.isTTY === true && !process.env['NO_COLOR'];
}

/** Adds the `check` subcommand to `program`. */
export function registerCheck(program: CommandUnknownOpts, run: Runner): void {
  const command = addSettingOptions(
    program
      .command('check')
      .description(
        'exit 1 when the manifests are not what kube-graceful would write (or have error ' +
          'findings, or hold no Kubernetes object); one line per change and finding with ' +
          'file:line, resource and field. On a ResourceList: a KRM validator (items unchanged, ' +
          'results added)',
      )
      .argument(
        '[files...]',
        'manifest files and folders (*.yaml, *.yml, *.json under them), joined as one stream; ' +
          '- or none: stdin',
      )
      .addOption(
        new Option(
          '--fail-on <level>',
          'error: error findings; change: also pending changes; warning: also warnings',
        )
          .choices(FAIL_ON)
          .default('change'),
      )
      .addOption(
        new Option(
          '-o, --output <format>',
          'text; json, sarif (SARIF 2.1.0) or junit (JUnit XML) on stdout, the text on stderr',
        )
          .choices(OUTPUTS)
          .default('text'),
      )
      .addOption(
        new Option('--color <when>', 'colour the text: on a terminal (auto), always or never')
          .choices(COLOURS)
          .default('auto'),
      )
      .option(
        '--ignore <codes>',
        'accept these finding codes (CODE[,CODE]; repeatable): counted, never printed or failing',
        (value: string, previous: string[]) => [...previous, value],
        [] as string[],
      )
      .option('--allow-empty', 'pass an input that holds no Kubernetes object')
      .option(
        '--docs-url <url>',
        'where the repository is read on the web (…/blob/<tag>/): makes SARIF rules link to docs',
      )
      .option('--log-file <file>', 'also write error messages here')
      .showHelpAfterError('(run kube-graceful check --help for usage)')
      .exitOverride(),
  );
  command.action(async (files, options) => {
    const logFile = options.logFile ?? process.env['KUBE_GRACEFUL_LOG_FILE'];
    await run(
      () =>
        runCheck({
          ...settingOptionsFrom(options),
          files,
          failOn: options.failOn,
          output: options.output,
          colour: options.color,
          ignore: options.ignore,
          allowEmpty: options.allowEmpty === true,
          ...(options.docsUrl !== undefined ? { docsUrl: options.docsUrl } : {}),
        }),
      logFile,
    );
  });
}
