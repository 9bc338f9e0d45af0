/**
 * `kube-graceful policy [FILE…|-]` (issue #31 item 5): the plan the transform would make, as a
 * ValidatingAdmissionPolicy and binding that reject new pods of the planned workloads whose grace
 * period or preStop hooks fall below it (fn/report/admissionPolicy.ts). Same inputs and settings as
 * the transform; docs/usage.md.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { stringify } from 'yaml';
import { admissionPolicy, podGuards } from '../report/admissionPolicy.ts';
import type { Runner } from './explainCommand.ts';
import { findingLines, transformFiles } from './transformFiles.ts';
import { patchedObjects } from './patchesCommand.ts';
import { addSettingOptions, settingOptionsFrom } from './settingsOptions.ts';
import type { SettingOptions } from './settingsOptions.ts';
import type { CommandOutput } from './transformCommand.ts';

const HEADER =
  '# kube-graceful policy: apply to the cluster (Kubernetes 1.30+); it rejects new pods of the\n' +
  '# workloads below whose terminationGracePeriodSeconds or preStop hooks fall below the plan.\n';

/** Runs `policy`; exit 1 with nothing on stdout on error findings, as the transform. */
function runPolicy(options: SettingOptions & { readonly files: readonly string[] }): CommandOutput {
  const { inputs, result } = transformFiles(options);
  const stderr = findingLines(result, inputs);
  if (result.findings.some((f) => f.severity === 'error')) {
    stderr.push('kube-graceful policy: error findings above; no policy written.');
    return { stdout: '', stderr, exitCode: 1 };
  }
  const spec = result.config.spec;
  const { guards, unguarded } = podGuards(patchedObjects(result), spec.extraKinds, spec.namespace);
  stderr.push(...unguarded.map((why) => `kube-graceful policy: not guarded: ${why}`));
  if (guards.length === 0) {
    stderr.push(
      'kube-graceful policy: the plan sets no grace period or preStop hook here; ' +
        'no policy written.',
    );
    return { stdout: '', stderr, exitCode: 0 };
  }
  const stdout =
    HEADER +
    admissionPolicy(guards)
      .map((object) => stringify(object, { version: '1.1', lineWidth: 0 }))
      .join('---\n');
  return { stdout, stderr, exitCode: 0 };
}

/** Adds the `policy` subcommand to `program`. */
export function registerPolicy(program: CommandUnknownOpts, run: Runner): void {
  const command = addSettingOptions(
    program
      .command('policy')
      .description(
        'print a ValidatingAdmissionPolicy (and binding) that rejects new pods whose grace ' +
          'period or preStop hooks fall below the plan',
      )
      .argument('[files...]', 'manifest files (joined as one stream); - or none: stdin')
      .option('--log-file <file>', 'also write error messages here')
      .showHelpAfterError('(run kube-graceful policy --help for usage)')
      .exitOverride(),
  );
  command.action(async (files, options) => {
    const logFile = options.logFile ?? process.env['KUBE_GRACEFUL_LOG_FILE'];
    await run(() => Promise.resolve(runPolicy({ ...settingOptionsFrom(options), files })), logFile);
  });
}
