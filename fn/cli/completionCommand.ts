/**
 * `kube-graceful completion bash|zsh|fish` (issue #28): a completion script generated from the
 * program's own commands and options, as `kubectl completion` prints one.
 */
import { Argument } from '@commander-js/extra-typings';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { bashScript } from './completion/bash.ts';
import { fishScript } from './completion/fish.ts';
import { completionModel } from './completion/model.ts';
import { zshScript } from './completion/zsh.ts';
import type { Runner } from './explainCommand.ts';

const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

/** Adds the `completion` subcommand to `program`; call it after every other command is added. */
export function registerCompletion(program: CommandUnknownOpts, run: Runner): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell').choices(Object.keys(SHELLS)))
    .addHelpText(
      'after',
      `
Examples:
  source <(kube-graceful completion bash)               # bash, this shell
  kube-graceful completion zsh > "\${fpath[1]}/_kube-graceful"  # zsh, after compinit
  kube-graceful completion fish | source                # fish`,
    )
    .showHelpAfterError('(run kube-graceful completion --help for usage)')
    .exitOverride()
    .action(async (shell: string) => {
      const script = SHELLS[shell as keyof typeof SHELLS];
      await run(
        () =>
          Promise.resolve({ stdout: script(completionModel(program)), stderr: [], exitCode: 0 }),
        undefined,
      );
    });
}
