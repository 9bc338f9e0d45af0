/**
 * What a completion script completes, read from the commander program itself (issue #28): the
 * commands, each one's options with the values they take, and its arguments' choices. The scripts
 * are generated from this, so a new flag or command completes without touching them.
 */
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';

/** One option as a shell completes it. */
export interface CompletedOption {
  /** `-c`, `--config`: every name it answers to. */
  readonly names: readonly string[];
  readonly description: string;
  /** What follows it: nothing (a switch), a file, one of `choices`, or any word. */
  readonly value: 'none' | 'file' | 'choice' | 'word';
  readonly choices: readonly string[];
}

/** One command (the root, the transform, has the name ''). */
export interface CompletedCommand {
  readonly name: string;
  readonly description: string;
  readonly options: readonly CompletedOption[];
  /** The words its first argument takes (`completion bash|zsh|fish`); empty: files. */
  readonly argumentChoices: readonly string[];
  /** True when its arguments are files. */
  readonly files: boolean;
}

/** The program as completion sees it. */
export interface CompletionModel {
  readonly program: string;
  readonly root: CompletedCommand;
  readonly commands: readonly CompletedCommand[];
}

const HELP: CompletedOption = {
  names: ['-h', '--help'],
  description: 'display help',
  value: 'none',
  choices: [],
};

function completedOption(option: Option): CompletedOption {
  const names = [option.short, option.long].filter((n): n is string => n !== undefined);
  const takesValue = option.required || option.optional;
  const value = !takesValue
    ? 'none'
    : option.argChoices
      ? 'choice'
      : option.flags.includes('<file>')
        ? 'file'
        : 'word';
  return {
    names,
    description: oneLine(option.description),
    value,
    choices: option.argChoices ?? [],
  };
}

/** The first sentence on one line: a completion menu shows one line per entry. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function completedCommand(command: CommandUnknownOpts, name: string): CompletedCommand {
  const first = command.registeredArguments[0];
  return {
    name,
    description: oneLine(command.description().split('\n')[0] ?? ''),
    options: [...command.options.filter((o) => !o.hidden).map(completedOption), HELP],
    argumentChoices: first?.argChoices ?? [],
    files: first !== undefined && first.argChoices === undefined,
  };
}

/** Returns the completion model of `program`, `help` included as commander adds it. */
export function completionModel(program: CommandUnknownOpts): CompletionModel {
  const commands = program.commands.map((c) => completedCommand(c, c.name()));
  const help: CompletedCommand = {
    name: 'help',
    description: 'display help for a command',
    options: [],
    argumentChoices: commands.map((c) => c.name),
    files: false,
  };
  return {
    program: program.name(),
    root: completedCommand(program, ''),
    commands: [...commands, help],
  };
}

/** Returns every option of the model once, by its first name (for "what follows it"). */
export function allOptions(model: CompletionModel): CompletedOption[] {
  const seen = new Map<string, CompletedOption>();
  for (const command of [model.root, ...model.commands])
    for (const option of command.options) seen.set(option.names.join(' '), option);
  return [...seen.values()];
}
