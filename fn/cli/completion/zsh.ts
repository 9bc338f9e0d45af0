/**
 * The zsh completion script: `source <(kube-graceful completion zsh)` after compinit, or saved as
 * `_kube-graceful` in a folder of $fpath.
 */
import type { CompletedCommand, CompletedOption, CompletionModel } from './model.ts';

/** Text inside a single-quoted _arguments spec: its own quotes, brackets and colons escaped. */
function specText(text: string): string {
  return text.replace(/[[\]:\\]/g, (c) => `\\${c}`).replace(/'/g, `'\\''`);
}

function optionSpecs(option: CompletedOption): string[] {
  const action =
    option.value === 'choice'
      ? `:value:(${option.choices.join(' ')})`
      : option.value === 'file'
        ? ':file:_files'
        : option.value === 'word'
          ? ':value: '
          : '';
  return option.names.map((name) => `'${name}[${specText(option.description)}]${action}'`);
}

function specs(command: CompletedCommand): string {
  return command.options.flatMap(optionSpecs).join(' \\\n    ');
}

function arrayName(command: CompletedCommand): string {
  return `${command.name.replace(/[^A-Za-z0-9]/g, '_')}_specs`;
}

/** Returns the zsh script that completes `model`. */
export function zshScript(model: CompletionModel): string {
  const { program } = model;
  const fn = `_${program}`;
  const described = model.commands.map((c) => `'${specText(c.name)}:${specText(c.description)}'`);
  const cases = model.commands.map((c) => {
    const rest =
      c.argumentChoices.length > 0
        ? `'1:argument:(${c.argumentChoices.join(' ')})'`
        : c.files
          ? `'*:file:_files'`
          : '';
    return `    ${c.name}) _arguments -s $${arrayName(c)} ${rest} ;;`;
  });
  return `#compdef ${program}
# ${program} completion for zsh: source <(${program} completion zsh) after compinit
${fn}() {
  local -a root_specs commands ${model.commands.map(arrayName).join(' ')}
  root_specs=(
    ${specs(model.root)}
  )
${model.commands.map((c) => `  ${arrayName(c)}=(\n    ${specs(c)}\n  )`).join('\n')}
  commands=(
    ${described.join('\n    ')}
  )
  local curcontext=$curcontext state line
  _arguments -C -s $root_specs '1: :->first' '*:: :->rest'
  case $state in
  first)
    _describe -t commands command commands
    _files
    ;;
  rest)
    case $words[1] in
${cases.join('\n')}
    *) _arguments -s $root_specs '*:file:_files' ;;
    esac
    ;;
  esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${program}
fi
`;
}
