/**
 * The options every command that runs the mutators shares: `--config` and one flag per flat
 * setting (fn/config/flatKeys.ts), declared once here for the transform, `explain` and `check`.
 */
import { Option } from 'commander';
import type { Command } from 'commander';
import { FLAT_KEYS } from '../config/flatKeys.ts';

/** What the shared options parsed to. */
export interface SettingOptions {
  readonly config?: string;
  readonly flags: Readonly<Record<string, string | undefined>>;
  readonly allDocuments: boolean;
}

/** Adds `--config`, `--all-documents` and the flat-setting flags to `command`; returns it. */
export function addSettingOptions(command: Command): Command {
  command
    .option('-c, --config <file>', 'GracefulShutdown config (apiVersion kube-graceful.dev/v1alpha1), or a ConfigMap of flat keys')
    .option('--all-documents', 'parse every document, not only kinds a mutator may read (slower; validates all YAML)');
  for (const key of FLAT_KEYS) {
    const option = new Option(`--${key.name} <${key.read === 'seconds' ? 'seconds' : 'value'}>`, key.help);
    command.addOption(key.choices ? option.choices([...key.choices]) : option);
  }
  return command;
}

/** Returns the shared options from commander's parsed `options`. */
export function settingOptionsFrom(options: Record<string, unknown>): SettingOptions {
  return {
    ...(options['config'] ? { config: options['config'] as string } : {}),
    flags: Object.fromEntries(FLAT_KEYS.map((k) => [k.name, options[camel(k.name)] as string | undefined])),
    allDocuments: Boolean(options['allDocuments']),
  };
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}
