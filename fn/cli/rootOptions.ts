/**
 * Options written before a subcommand (`kube-graceful --kube-version 1.28 check x.yaml`) reach it,
 * as kubectl's global flags do (issue #28). The program parses positional options
 * (`enablePositionalOptions`, program.ts): what comes before the subcommand's name is the root's,
 * what comes after is the subcommand's. Commander then runs the subcommand with its own options
 * only, and the root's would be dropped without a word: `--max-request 60 check` checked against
 * R = 30. Here each one the user gave the root is handed to the subcommand, or refused.
 *
 * - An option the subcommand also has (`--config`, `--all-documents`, every setting flag,
 *   `--log-file`) applies as if written after it.
 * - Given on both sides with the same value, it is that value; with different values it is a usage
 *   error: either choice would drop one the user wrote, and a CI line that says both is a mistake
 *   worth a message, not a guess.
 * - An option the subcommand does not have (the transform's `--report`, `--report-format`,
 *   `--diff`; any setting before `version`) is a usage error.
 */
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';

/** True when the user gave the option (on the command line or through an env variable). */
function given(command: CommandUnknownOpts, key: string): boolean {
  const source = command.getOptionValueSource(key);
  return source === 'cli' || source === 'env';
}

function flagOf(option: Option): string {
  return option.long ?? option.short ?? option.flags;
}

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/**
 * Copies the options given to `root` before the subcommand onto `sub`; calls `sub.error` (a usage
 * error, exit 2) for one `sub` does not take or one given on both sides with different values.
 */
export function applyRootOptions(root: CommandUnknownOpts, sub: CommandUnknownOpts): void {
  if (sub === root) return;
  for (const option of root.options) {
    const key = option.attributeName();
    if (!given(root, key)) continue;
    const value: unknown = root.getOptionValue(key);
    const flag = flagOf(option);
    const own = sub.options.find((o) => o.attributeName() === key);
    if (!own) {
      sub.error(
        `error: ${flag} is not an option of ${sub.name()} ` +
          `(kube-graceful ${sub.name()} --help lists them)`,
        { exitCode: 2, code: 'kube-graceful.rootOnlyOption' },
      );
    }
    if (given(sub, key)) {
      const mine: unknown = sub.getOptionValue(key);
      if (mine !== value)
        sub.error(
          `error: ${flag} is given twice, ${shown(value)} before ${sub.name()} and ` +
            `${shown(mine)} after it; give it once`,
          { exitCode: 2, code: 'kube-graceful.conflictingOption' },
        );
      continue;
    }
    sub.setOptionValueWithSource(key, value, root.getOptionValueSource(key));
  }
}
