/**
 * The transform takes files (`kube-graceful [options] [files...]`, what Helm runs), so a mistyped
 * command reached it as a file name: `kube-graceful chek x.yaml` answered `cannot read chek:
 * ENOENT` (issue #28). A file argument that names no file but is a command, or a few letters from
 * one, is answered as the mistyped command it is. A file that is there is read whatever its name:
 * `./check` and a file named `check` still work.
 */
import { closest } from '../core/didYouMean.ts';

/**
 * Returns the usage error for a file argument that is no file but a command or a typo of one, or
 * undefined when every argument may be read as a file.
 */
export function commandMistakenForFile(
  files: readonly string[],
  commands: readonly string[],
  exists: (path: string) => boolean,
): string | undefined {
  for (const word of files) {
    // A path (`x.yaml`, `./chek`, `dir/check`) is meant as a file: its read error says so.
    if (word === '-' || /[./\\]/.test(word) || exists(word)) continue;
    if (commands.includes(word))
      return (
        `'${word}' is a command, and there is no file of that name: write the command first ` +
        `(kube-graceful ${word} [options] [files...])`
      );
    const near = closest(word, commands);
    if (near !== undefined)
      return `unknown command '${word}' (did you mean ${near}?), and there is no file of that name`;
  }
  return undefined;
}
