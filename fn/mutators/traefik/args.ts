/** The new `args` of a Traefik container: life-cycle flags changed where they are, or added. */
import { parseFlags } from './staticConfig/flags.ts';
import type { Flag } from './staticConfig/flags.ts';

/**
 * Replace a flag's value where it is, or add `--name=value` after the argument at `after`; `reason`
 * is the change record's when the edit is made as an item of its own.
 */
export type ArgEdit =
  | {
      readonly replace: Flag;
      readonly name: string;
      readonly value: string;
      readonly reason: string;
    }
  | {
      readonly after: number;
      readonly name: string;
      readonly value: string;
      readonly reason: string;
    };

/** One item of `args` to set: an existing index (a value replaced), or the next free one (a flag
 * appended). */
export interface ArgItem {
  readonly index: number;
  readonly value: string;
  readonly reason: string;
}

/**
 * Returns the edits as items of `args`, so that only those items change and every comment and
 * other item of the list stays as written: values replaced where they are, new flags appended at
 * the end. Traefik reads its flags into one configuration whatever their order (paerser
 * flag/flagparser.go@v0.2.0 `parseOne`; each new flag is a key the list does not have yet), so the
 * end is as good as next to the entry point's address, as long as every argument is a flag: the
 * parser stops at `--` or at the first argument that is not one, and a flag after that is not
 * read. Then undefined, and the caller sets the whole list with applyArgEdits.
 */
export function argItems(
  args: readonly unknown[],
  edits: readonly ArgEdit[],
): ArgItem[] | undefined {
  const flags = parseFlags(args);
  const last = flags.at(-1);
  const consumed = last === undefined ? 0 : (last.valueIndex ?? last.index) + 1;
  const appends = edits.filter((e) => 'after' in e);
  if (appends.length > 0 && consumed !== args.length) return undefined;
  const items: ArgItem[] = [];
  for (const edit of edits) {
    if (!('replace' in edit)) continue;
    const flag = edit.replace;
    if (flag.valueIndex === undefined) return undefined;
    const item = args[flag.valueIndex];
    const original = typeof item === 'string' ? item : '';
    const value =
      flag.valueIndex === flag.index
        ? `${original.slice(0, original.indexOf('=') + 1)}${edit.value}`
        : edit.value;
    items.push({ index: flag.valueIndex, value, reason: edit.reason });
  }
  appends.forEach((edit, k) =>
    items.push({
      index: args.length + k,
      value: `--${edit.name}=${edit.value}`,
      reason: edit.reason,
    }),
  );
  return items;
}

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
