/**
 * The command line: `kube-graceful [options] < in > out`. Flags mirror the flat settings (the
 * same names work as ConfigMap keys and `kube-graceful.dev/` annotations).
 */
import { Command, CommanderError, Option } from '@commander-js/extra-typings';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { existsSync } from 'node:fs';
import { MUTATORS } from '../mutators/registry.ts';
import { VERSION } from './buildInfo.ts';
import { registerCheck } from './checkCommand.ts';
import { commandMistakenForFile } from './commandWords.ts';
import { registerCompletion } from './completionCommand.ts';
import { registerExplain } from './explainCommand.ts';
import { registerPatches } from './patchesCommand.ts';
import { registerPolicy } from './policyCommand.ts';
import { writeAll } from './io.ts';
import { applyRootOptions } from './rootOptions.ts';
import { addSettingOptions, settingOptionsFrom } from './settingsOptions.ts';
import { runTransform } from './transformCommand.ts';
import type { CommandOutput } from './transformCommand.ts';
import { registerVersion } from './versionCommand.ts';

const EXAMPLES = `
Examples:
  # Helm 3: patch a release as it is rendered
  helm upgrade --install gw istio/gateway -n istio-ingress --post-renderer kube-graceful \\
    --post-renderer-args --lb-provider --post-renderer-args aws-nlb-ip

  # Helm 4: install the plugin once, then name it
  helm plugin install ./node_modules/kube-graceful/renderer
  helm upgrade --install gw istio/gateway --post-renderer kube-graceful

  # Any rendered stream (stdin or files), with the numbers explained in a report
  helm template gw istio/gateway | kube-graceful --report report.txt > patched.yaml
  kube-graceful rendered.yaml --report /dev/stderr > patched.yaml

  # What would change, as a diff
  kubectl kustomize overlays/prod | kube-graceful --diff

  # kpt, as a KRM function
  kpt fn eval ./package --exec kube-graceful -- kube-version=1.31

  # Why each number, as a timeline before and after; a CI gate (exit 1 if anything would change)
  kube-graceful explain gateway.yaml --max-request 10
  kube-graceful check manifests/*.yaml --fail-on change

  # Flux: the changes as kustomize patches for a HelmRelease's postRenderers
  helm template gw istio/gateway | kube-graceful patches

Options go before or after a command's name (kube-graceful --kube-version 1.28 check x.yaml);
one given on both sides with different values is a usage error.

Exit codes:
  0  success (the output is on stdout)
  1  error findings (stream mode: nothing on stdout; KRM mode: the ResourceList with error results)
  2  usage, config or input error (nothing on stdout)
  70 internal error: a bug in kube-graceful (nothing on stdout)

Environment:
  KUBE_GRACEFUL_REPORT    write the report to this file (same as --report; Helm hides stderr)
  KUBE_GRACEFUL_LOG_FILE  also write error messages to this file (same as --log-file)
  NO_COLOR                never colour output
`;

/** Returns the parsed program; `run` is called with the action's output. */
export function buildProgram(
  run: (work: () => Promise<CommandOutput>, logFile: string | undefined) => Promise<void>,
): CommandUnknownOpts {
  const mutatorList = MUTATORS.map((m) => `${m.id} (${m.description})`).join('; ');
  const program = new Command('kube-graceful')
    // Help, version and usage errors go straight to the descriptors (see writeAll); subcommands
    // inherit this from the program.
    .configureOutput({
      writeOut: (text) => void writeAll(1, text),
      writeErr: (text) => void writeAll(2, text),
    })
    .description(
      [
        'Makes rollouts lose no requests and Jobs with mesh sidecars finish: ' +
          'reads rendered manifests (a stream, or a KRM ResourceList) on stdin or from files ' +
          'and writes them back with correct shutdown settings, ' +
          'every number computed from one timing model.',
        `Mutators: ${mutatorList || 'none registered'}.`,
      ].join('\n\n'),
    )
    .version(VERSION, '-V, --version')
    .argument('[files...]', 'manifest files to read as one stream (stdin when none, or -)')
    // `kube-graceful help [command]`, as well as --help.
    .helpCommand(true)
    // Options after a subcommand name are the subcommand's (they share the setting flags).
    .enablePositionalOptions()
    .option(
      '--report <file>',
      'write what changed and why to this file (text, or JSON when it ends in .json)',
    )
    .addOption(
      new Option('--report-format <format>', 'report format').choices(['text', 'json'] as const),
    )
    .option('--diff', 'print a unified diff of what would change instead of the stream')
    .option('--log-file <file>', 'also write error messages here (Helm 4 never shows stderr)')
    .showHelpAfterError('(run kube-graceful --help for usage)')
    .addHelpText('after', EXAMPLES);
  const transformCommand = addSettingOptions(program);
  registerExplain(program, run);
  registerCheck(program, run);
  registerPatches(program, run);
  registerPolicy(program, run);
  registerVersion(program, run);
  registerCompletion(program, run);
  // Options written before a subcommand's name reach it, or are refused: never dropped.
  program.hook('preAction', (root, action) => applyRootOptions(root, action));
  transformCommand.action(async (files, options) => {
    const commands = [...program.commands.map((c) => c.name()), 'help'];
    const mistaken = commandMistakenForFile(files, commands, existsSync);
    if (mistaken)
      program.error(`error: ${mistaken}`, { exitCode: 2, code: 'kube-graceful.unknownCommand' });
    const { flags, config, allDocuments } = settingOptionsFrom(options);
    const logFile = options.logFile ?? process.env['KUBE_GRACEFUL_LOG_FILE'];
    await run(
      () =>
        runTransform({
          files,
          flags,
          ...(config ? { config } : {}),
          ...(options.report !== undefined ? { report: options.report } : {}),
          ...(options.reportFormat ? { reportFormat: options.reportFormat } : {}),
          diff: options.diff === true,
          allDocuments,
        }),
      logFile,
    );
  });
  program.exitOverride();
  return program;
}

export { CommanderError };
