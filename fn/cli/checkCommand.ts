/**
 * `kube-graceful check [FILE…|-]` (issue #7): a gate for CI and a KRM validator. Runs the mutators
 * as the transform would but writes no manifests: one line per pending change and per finding,
 * with `file:line`, resource and field, and an exit code.
 *
 * `--fail-on` (each level includes the ones before it):
 * - `error`: exit 1 when a workload has an error finding;
 * - `change` (default): also when any field would be changed, i.e. the input is not what the
 *   transform would write;
 * - `warning`: also on warning findings.
 * Info findings never fail; they are counted, not printed (`explain` shows them).
 *
 * On a KRM ResourceList (kpt `pipeline.validators`, `kpt fn eval --exec "… check"`) it prints the
 * list with its items byte for byte as they came and the results appended (pending changes as
 * `error` results when they fail the check), human lines on stderr, and exits 1 on failure.
 */
import { Option } from '@commander-js/extra-typings';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { formatPath } from '../core/fieldPath.ts';
import { printable } from '../core/printable.ts';
import { bySeverity } from '../core/records.ts';
import { addsObject } from '../core/records.ts';
import type { ChangeRecord } from '../core/records.ts';
import { REGISTERED_OBJECT_KINDS } from '../engine/objectKinds.ts';
import { transform } from '../engine/transform.ts';
import type { TransformResult } from '../engine/transform.ts';
import { krmResults } from '../krm/results.ts';
import { readResourceList, renderResourceList } from '../krm/resourceList.ts';
import { show } from '../report/text.ts';
import { formatRef } from '../core/kubeObject.ts';
import type { Runner } from './explainCommand.ts';
import { findingLine } from './findingsText.ts';
import { unknownOutcomeFindings } from './unknownOutcomes.ts';
import { findingLocation, formatLocation, inFiles, readInputs } from './inputs.ts';
import type { Inputs } from './inputs.ts';
import { addSettingOptions, settingOptionsFrom } from './settingsOptions.ts';
import type { SettingOptions } from './settingsOptions.ts';
import { configFromOption } from './transformCommand.ts';
import type { CommandOutput } from './transformCommand.ts';

const FAIL_ON = ['change', 'warning', 'error'] as const;
type FailOn = (typeof FAIL_ON)[number];

/** Options of `check`, as the CLI parsed them. */
interface CheckCommandOptions extends SettingOptions {
  readonly files: readonly string[];
  readonly failOn: FailOn;
}

/**
 * What fails the check at a level: error findings always; changes from `change`; warnings at
 * `warning`.
 */
function failures(
  result: Pick<TransformResult, 'changes' | 'findings'>,
  failOn: FailOn,
): { changes: boolean; errors: boolean; warnings: boolean; failed: boolean } {
  const errors = result.findings.some((f) => f.severity === 'error');
  const changes = failOn !== 'error' && result.changes.length > 0;
  const warnings = failOn === 'warning' && result.findings.some((f) => f.severity === 'warning');
  return { changes, errors, warnings, failed: errors || changes || warnings };
}

/** Runs `check`; throws KubeGracefulError on bad input or config (exit 2). */
// A command's work is async like its siblings' (Runner): check reads everything synchronously,
// and `async` keeps its throws rejections, which is how settle() (outcome.ts) receives them.
// eslint-disable-next-line @typescript-eslint/require-await
async function runCheck(options: CheckCommandOptions): Promise<CommandOutput> {
  const config = configFromOption(options.config);
  const inputs = readInputs(options.files);
  const transformed = inFiles(inputs, () =>
    transform(inputs.text, {
      flags: options.flags,
      parseAll: options.allDocuments,
      ...(config ? { config } : {}),
    }),
  );
  // A shutdown whose outcome is not known is a warning: no ✓ without a modelled fact (issue #26).
  const result: TransformResult = {
    ...transformed,
    findings: [...transformed.findings, ...unknownOutcomeFindings(transformed)],
  };
  const verdict = failures(result, options.failOn);
  const lines = [
    ...result.changes.map((c) => changeLine(c, inputs)),
    ...result.findings
      .filter((f) => f.severity !== 'info')
      .map((f) => findingLine(f, findingLocation(f, inputs))),
    summary(result, options.failOn, verdict.failed),
  ];
  const exitCode = verdict.failed ? 1 : 0;
  if (result.mode === 'resourceList') {
    // A validator never modifies: the list as read (no item changed, so every byte is kept) plus
    // results.
    const list = readResourceList(inputs.text, {
      parseAll: options.allDocuments,
      objectKinds: REGISTERED_OBJECT_KINDS,
      extraKinds: () => result.config.spec.extraKinds,
    });
    const pending = krmResults(result.changes, [], list.resources).map((r) => ({
      ...r,
      severity: verdict.changes ? ('error' as const) : ('info' as const),
      message: `would set ${r.field?.path}: ${r.message}`,
    }));
    // Errors first, as the transform orders them (fn/krm/results.ts): kpt shows only the first few.
    const results = [...pending, ...krmResults([], result.findings, list.resources)].sort(
      bySeverity,
    );
    return { stdout: renderResourceList(list, results), stderr: lines, exitCode };
  }
  return { stdout: `${lines.join('\n')}\n`, stderr: [], exitCode };
}

