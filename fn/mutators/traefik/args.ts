/** The new `args` of a Traefik container: life-cycle flags changed where they are, or added. */
import type { Flag } from '../../workloads/traefik/flags.ts';

/** Replace a flag's value where it is, or add `--name=value` after the argument at `after`. */
export type ArgEdit =
  | { readonly replace: Flag; readonly name: string; readonly value: string }
  | { readonly after: number; readonly name: string; readonly value: string };

/**
 * Returns the args with each edit made: a flag's value replaced where it is (in `--name=value` or
 * in the argument after `--name`), or a new `--name=value` right after the entry point's last
 * flag, so an entry point's flags stay together as the chart writes them.
 */
export function applyArgEdits(args: readonly string[], edits: readonly ArgEdit[]): string[] {
  const out = [...args];
  for (const edit of edits) {
    if (!('replace' in edit)) continue;
    const flag = edit.replace;
    if (flag.valueIndex === flag.index) {
      const original = out[flag.index] ?? '';
      out[flag.index] = `${original.slice(0, original.indexOf('=') + 1)}${edit.value}`;
    } else if (flag.valueIndex !== undefined) {
      out[flag.valueIndex] = edit.value;
    }
  }
  // Insert from the last position back, so earlier positions stay right; edits for one position
  // keep their order.
  const inserts = edits.filter((e): e is Extract<ArgEdit, { after: number }> => 'after' in e);
  const positions = [...new Set(inserts.map((e) => e.after))].sort((a, b) => b - a);
  for (const position of positions) {
    const added = inserts.filter((e) => e.after === position).map((e) => `--${e.name}=${e.value}`);
    out.splice(Math.min(position + 1, out.length), 0, ...added);
  }
  return out;
}
