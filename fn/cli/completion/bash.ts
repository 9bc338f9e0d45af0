/**
 * The bash completion script: `source <(kube-graceful completion bash)`. Commands first, then each
 * command's options, an option's choices after it, and files where the command reads files.
 */
import { allOptions } from './model.ts';
import type { CompletedCommand, CompletionModel } from './model.ts';

/** A word list for compgen -W, whose words are names and choices (no quotes or spaces in them). */
function words(list: readonly string[]): string {
  return `"${list.join(' ')}"`;
}

function optionNames(command: CompletedCommand): string[] {
  return command.options.flatMap((o) => o.names);
}

/** Returns the bash script that completes `model`. */
export function bashScript(model: CompletionModel): string {
  const fn = `_${model.program.replace(/[^A-Za-z0-9]/g, '_')}`;
  const options = allOptions(model);
  const withValue = options.filter((o) => o.value !== 'none').flatMap((o) => o.names);
  const commandNames = model.commands.map((c) => c.name);
  // By command and option: two commands may give one name different values (`-o` is explain's
  // format and check's output).
  const valueCases = [model.root, ...model.commands].flatMap((c) =>
    c.options
      .filter((o) => o.value !== 'none')
      .map((o) => {
        const reply =
          o.value === 'choice'
            ? `COMPREPLY=($(compgen -W ${words(o.choices)} -- "$cur"))`
            : o.value === 'file'
              ? `COMPREPLY=($(compgen -f -- "$cur"))`
              : 'COMPREPLY=()';
        const patterns = o.names.map((name) => `"${c.name}:${name}"`).join('|');
        return `    ${patterns}) ${reply}; return ;;`;
      }),
  );
  const optionCases = model.commands
    .filter((c) => c.options.length > 0)
    .map((c) => `      ${c.name}) opts=${words(optionNames(c))} ;;`);
  const argumentCases = model.commands.map((c) =>
    c.argumentChoices.length > 0
      ? `    ${c.name}) COMPREPLY=($(compgen -W ${words(c.argumentChoices)} -- "$cur")); return ;;`
      : c.files
        ? `    ${c.name}) ;;`
        : `    ${c.name}) return ;;`,
  );
  return `# ${model.program} completion for bash: source <(${model.program} completion bash)
${fn}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]}
  local command="" operands=0 word i opts
  local with_value=" ${withValue.join(' ')} "
  # The command is the first word that is neither an option nor an option's value.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if [[ $with_value == *" $word "* ]]; then ((i++)); continue; fi
    [[ $word == -* ]] && continue
    operands=1
    case $word in
      ${commandNames.join('|')}) command=$word ;;
    esac
    break
  done
  case "$command:$prev" in
${valueCases.join('\n')}
  esac
  COMPREPLY=()
  if [[ $cur == -* ]]; then
    case $command in
${optionCases.join('\n')}
      *) opts=${words(optionNames(model.root))} ;;
    esac
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return
  fi
  case $command in
${argumentCases.join('\n')}
    *) ((operands == 0)) && COMPREPLY=($(compgen -W ${words(commandNames)} -- "$cur")) ;;
  esac
  COMPREPLY+=($(compgen -f -- "$cur"))
}
complete -o filenames -F ${fn} ${model.program}
`;
}
