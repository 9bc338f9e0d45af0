/**
 * The options every command that runs the mutators shares: `--config` and one flag per flat
 * setting (fn/config/flatKeys.ts), declared once here for the transform, `explain` and `check`.
 */
import { Option } from '@commander-js/extra-typings';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { FLAT_KEYS } from '../config/flatKeys.ts';

/** What the shared options parsed to. */
export interface SettingOptions {
  readonly config?: string;
  readonly flags: Readonly<Record<string, string | undefined>>;
  readonly allDocuments: boolean;
}

/**
 * Adds `--config`, `--all-documents` and the flat-setting flags to `command`; returns it typed
 * with the first two. The flat flags come from a list, so their names are not in the type:
 * settingOptionsFrom reads them back by name.
 */
export function addSettingOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  Globals extends OptionValues,
>(command: Command<Args, Opts, Globals>) {
  const typed = command
    .option(
      '-c, --config <file>',
      'GracefulShutdown config (apiVersion kube-graceful.dev/v1alpha1), ' +
        'or a ConfigMap of flat keys',
    )
    .option(
      '--all-documents',
      'parse every document, not only kinds a mutator may read (slower; validates all YAML)',
    );
  for (const key of FLAT_KEYS) {
    const option = new Option(
      `--${key.name} <${key.read === 'seconds' ? 'seconds' : 'value'}>`,
      key.help,
    );
    typed.addOption(key.choices ? option.choices(key.choices) : option);
  }
  return typed;
}

/** The options addSettingOptions declares, as commander parsed them. */
type ParsedSettingOptions = {
  readonly config?: string | undefined;
  readonly allDocuments?: true | undefined;
} & OptionValues;

/** Returns the shared options from commander's parsed `options`. */
export function settingOptionsFrom(options: ParsedSettingOptions): SettingOptions {
  return {
    ...(options.config ? { config: options.config } : {}),
    // Every flat flag takes one value (`<value>`), so commander stores text or nothing.
    flags: Object.fromEntries(FLAT_KEYS.map((k) => [k.name, flagText(options[camel(k.name)])])),
    allDocuments: options.allDocuments === true,
  };
}

function flagText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}