/**
 * One pending change, in findingLine's shape: `change: MUTATOR file:line Kind ns/name field: before
 * → after`. One line whatever the names hold (printable): the verdict line after them is the only
 * one that starts with `kube-graceful check:`.
 */
function changeLine(change: ChangeRecord, inputs: Pick<Inputs, 'locate'>): string {
  return printable(changeText(change, inputs));
}

function changeText(change: ChangeRecord, inputs: Pick<Inputs, 'locate'>): string {
  if (addsObject(change)) {
    const near = change.madeFor ?? change;
    const at = formatLocation(inputs.locate(near.document, near.resource, []));
    return `change: ${change.mutator} ${at ? `${at} ` : ''}add ${formatRef(change.resource)}`;
  }
  const where = [
    formatLocation(inputs.locate(change.document, change.resource, change.path)),
    formatRef(change.resource),
    formatPath(change.path),
  ]
    .filter(Boolean)
    .join(' ');
  const before = clip(show(change.before));
  const after = clip(show(change.after));
  return `change: ${change.mutator} ${where}: ${before} → ${after}`;
}

/**
 * Long values (a wrapped command) are cut: the line is for finding the field, `--diff` shows it
 * all.
 */
function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

function summary(result: TransformResult, failOn: FailOn, failed: boolean): string {
  const count = (s: string) => result.findings.filter((f) => f.severity === s).length;
  const workloads = new Set(result.changes.map((c) => `${c.document}:${formatRef(c.resource)}`))
    .size;
  const changed = result.changes.length
    ? `${result.changes.length} field${result.changes.length === 1 ? '' : 's'} in ${workloads} ` +
      `workload${workloads === 1 ? '' : 's'} would change`
    : 'nothing would change';
  return (
    `kube-graceful check: ${failed ? 'FAIL' : 'ok'} (--fail-on ${failOn}): ${changed}; ` +
    `findings: ${count('error')} error, ${count('warning')} warning, ` +
    `${count('info')} info (info not shown: kube-graceful explain shows them)`
  );
}

/** Adds the `check` subcommand to `program`. */
export function registerCheck(program: CommandUnknownOpts, run: Runner): void {
  const command = addSettingOptions(
    program
      .command('check')
      .description(
        'exit 1 when the manifests are not what kube-graceful would write (or have error ' +
          'findings); one line per change and finding with file:line, resource and field. ' +
          'On a ResourceList: a KRM validator (items unchanged, results added)',
      )
      .argument('[files...]', 'manifest files (joined as one stream); - or none: stdin')
      .addOption(
        new Option(
          '--fail-on <level>',
          'error: error findings; change: also pending changes; warning: also warnings',
        )
          .choices(FAIL_ON)
          .default('change'),
      )
      .option('--log-file <file>', 'also write error messages here')
      .showHelpAfterError('(run kube-graceful check --help for usage)')
      .exitOverride(),
  );
  command.action(async (files, options) => {
    const logFile = options.logFile ?? process.env['KUBE_GRACEFUL_LOG_FILE'];
    await run(
      () => runCheck({ ...settingOptionsFrom(options), files, failOn: options.failOn }),
      logFile,
    );
  });
}
