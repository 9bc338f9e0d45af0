/**
 * `kube-graceful version`: the version and the commit the bundle was built from, as `kubectl
 * version` and `helm version` answer. `--version` stays the bare version, for scripts that read it.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { COMMIT, VERSION } from './buildInfo.ts';
import type { Runner } from './explainCommand.ts';

/** Adds the `version` subcommand to `program`. */
export function registerVersion(program: CommandUnknownOpts, run: Runner): void {
  program
    .command('version')
    .description('print the version and the git commit this build was made from')
    .showHelpAfterError('(run kube-graceful version --help for usage)')
    .exitOverride()
    .action(async () => {
      await run(
        () =>
          Promise.resolve({
            stdout: `kube-graceful ${VERSION} (commit ${COMMIT})\n`,
            stderr: [],
            exitCode: 0,
          }),
        undefined,
      );
    });
}
