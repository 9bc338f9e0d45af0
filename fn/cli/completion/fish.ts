/**
 * The fish completion script: `kube-graceful completion fish | source`, or saved as
 * ~/.config/fish/completions/kube-graceful.fish.
 */
import type { CompletedCommand, CompletedOption, CompletionModel } from './model.ts';

/** A fish single-quoted word. */
function quoted(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

function optionLine(program: string, condition: string, option: CompletedOption): string {
  const names = option.names.map((n) =>
    n.startsWith('--') ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`,
  );
  const value =
    option.value === 'choice'
      ? `-x -a ${quoted(option.choices.join(' '))}`
      : option.value === 'file'
        ? '-r -F'
        : option.value === 'word'
          ? '-x'
          : '';
  return [
    `complete -c ${program} -n ${quoted(condition)}`,
    ...names,
    value,
    `-d ${quoted(option.description)}`,
  ]
    .filter(Boolean)
    .join(' ');
}

function commandLines(program: string, command: CompletedCommand): string[] {
  const when = `__fish_seen_subcommand_from ${command.name}`;
  const choices = quoted(command.argumentChoices.join(' '));
  return [
    ...command.options.map((o) => optionLine(program, when, o)),
    ...(command.argumentChoices.length > 0
      ? [`complete -c ${program} -n ${quoted(when)} -a ${choices}`]
      : command.files
        ? [`complete -c ${program} -n ${quoted(when)} -F`]
        : []),
  ];
}

/** Returns the fish script that completes `model`. */
export function fishScript(model: CompletionModel): string {
  const { program } = model;
  const names = model.commands.map((c) => c.name).join(' ');
  const noCommand = `not __fish_seen_subcommand_from ${names}`;
  return [
    `# ${program} completion for fish: ${program} completion fish | source`,
    // Files only where a command reads them: not after `version` or as `completion`'s shell.
    `complete -c ${program} -f`,
    ...model.commands.map(
      (c) =>
        `complete -c ${program} -n ${quoted(noCommand)} -a ${c.name} -d ${quoted(c.description)}`,
    ),
    `complete -c ${program} -n ${quoted(noCommand)} -F`,
    ...model.root.options.map((o) => optionLine(program, noCommand, o)),
    ...model.commands.flatMap((c) => commandLines(program, c)),
    '',
  ].join('\n');
}
